"""Find, in one regex pass over the whole paste, the few lines worth a closer look.

Most lines of a big paste are program output or message text. Looking at each of them from
Python costs microseconds per line; one ``re.finditer`` over the text finds the lines that may
start an error (``START``) or end a message (``END``) at C speed, and the parser jumps from
one such line to the next. Both patterns are supersets of what the handlers accept: they may
let a line through that turns out to be nothing, never the reverse.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence

# Every line a handler of the parser can take starts like one of these (see each handler),
# or contains one of the needles below. A bare ``Class: message`` line needs a capitalised or
# dotted name (``plausible_class``); a location needs ``:12:`` after a colon-free path.
_START = (
    r"[^\S\n]*(?:Traceback|Exception Group|The above|During handling|\+ Exception"
    r"|File |Cell In|Input In|def\s|async\s)"
    r"|<ipython-input-|===|___|_ _|E   |FAILED |ERROR|>|CRITICAL|FATAL|WARN|INFO|DEBUG|\[|\d"
    r"|(?:[^\W\d][\w<>]*+\.[\w.<>]*+|[^\W\da-z_][\w.<>]*+)(?::|[^\S\n]*+(?:\n|$))"
)
# ``path:12:`` locations (and ``Warning`` lines) can start with anything: search for them.
_START_NEEDLES = ("Traceback (most recent call last)", "Warning", re.compile(r":\d+:"))
# Every line that ends a message (``is_boundary`` or a syntax-error block) starts like these,
# or contains one of the needles.
_END = (
    r"[^\S\n]*(?:Traceback|During handling|The above|Exception Group|\+ Exception"
    r"|File |Cell In|Input In)"
    r"|[=_\-\[\d]|FAILED |ERROR|PASSED |SKIPPED |XFAIL|XPASS|CRITICAL|FATAL|WARN|INFO|DEBUG"
    r"|>>> |In \[|\$ |```"
)
_END_NEEDLES = ("Traceback (most recent call last)", "Warning")
_START_LINE = re.compile(_START)
_END_LINE = re.compile(_END)
_START_TEXT = re.compile(rf"\n(?={_START})")
_END_TEXT = re.compile(rf"\n(?={_END})")


Needle = str | re.Pattern[str]


def _contains(line: str, needle: Needle) -> bool:
    """Substring or regex search."""
    return needle in line if isinstance(needle, str) else needle.search(line) is not None


def may_start(line: str) -> bool:
    """Whether a handler might take this line (a superset, like the whole-text screen)."""
    return _START_LINE.match(line) is not None or any(_contains(line, n) for n in _START_NEEDLES)


def may_end(line: str) -> bool:
    """Whether this line might end a message (a superset, like the whole-text screen)."""
    return _END_LINE.match(line) is not None or any(_contains(line, n) for n in _END_NEEDLES)


class Screen:
    """Sorted indices of the lines that may start an error or end a message."""

    def __init__(self, starts: list[int], ends: list[int]) -> None:
        self._starts = starts
        self._ends = ends

    @classmethod
    def of_text(cls, text: str) -> Screen:
        """Screen a whole paste, whose lines are ``text.split("\\n")``."""
        padded = "\n" + text
        starts = _line_numbers(padded, _START_TEXT, _START_NEEDLES)
        return cls(starts, _line_numbers(padded, _END_TEXT, _END_NEEDLES))

    @classmethod
    def of_items(cls, items: Sequence[object]) -> Screen:
        """Screen a short stream line by line; anything that is not a line is kept."""
        starts: list[int] = []
        ends: list[int] = []
        for at, item in enumerate(items):
            if not isinstance(item, str) or may_start(item):
                starts.append(at)
            if not isinstance(item, str) or may_end(item):
                ends.append(at)
        return cls(starts, ends)

    def next_start(self, at: int, default: int) -> int:
        """The first line at or after ``at`` that may start something, else ``default``."""
        return _next(self._starts, at, default)

    def next_end(self, at: int, default: int) -> int:
        """The first line at or after ``at`` that may end a message, else ``default``."""
        return _next(self._ends, at, default)


def _next(indices: list[int], at: int, default: int) -> int:
    """The first index not below ``at``."""
    k = bisect.bisect_left(indices, at)
    return indices[k] if k < len(indices) else default


def _line_numbers(padded: str, pattern: re.Pattern[str], needles: tuple[Needle, ...]) -> list[int]:
    """Numbers of the lines the pattern matches (at their leading newline) or a needle is in."""
    newlines = [match.start() for match in pattern.finditer(padded)]
    extra = [at for needle in needles for at in _lines_containing(padded, needle)]
    if extra:
        newlines = sorted(set(newlines).union(extra))
    numbers: list[int] = []
    line = -1
    last = 0
    for at in newlines:
        line += padded.count("\n", last, at + 1)
        last = at + 1
        numbers.append(line)
    return numbers


def _lines_containing(padded: str, needle: Needle) -> list[int]:
    """The newline before each line that contains ``needle``, searched at C speed."""
    found: list[int] = []
    at = _find(padded, needle, 0)
    while at >= 0:
        found.append(padded.rfind("\n", 0, at))
        end = padded.find("\n", at)
        if end < 0:
            break
        at = _find(padded, needle, end)
    return found


def _find(text: str, needle: Needle, start: int) -> int:
    """Where ``needle`` next occurs from ``start``, or -1."""
    if isinstance(needle, str):
        return text.find(needle, start)
    match = needle.search(text, start)
    return -1 if match is None else match.start()
