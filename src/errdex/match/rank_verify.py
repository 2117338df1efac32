"""One catalogued template against one pasted message: whether it fits, the values of its
holes, and how many characters its literal text fixes. Split from :mod:`.rank`, which
decides which templates to try and how to weigh what fits."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

import re2

from errdex.match.index import MatchIndex
from errdex.match.literal_match import (
    match_runs,
    may_fullmatch,
    pattern_literals,
    required_runs,
)

__all__ = ["verify", "verify_once"]


def verify(index: MatchIndex, entry_index: int, message: str) -> tuple[bool, list[str], int]:
    """(full match, hole values, literal length) for one entry against a message.

    Reads the literal runs straight from the index's columns: most candidates fail,
    and building a whole Entry for each would cost several times the check itself.
    """
    runs = index.runs(entry_index)
    if runs is not None:
        values = match_runs(runs, message)
        if values is None:
            return False, [], 0
        return True, values, sum(len(r) for r in runs)
    written = index.pattern(entry_index)
    pattern = written
    if written[-1:] in ("\n", "\r") or written[:1] in ("\n", "\r"):
        pattern = _trimmed(written)  # as rank trims a paste: its edge breaks optional
    compiled = _compiled(pattern)  # first: a pattern RE2 cannot read fails as before
    required = required_runs(pattern)
    if required is not None and not may_fullmatch(required, message):
        return False, [], 0  # its literal text is not there: RE2 could not match either
    m = _fullmatch(compiled, message)
    if m is None:
        return False, [], 0
    values = [g or "" for g in m.groups()]
    literal = pattern_literals(written)
    return True, values, len(message) - sum(map(len, values)) if literal is None else literal


def _trimmed(pattern: str) -> str:
    """``pattern`` with its leading and trailing line breaks optional: a pasted message is
    read without them (``rank`` trims the paste), and a break the pattern itself demands
    at its edge could never be met by wrapping the pattern in optional breaks."""
    core = pattern.strip("\r\n")
    if (len(core) - len(core.rstrip("\\"))) % 2:  # ``\<newline>``: an escape, kept whole
        core = pattern.lstrip("\r\n")
    return rf"[\r\n]*(?:{core})[\r\n]*"


#: Patterns verified by RE2 kept compiled: ``re2.fullmatch`` keeps 128, and one crowded
#: anchor's candidates (``{msg} (at {loc})``, hundreds of sites) recompiled each query.
_compiled = lru_cache(maxsize=8192)(re2.compile)


_BOTH = getattr(getattr(getattr(re2, "_re2", None), "RE2", None), "Anchor", None)
_NULL = (-1, -1)
#: The last message verified by RE2 and its UTF-8 bytes (one tuple: swapped whole).
_last: tuple[str, bytes] = ("", b"")


class _Fit:
    """A full match read from RE2's own run (:func:`_fullmatch`): its groups and span, as
    the wrapper's match object gives them."""

    __slots__ = ("_end", "_groups")

    def __init__(self, groups: tuple[str | None, ...], end: int) -> None:
        self._groups, self._end = groups, end

    def groups(self) -> tuple[str | None, ...]:
        return self._groups

    def span(self) -> tuple[int, int]:
        return 0, self._end  # a full match spans the whole message


def _fullmatch(compiled: Any, message: str) -> Any:
    """``compiled.fullmatch(message)``. RE2 runs on the message's bytes, encoded once per
    message, without the wrapper's per-call encoding and offset mapping, which cost more
    than the match; a match's groups are read from the same run (RE2's byte offsets in
    UTF-8 fall on character boundaries), not by matching again through the wrapper."""
    raw = getattr(compiled, "_regexp", None)
    if raw is None or _BOTH is None:
        return compiled.fullmatch(message)
    global _last
    last = _last
    if last[0] is message:
        encoded = last[1]
    else:
        encoded = message.encode("utf-8")
        _last = (message, encoded)
    spans = raw.Match(_BOTH.ANCHOR_BOTH, encoded, 0, len(encoded))
    if spans[0] == _NULL:
        return None
    groups = tuple(encoded[a:b].decode("utf-8") if a >= 0 else None for a, b in spans[1:])
    return _Fit(groups, len(message))


def verify_once(index: MatchIndex, message: str) -> Callable[[int], tuple[bool, list[str], int]]:
    """:func:`verify` against one message, each template matched once: the copies of one
    template under a crowded anchor (``{msg} (at {loc})``, hundreds of sites) share its
    result, and so do the entries RE2 verifies by one pattern (``re``'s ``… at position
    {int}`` at each site that raises it): the pattern alone decides the answer."""
    done: dict[str, tuple[bool, list[str], int]] = {}
    by_pattern: dict[str, tuple[bool, list[str], int]] = {}

    def once(entry_index: int) -> tuple[bool, list[str], int]:
        text = index.runs_text(entry_index)
        if text is None:
            pattern = index.pattern(entry_index)
            found = by_pattern.get(pattern)
            if found is None:
                found = by_pattern[pattern] = verify(index, entry_index, message)
            return found
        found = done.get(text)
        if found is None:
            found = done[text] = verify(index, entry_index, message)
        return found

    return once
