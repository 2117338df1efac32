"""Does a test's expected message fit a message template?

A test's ``match=`` regex is searched in the runtime message; the template knows the
literal text and where run-time values go. The regex is reduced to its literal runs
(anything else is a gap), and the runs are aligned, in order, against the template:
a run's characters either equal the template's literal text or fall inside a hole.
The fit's score is how many characters landed on literal text; a fit that rests
mostly on holes says nothing and is rejected.
"""

from __future__ import annotations

import re
import re._constants as _sre_constants  # type: ignore[import-not-found]  # 3.11+: sre_*
import re._parser as _sre_parse  # type: ignore[import-not-found]
from dataclasses import dataclass, field
from typing import Any

from errdex.template import Hole, MessageTemplate

__all__ = [
    "GRAM",
    "Expected",
    "Fit",
    "expected_grams",
    "fit",
    "from_literal",
    "from_regex",
    "good_fit",
    "may_fit",
    "template_grams",
]

_HOLE = "\x00"
#: A fit must put at least this share of the expected text on literal text…
MIN_LITERAL_SHARE = 0.6
#: …and at least this many characters (or all of them, for shorter expectations).
MIN_LITERAL_CHARS = 4


@dataclass(frozen=True, slots=True)
class Expected:
    """The literal runs a message must contain, in order, and whether it is anchored."""

    runs: tuple[str, ...]
    at_start: bool = False
    at_end: bool = False
    size: int = field(init=False)

    def __post_init__(self) -> None:
        object.__setattr__(self, "size", sum(len(r) for r in self.runs))


@dataclass(frozen=True, slots=True)
class Fit:
    literal: int  # characters of the expectation that landed on literal text
    size: int

    @property
    def share(self) -> float:
        return self.literal / self.size if self.size else 0.0


def from_literal(text: str, *, whole: bool = False) -> Expected:
    return Expected((text,), at_start=whole, at_end=whole)


def from_regex(pattern: str) -> Expected | None:
    """The literal runs of a regex, or None when it does not compile."""
    try:
        parsed = _sre_parse.parse(pattern)
    except (re.error, RecursionError, OverflowError):
        return None
    runs: list[str] = []
    current: list[str] = []
    at_start = at_end = False
    items = list(parsed)

    def cut() -> None:
        if current:
            runs.append("".join(current))
            current.clear()

    for pos, (op, arg) in enumerate(items):
        if op is _sre_constants.LITERAL:
            current.append(chr(arg))
        elif op is _sre_constants.AT:
            if arg is _sre_constants.AT_BEGINNING and pos == 0:
                at_start = True
            elif (
                arg in (_sre_constants.AT_END, _sre_constants.AT_END_STRING)
                and pos == len(items) - 1
            ):
                at_end = True
            else:
                cut()
        elif op is _sre_constants.SUBPATTERN and _only_literals(arg[-1]):
            current.extend(chr(a) for _, a in arg[-1])
        else:
            cut()
    cut()
    return Expected(tuple(runs), at_start, at_end)


def _only_literals(sub: Any) -> bool:
    return all(op is _sre_constants.LITERAL for op, _ in sub)


def _stream(template: MessageTemplate) -> str:
    parts: list[str] = []
    for p in template.parts:
        if isinstance(p, Hole):
            parts.append(p.prefix + _HOLE)
        else:
            parts.append(p.text.replace(_HOLE, ""))
    return "".join(parts)


def fit(expected: Expected, template: MessageTemplate) -> Fit | None:
    """The best alignment of ``expected`` on ``template``, or None when there is none.

    A sparse dynamic programme over template positions: ``state[p]`` is the best
    number of characters placed on literal text with the run consumed so far and the
    template read up to ``p``.
    """
    if not expected.runs:
        return None
    text = _stream(template)
    n = len(text)
    holes = [p for p in range(n) if text[p] == _HOLE]
    # ends[p]: best score with everything so far placed and the template read up to p
    ends: dict[int, int] = {0: 0} if expected.at_start else {}
    for k, run in enumerate(expected.runs):
        if k == 0 and expected.at_start:
            starts = _closed(text, holes, ends)
        else:
            starts = _starts(text, run[0], ends, unanchored=(k == 0))
        state = starts
        for ch in run:
            nxt: dict[int, int] = {}
            for p, score in state.items():
                if p >= n:
                    continue
                tok = text[p]
                if tok == _HOLE:
                    if score > nxt.get(p, -1):
                        nxt[p] = score  # the hole's value holds this character
                elif tok == ch and score + 1 > nxt.get(p + 1, -1):
                    nxt[p + 1] = score + 1
            if not nxt:
                return None
            state = _closed(text, holes, nxt)
        ends = state
    if expected.at_end:
        if n not in ends:
            return None
        score = ends[n]
    else:
        score = max(ends.values())
    return Fit(score, expected.size)


def _closed(text: str, holes: list[int], state: dict[int, int]) -> dict[int, int]:
    """A hole may also take no more characters: step over it with the same score."""
    if not holes:
        return state
    out = dict(state)
    for p in holes:  # in order, so runs of holes chain
        score = out.get(p)
        if score is not None and score > out.get(p + 1, -1):
            out[p + 1] = score
    return out


def _starts(text: str, first: str, ends: dict[int, int], *, unanchored: bool) -> dict[int, int]:
    """Where the next run may begin: after a gap, at any later position whose token can
    take its first character (that character itself, or a hole)."""
    n = len(text)
    best = 0 if unanchored else -1
    out: dict[int, int] = {}
    for p in range(n + 1):
        if not unanchored and p in ends and ends[p] > best:
            best = ends[p]
        if best < 0 or p == n:
            continue
        tok = text[p]
        if tok in (first, _HOLE):
            out[p] = best
    return out


def good_fit(result: Fit | None) -> bool:
    if result is None:
        return False
    need = min(MIN_LITERAL_CHARS, result.size)
    return result.literal >= need and result.share >= MIN_LITERAL_SHARE


GRAM = 4


def grams(text: str) -> frozenset[str]:
    """The 4-character pieces of a text: a cheap test before the alignment."""
    return frozenset(text[i : i + GRAM] for i in range(len(text) - GRAM + 1))


def template_grams(template: MessageTemplate) -> frozenset[str]:
    out: set[str] = set()
    for run in template.literals:
        out |= grams(run)
    return frozenset(out)


def expected_grams(expected: Expected) -> frozenset[str]:
    out: set[str] = set()
    for run in expected.runs:
        out |= grams(run)
    return frozenset(out)


def may_fit(expected: Expected, shared: int, holes: int) -> bool:
    """A cheap necessary test for :func:`good_fit`, from the number of the expectation's
    4-grams the template's literal text shares: each stretch placed on literal text of
    length L brings L - 3 shared grams, and there are at most ``holes + runs`` stretches."""
    if expected.size < GRAM:
        return True
    stretches = holes + len(expected.runs)
    return shared >= MIN_LITERAL_SHARE * expected.size - (GRAM - 1) * stretches
