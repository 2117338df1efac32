"""RE2's POSIX classes spelled for Python's parser: the same characters as RE2's."""

from __future__ import annotations

import re

import re2

from errdex.match.literal_match import required_runs
from errdex.match.re2_classes import POSIX, as_python


def test_as_python_matches_the_same_characters_as_re2() -> None:
    for name in [*POSIX, *(f"^{name}" for name in POSIX)]:
        theirs = re2.compile(f"[[:{name}:]]")
        ours = re.compile(as_python(f"[[:{name}:]]"))
        for code in range(0x180):
            c = chr(code)
            assert (theirs.fullmatch(c) is None) == (ours.fullmatch(c) is None), (name, c)


def test_as_python_leaves_other_brackets_as_written() -> None:
    assert as_python(r"a[:digit:]b") == r"a[:digit:]b"  # no bracket around: a set to both
    assert as_python(r"\[[:digit:]\]") == r"\[[:digit:]\]"
    assert as_python(r"[]x[:digit:]]") == r"[\]x\U00000030-\U00000039]"  # ] first: a character
    assert required_runs(r"a[[:foo:]]b") == ("a", ("a", "]b"), "]b")  # RE2 cannot read it
