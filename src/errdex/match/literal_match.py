"""Linear-time full matching of a template (literal runs and lazy holes) against a message.

A messagePattern made by :class:`~errdex.template.MessageTemplate` is literal runs
separated by ``([\\s\\S]*?)`` groups. For that class of regex, taking each literal
run at its leftmost occurrence after the previous one is exactly what the lazy
groups do, so ``str.startswith``/``find``/``endswith`` decide a full match and
recover the hole values in one left-to-right pass, with no regex compiled at all.
Tests check that it agrees with RE2 on every template.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Sequence
from functools import lru_cache
from re import _parser as sre_parse  # type: ignore[attr-defined]
from typing import Any

from errdex.match.re2_classes import as_python

__all__ = [
    "Required",
    "match_prefix",
    "match_runs",
    "may_fullmatch",
    "pattern_literals",
    "required_runs",
    "typed_literals",
]


def match_runs(runs: Sequence[str], message: str) -> list[str] | None:
    """Hole values if ``message`` is literal ``runs[0]``, a hole, ``runs[1]``, … a hole, ``runs[-1]``.

    ``runs`` has one more element than there are holes; empty strings stand for a
    template that starts or ends with a hole, or for two adjacent holes.
    """
    first = runs[0]
    if not message.startswith(first):
        return None
    if len(runs) == 1:
        return [] if len(message) == len(first) else None
    last = runs[-1]
    end = len(message) - len(last)
    if end < len(first) or not message.endswith(last):
        return None
    pos = len(first)
    values: list[str] = []
    for run in runs[1:-1]:
        found = message.find(run, pos, end)
        if found < 0:
            return None
        values.append(message[pos:found])
        pos = found + len(run)
    values.append(message[pos:end])
    return values


def match_prefix(runs: Sequence[str], text: str) -> tuple[list[str], int] | None:
    """(hole values, literal characters matched) if ``text`` is the start of a message
    the ``runs`` render: what is left of a message a summary line cut short.

    The holes are lazy, as in :func:`match_runs`; where the next run is not found, the
    text ends in that run (as much of its start as the text ends with) or in the hole
    before it (which takes the rest).
    """
    first = runs[0]
    if len(text) <= len(first):
        return ([], len(text)) if first.startswith(text) else None
    if len(runs) == 1 or not text.startswith(first):
        return None
    pos, literal = len(first), len(first)
    values: list[str] = []
    last = len(runs) - 1
    for k, run in enumerate(runs[1:], 1):
        if k == last:  # the last hole takes all it can: the text ends in or after the run
            whole = text.endswith(run) and len(text) - len(run) >= pos
            kept = len(run) if whole else _cut_run(run, text, pos)
            values.append(text[pos : len(text) - kept])
            return values, literal + kept
        if not run:
            values.append("")
            continue
        found = text.find(run, pos)
        if found < 0:
            kept = _cut_run(run, text, pos)
            values.append(text[pos : len(text) - kept])
            return values, literal + kept
        values.append(text[pos:found])
        pos = found + len(run)
        literal += len(run)
    return values, literal


def _cut_run(run: str, text: str, pos: int) -> int:
    """How many characters of ``run``'s start end ``text`` (after ``pos``): the longest.
    Only a start of ``run`` that ends in the text's last character can: those are tried,
    longest first, not every length (a long run against a long hole value cost one
    ``endswith`` per character)."""
    most = min(len(run) - 1, len(text) - pos)
    if most <= 0:
        return 0
    last = text[-1]
    end = run.rfind(last, 0, most)
    while end >= 0:
        if text.endswith(run[: end + 1]):
            return end + 1
        end = run.rfind(last, 0, end)
    return 0


#: A character class listing at most this many characters fixes one: a repr's ``['"]``
#: quote is printed whatever the value, one of two, where ``[0-9]`` or ``[\s\S]`` is a value.
FIXED_CLASS = 2


@lru_cache(maxsize=4096)
def pattern_literals(pattern: str) -> int | None:
    r"""The characters a pattern fixes, as :func:`match_runs`' runs count them for an untyped
    template: its literals, and inside a typed hole the characters the hole prints whatever
    its value (the ``b`` and quote of a bytes repr ``(b['"][\s\S]*?)``, a repr's quote
    ``(['"])``); a value (``[\s\S]*?``, the digits of ``(-?[0-9]+)``) fixes none. None if
    Python's parser cannot read it (RE2 syntax it lacks). The pattern's own length counts
    its escapes and holes too, and made a template with typed holes look as specific as one
    of twice its text; counting only top-level literals made ``b'`` no evidence, so a bytes
    site tied a str site whose ``%R`` hole takes ``b'abc'`` too."""
    try:
        parsed = sre_parse.parse(as_python(pattern))
    except (re.error, OverflowError, RecursionError):
        return None
    return _fixed(parsed)


@lru_cache(maxsize=4096)
def typed_literals(pattern: str) -> int:
    """Of :func:`pattern_literals`, the characters fixed inside typed holes (a repr's quotes,
    a bytes repr's ``b``): evidence of the value's type that an untyped hole lacks, so no
    slack of :mod:`.group` forgives a rival that lacks them. 0 if Python cannot parse it."""
    try:
        parsed = sre_parse.parse(as_python(pattern))
    except (re.error, OverflowError, RecursionError):
        return 0
    return _fixed(parsed) - sum(1 for op, _ in parsed if op is sre_parse.LITERAL)


def _fixed(items: Iterable[tuple[Any, Any]]) -> int:
    """Characters every match of these parsed items prints as the pattern says them."""
    count = 0
    for op, arg in items:
        if op is sre_parse.LITERAL:
            count += 1
        elif op is sre_parse.IN:
            listed = all(kind is sre_parse.LITERAL for kind, _ in arg)
            count += listed and len(arg) <= FIXED_CLASS
        elif op is sre_parse.SUBPATTERN:
            count += _fixed(arg[-1])
        elif op in (sre_parse.MAX_REPEAT, sre_parse.MIN_REPEAT):
            least, _, body = arg
            count += least * _fixed(body) if least else 0
    return count


#: What every full match of a pattern holds: ``(start, runs, end)``: the text it starts
#: with, the literal runs it holds in this order, the text it ends with ("": none known).
Required = tuple[str, tuple[str, ...], str]
#: Line breaks a verified message may carry around a pattern's match
#: (:func:`errdex.match.rank_verify.verify` retries such patterns wrapped in ``[\r\n]*``).
_BREAKS = "\r\n"
_IGNORED_FLAGS = sre_parse.SRE_FLAG_IGNORECASE | sre_parse.SRE_FLAG_VERBOSE


@lru_cache(maxsize=8192)
def required_runs(pattern: str) -> Required | None:
    """The literal text every full match of ``pattern`` holds (:data:`Required`), read
    from its top-level literals as Python's parser reads them (RE2's POSIX classes,
    ``[[:digit:]]``, spelled for it: :mod:`.re2_classes`); None when it cannot read
    it, or when its literals may match more than themselves (``(?i)``, ``(?x)``): then
    nothing is known. A top-level literal character is a literal to RE2 too (its
    extensions, ``\\pL`` or ``\\Q…\\E``, are errors to Python); zero-width assertions
    (``^``, ``\\b``) consume nothing, so they do not break a run; anything else does."""
    try:
        parsed = sre_parse.parse(as_python(pattern))
    except (re.error, OverflowError, RecursionError):
        return None
    if parsed.state.flags & _IGNORED_FLAGS:
        return None
    runs: list[str] = []
    current: list[str] = []
    opens: bool | None = None  # the first item that consumes text is a literal
    ends = False  # so is the last
    for op, arg in parsed:
        if op is sre_parse.LITERAL:
            opens = True if opens is None else opens
            current.append(chr(arg))
            ends = True
        elif op is not sre_parse.AT:
            opens = False if opens is None else opens
            ends = False
            if current:
                runs.append("".join(current))
                current = []
    if current:
        runs.append("".join(current))
    start = runs[0] if opens and runs else ""
    end = runs[-1] if ends and runs else ""
    return start.lstrip(_BREAKS), tuple(r for r in runs if r), end.rstrip(_BREAKS)


def may_fullmatch(required: Required, message: str) -> bool:
    """False only when no full match of the pattern ``required`` was read from is
    ``message``, also with line breaks around it: it lacks a run, or the start or end."""
    start, runs, end = required
    if start and not message.lstrip(_BREAKS).startswith(start):
        return False
    if end and not message.rstrip(_BREAKS).endswith(end):
        return False
    pos = 0
    for run in runs:
        found = message.find(run, pos)
        if found < 0:
            return False
        pos = found + len(run)
    return True
