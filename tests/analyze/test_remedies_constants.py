"""Solutions over a parameter compared with the module's own public names.

Mirrors CPython 3.11: ``asyncio.wait`` raises when ``return_when not in
(FIRST_COMPLETED, FIRST_EXCEPTION, ALL_COMPLETED)``, ``email.charset.add_charset`` when
``body_enc == SHORTEST`` and ``fractions.Fraction.from_decimal`` when ``not
isinstance(dec, Decimal)`` (imported ``from decimal``). The names are the module's, which a
caller reaches too, so the fix is stated in them; a local of the same name is not the
module's and says nothing. A property's setter (``zipfile.ZipFile.comment``, whose limit
is ``ZIP_MAX_COMMENT``) is run by ``zf.comment = c``: "pass `comment` to
`ZipFile.comment()`" names a call nobody writes.
"""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import Item, one_file_items

SOURCE = """
import sys
from decimal import Decimal

FIRST_COMPLETED = 'FIRST_COMPLETED'
ALL_COMPLETED = 'ALL_COMPLETED'
SHORTEST = 3
_PRIVATE = 4


def wait(fs, *, timeout=None, return_when=ALL_COMPLETED):
    if return_when not in (FIRST_COMPLETED, ALL_COMPLETED):
        raise ValueError(f'Invalid return_when value: {return_when}')
    return fs


def add_charset(charset, body_enc=None):
    if body_enc == SHORTEST:
        raise ValueError('SHORTEST not allowed for body_enc')


def from_decimal(dec):
    if not isinstance(dec, Decimal):
        raise TypeError('only takes Decimals, not %r' % dec)


def with_a_local(x):
    SHORTEST = read()
    if x == SHORTEST:
        raise ValueError('x equals the shortest read')


def with_a_private(x):
    if x == _PRIVATE:
        raise ValueError('x equals the private one')


if sys.platform == 'win32':
    pass
else:
    ACKNOWLEDGE = sys.platform == 'darwin'

    def sendfds(sock, fds):
        if ACKNOWLEDGE and sock.recv(1) != b'A':
            raise RuntimeError('did not receive acknowledgement of fd')


class Archive:
    @property
    def comment(self):
        return self._comment

    @comment.setter
    def comment(self, comment):
        if len(comment) > 10:
            raise ValueError('archive comment too long')
        self._comment = comment
"""


def _solutions(tmp_path: Path, message: str) -> list[str]:
    items: list[Item] = one_file_items(tmp_path, "m.py", SOURCE)
    found = [r["solutions"] for r, _ in items if r["errorMessage"] == message]
    assert len(found) == 1, message
    return found[0]


def test_membership_in_the_module_constants(tmp_path: Path) -> None:
    solutions = _solutions(tmp_path, "Invalid return_when value: {return_when}")
    assert solutions[0].startswith(
        "Pass `return_when` to `wait()` as one of `FIRST_COMPLETED` or `ALL_COMPLETED`:"
    )


def test_equal_to_a_module_constant(tmp_path: Path) -> None:
    solutions = _solutions(tmp_path, "SHORTEST not allowed for body_enc")
    assert solutions[0].startswith(
        "Pass `body_enc` to `add_charset()` as a value other than `SHORTEST`:"
    )


def test_isinstance_of_an_imported_class(tmp_path: Path) -> None:
    solutions = _solutions(tmp_path, "only takes Decimals, not %r")
    assert solutions[0].startswith("Pass `dec` to `from_decimal()` as an instance of `Decimal`:")


def test_a_local_or_private_name_is_no_module_constant(tmp_path: Path) -> None:
    # no value to pass is stated; the handler is the one fix (issue 10: not the filler)
    for message, call, cls in (
        ("x equals the shortest read", "with_a_local()", "ValueError"),
        ("x equals the private one", "with_a_private()", "ValueError"),
        # bound to a platform test (``multiprocessing.reduction``): no value a caller picks
        ("did not receive acknowledgement of fd", "sendfds()", "RuntimeError"),
    ):
        solutions = _solutions(tmp_path, message)
        assert len(solutions) == 1 and NO_FIX not in solutions, solutions
        assert solutions[0].startswith(f"Catch `{cls}` around the call to `{call}`"), solutions


def test_no_call_of_a_property_setter(tmp_path: Path) -> None:
    for text in _solutions(tmp_path, "archive comment too long"):
        assert "`Archive.comment()`" not in text, text
