"""RE2's POSIX classes (``[[:digit:]]``) spelled so Python's parser reads them as RE2 does.

A pattern is matched by RE2, but its literal text is read by Python's parser
(:func:`.literal_match.required_runs`, :func:`.literal_match.pattern_literals`). Inside a
bracket, RE2 reads ``[:digit:]`` as the class of digits; Python reads ``[[:digit:]`` as a
set of the characters ``[:digit`` and the ``]`` after it as a literal, so ``x[[:alpha:]]y``
seemed to require ``]y``, which no message RE2 matches (``xay``) holds. :func:`as_python`
writes each POSIX class inside a bracket as the same characters in Python's syntax; what
is outside brackets, and a bracket with no POSIX class, is left as written.
"""

from __future__ import annotations

__all__ = ["as_python"]

_TOP = 0x10FFFF
#: RE2's POSIX classes (ASCII only, as in RE2's ``perl_groups.cc``), as code point ranges.
POSIX: dict[str, tuple[tuple[int, int], ...]] = {
    "alnum": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A)),
    "alpha": ((0x41, 0x5A), (0x61, 0x7A)),
    "ascii": ((0x00, 0x7F),),
    "blank": ((0x09, 0x09), (0x20, 0x20)),
    "cntrl": ((0x00, 0x1F), (0x7F, 0x7F)),
    "digit": ((0x30, 0x39),),
    "graph": ((0x21, 0x7E),),
    "lower": ((0x61, 0x7A),),
    "print": ((0x20, 0x7E),),
    "punct": ((0x21, 0x2F), (0x3A, 0x40), (0x5B, 0x60), (0x7B, 0x7E)),
    "space": ((0x09, 0x0D), (0x20, 0x20)),
    "upper": ((0x41, 0x5A),),
    "word": ((0x30, 0x39), (0x41, 0x5A), (0x61, 0x7A), (0x5F, 0x5F)),
    "xdigit": ((0x30, 0x39), (0x41, 0x46), (0x61, 0x66)),
}


def as_python(pattern: str) -> str:
    """``pattern`` with every POSIX class inside a bracket written as Python reads the
    same characters (``[[:^digit:]x]``: all but digits, and ``x``). An unknown name
    (``[:foo:]``, an error to RE2) is left as written; so is a pattern without ``[:``."""
    if "[:" not in pattern:
        return pattern
    out: list[str] = []
    k, n = 0, len(pattern)
    while k < n:
        c = pattern[k]
        if c == "\\":
            out.append(pattern[k : k + 2])
            k += 2
        elif c == "[":
            end, body = _bracket(pattern, k + 1)
            out.append(body)
            k = end
        else:
            out.append(c)
            k += 1
    return "".join(out)


def _bracket(pattern: str, k: int) -> tuple[int, str]:
    """(where the bracket opened before ``k`` ends, its text in Python's syntax): RE2 reads
    a ``]`` first in it (after any ``^``) as a character, and ``\\`` as an escape."""
    out = ["["]
    n = len(pattern)
    if pattern.startswith("^", k):
        out.append("^")
        k += 1
    if pattern.startswith("]", k):
        out.append(r"\]")
        k += 1
    while k < n:
        c = pattern[k]
        if c == "]":
            out.append("]")
            return k + 1, "".join(out)
        if c == "\\":
            out.append(pattern[k : k + 2])
            k += 2
            continue
        if pattern.startswith("[:", k):
            close = pattern.find(":]", k + 2)
            name = pattern[k + 2 : close] if close >= 0 else ""
            ranges = POSIX.get(name.removeprefix("^"))
            if ranges is not None:
                out.append(_spelled(_negated(ranges) if name.startswith("^") else ranges))
                k = close + 2
                continue
        out.append(r"\[" if c == "[" else c)
        k += 1
    return n, "".join(out)  # unclosed: an error to both, left so


def _negated(ranges: tuple[tuple[int, int], ...]) -> tuple[tuple[int, int], ...]:
    """Every code point outside ``ranges``."""
    out: list[tuple[int, int]] = []
    low = 0
    for a, b in sorted(ranges):
        if a > low:
            out.append((low, a - 1))
        low = max(low, b + 1)
    if low <= _TOP:
        out.append((low, _TOP))
    return tuple(out)


def _spelled(ranges: tuple[tuple[int, int], ...]) -> str:
    """The ranges as the inside of a Python set, every character escaped."""
    return "".join(f"\\U{a:08x}" if a == b else f"\\U{a:08x}-\\U{b:08x}" for a, b in ranges)
