"""One catalogued template against one pasted message: whether it fits, the values of its
holes, and how many characters its literal text fixes. Split from :mod:`.rank`, which
decides which templates to try and how to weigh what fits."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache

import re2

from errdex.match.index import MatchIndex
from errdex.match.literal_match import match_runs, pattern_literals

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
    entry = index.entry(entry_index)
    m = _compiled(entry.pattern).fullmatch(message)
    if m is None and (entry.pattern[-1:] in ("\n", "\r") or entry.pattern[:1] in ("\n", "\r")):
        m = re2.fullmatch(rf"[\r\n]*(?:{entry.pattern})[\r\n]*", message)  # as trimmed (rank)
    if m is None:
        return False, [], 0
    values = [g or "" for g in m.groups()]
    literal = pattern_literals(entry.pattern)
    return True, values, len(message) - sum(map(len, values)) if literal is None else literal


#: Patterns verified by RE2 kept compiled: ``re2.fullmatch`` keeps 128, and one crowded
#: anchor's candidates (``{msg} (at {loc})``, hundreds of sites) recompiled each query.
_compiled = lru_cache(maxsize=8192)(re2.compile)


def verify_once(index: MatchIndex, message: str) -> Callable[[int], tuple[bool, list[str], int]]:
    """:func:`verify` against one message, each literal-runs template matched once: the
    copies of one template under a crowded anchor (``{msg} (at {loc})``, hundreds of
    sites) share its result."""
    done: dict[str, tuple[bool, list[str], int]] = {}

    def once(entry_index: int) -> tuple[bool, list[str], int]:
        text = index.runs_text(entry_index)
        if text is None:
            return verify(index, entry_index, message)
        found = done.get(text)
        if found is None:
            found = done[text] = verify(index, entry_index, message)
        return found

    return once
