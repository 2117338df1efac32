"""Sites raising an exception their caller passed in (``raise too_long``): the answer,
as a group, when no other site answers a pasted error (match/rank_passed.py)."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match

from .conftest import build_package

ONE = """\
def one(iterable, too_short=None, too_long=None):
    it = iter(iterable)
    for first in it:
        for second in it:
            if too_long is not None:
                raise too_long
            raise ValueError(f"Expected exactly one item, got {first!r} and {second!r}")
        return first
    if too_short is not None:
        raise too_short
    raise ValueError("too few items in iterable (expected 1)")


def again(func):
    try:
        return func()
    except KeyError as error:
        raise error
"""


def _sites(text: str, db: Path) -> list[tuple[str, int]]:
    return [(c.filePath, c.lineNumber) for c in match(text, db=db)]


def test_a_class_the_catalogue_never_saw_is_answered_by_the_passed_in_sites(
    tmp_path: Path,
) -> None:
    """A test's own ``FalsyError('too many')`` handed to ``one(..., too_long=...)``: no
    site raises that class, but the two lines raising what the caller passed may have,
    and a caught exception re-raised (``raise error``) is not where one begins."""
    db = build_package(tmp_path, "iters", {"more.py": ONE})
    found = match("tests.test_more.FalsyError: too many", db=db)
    sites = {(c.filePath, c.lineNumber) for c in found}
    assert sites == {("src/iters/more.py", 6), ("src/iters/more.py", 10)}
    assert all(c.group == 0 and c.groupSize == 2 for c in found)
    assert sum(c.confidence for c in found) < 0.5
    # where a site of the class answers, they stay out
    assert _sites("ValueError: too few items in iterable (expected 1)", db) == [
        ("src/iters/more.py", 11)
    ]


def test_an_empty_builtin_message_no_site_raises_is_answered_so_too(tmp_path: Path) -> None:
    db = build_package(tmp_path, "iters", {"more.py": ONE})
    assert set(_sites("OverflowError", db)) == {
        ("src/iters/more.py", 6),
        ("src/iters/more.py", 10),
    }


HTTP = """\
class HTTPException(Exception):
    code = None
    description = None

    def __str__(self):
        return f"{self.code} {type(self).__name__}: {self.description}"


class Unauthorized(HTTPException):
    code = 401
    description = "The server could not verify that you are authorized."


class Aborter:
    def __init__(self, mapping):
        self.mapping = mapping

    def __call__(self, code, *args):
        if code not in self.mapping:
            raise LookupError(f"no exception for {code!r}")
        raise self.mapping[code](*args)
"""


def test_a_class_of_the_package_is_answered_by_its_sites_deciding_the_class_at_run_time(
    tmp_path: Path,
) -> None:
    """werkzeug's ``abort(401)``: ``raise self.mapping[code](*args)`` raises the package's
    ``Unauthorized``, which no site raises by name."""
    db = build_package(tmp_path, "web", {"exceptions.py": HTTP})
    found = match("web.exceptions.Unauthorized: 401 Unauthorized: Basic realm", db=db)
    assert [(c.filePath, c.lineNumber) for c in found] == [("src/web/exceptions.py", 21)]
