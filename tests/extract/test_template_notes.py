"""The notes that say what a template cannot: no message at all, or one value errdex did
not resolve (whose pattern matches any text). Checked on what the raises really print."""

from __future__ import annotations

import textwrap

from errdex.extract.python import extract_python
from errdex.extract.template_notes import NO_MESSAGE, UNRESOLVED
from errdex.template import HOLE_REGEX

from .python._fixture import raised

CODE = textwrap.dedent(
    """\
    import os


    def helper(x):
        return os.path.join(x, "y")


    def f(x):
        if x == 1:
            raise TypeError
        if isinstance(x, str):
            raise ValueError(helper(x))
        if x == 3:
            raise ValueError(x)
        raise ValueError("x is %d" % x)
    """
)


def _by_line() -> dict[int, dict[str, object]]:
    return {s.line: s.evidence() for s in extract_python(CODE, "m.py", module="m")}


def _printed(x: object) -> str:
    return str(raised(CODE, f"f({x!r})"))


def test_a_raise_with_no_message_says_so() -> None:
    assert _printed(1) == ""
    site = _by_line()[10]
    assert site["template"] == []
    assert site["notes"] == [NO_MESSAGE]


def test_one_unresolved_value_says_its_pattern_matches_anything() -> None:
    assert _printed("a") == os_join("a")
    (note,) = _by_line()[12]["notes"]  # type: ignore[misc]
    assert note.startswith(UNRESOLVED) and "`{helper(x)}`" in note
    assert "matches any text" in note


def test_irreducible_and_worded_messages_add_no_note() -> None:
    found = _by_line()
    assert not any(str(n).startswith(UNRESOLVED) for n in found[14]["notes"])  # type: ignore[attr-defined]
    assert str(found[14]["notes"][0]).startswith("irreducible")  # type: ignore[index]
    assert found[15]["notes"] == []
    assert HOLE_REGEX not in str(found[15]["template"])


def os_join(x: str) -> str:
    import os

    return os.path.join(x, "y")
