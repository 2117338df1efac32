"""Conditions over the function's own locals in the prose (blind review 2026-12-06:
"Triggered when `len(msg) > 512`", "when `source.next is not None`")."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

TRACKER = '''\
def send(cmd, name, rtype):
    """Send a command to the tracker."""
    msg = f"{cmd}:{name}:{rtype}".encode("ascii")
    if len(msg) > 512:
        raise ValueError("msg too long")
    return msg


def parse(text):
    """Parse a pattern."""
    source = Tokenizer(text)
    source.advance()
    if source.next is not None:
        raise SyntaxError("unbalanced parenthesis")
    return source


def check(items):
    """Check each item."""
    for item in items:
        if not isinstance(item, int):
            raise TypeError("not an int")


def c2py(text):
    """Translate."""
    depth = 0
    for c in text:
        if c == "(":
            depth += 1
            if depth > 20:
                raise ValueError("too deep")


class Tokenizer:
    def __init__(self, text):
        self.next = text
        self._loop = None

    def get_loop(self):
        """The loop it is bound to."""
        loop = self._loop
        if loop is None:
            raise RuntimeError("not initialized")
        return loop

    def advance(self):
        self.next = None
'''


def _records(tmp_path: Path) -> dict[str, dict[str, object]]:
    (tmp_path / "tracker.py").write_text(TRACKER)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    return {str(r["errorMessage"]): r for r, _ in result.items}


def test_a_local_bound_from_parameters_is_said_in_their_terms(tmp_path: Path) -> None:
    record = _records(tmp_path)["msg too long"]
    trigger = str(record["triggerScenarios"])
    assert "`len(msg) > 512`" not in trigger
    assert "len(f'{cmd}:{name}:{rtype}'.encode('ascii')) > 512" in trigger


def test_a_condition_over_a_computed_object_is_said_as_written(tmp_path: Path) -> None:
    """Leaving such a condition out named the raise with no condition, or hid the deciding
    one under "other conditions": a paired blind review judged that misleading in 4 of 4
    records, where the local's own words were true in 3."""
    records = _records(tmp_path)
    trigger = str(records["unbalanced parenthesis"]["triggerScenarios"])
    # and which parameter the local was made from (:mod:`errdex.analyze.local_origins`)
    assert trigger.startswith(
        "Triggered when `source.next is not None`, with `source` made from what was passed"
        " as `text`."
    )
    assert "Tokenizer(text).next" not in trigger  # not what the local holds at the test
    gettext = str(records["too deep"]["documentation"])
    assert 'when `c == "("` and `depth > 20`, for each `c` in the loop over `text`' in gettext
    assert "other conditions" not in gettext
    # a loop's variable is said with its loop
    loop = str(records["not an int"]["triggerScenarios"])
    assert "`not isinstance(item, int)`" in loop and "`items`" in loop


def test_a_local_that_holds_a_private_expression_is_said_as_written(tmp_path: Path) -> None:
    """``asyncio.futures.Future.get_loop``: ``loop = self._loop`` then ``if loop is None:
    raise``. Said as ``self._loop is None``, the condition was private and left out, and
    the record said "no enclosing condition" (false)."""
    trigger = str(_records(tmp_path)["not initialized"]["triggerScenarios"])
    assert "no enclosing condition" not in trigger, trigger
    assert "`loop is None`" in trigger, trigger
