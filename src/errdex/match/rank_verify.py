"""One catalogued template against one pasted message: whether it fits, the values of its
holes, and how many characters its literal text fixes. Split from :mod:`.rank`, which
decides which templates to try and how to weigh what fits."""

from __future__ import annotations

from collections.abc import Callable
from functools import lru_cache
from typing import Any

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
    m = _fullmatch(_compiled(entry.pattern), message)
    if m is None and (entry.pattern[-1:] in ("\n", "\r") or entry.pattern[:1] in ("\n", "\r")):
        m = _fullmatch(_compiled(_trimmed(entry.pattern)), message)  # as rank trims a paste
    if m is None:
        return False, [], 0
    values = [g or "" for g in m.groups()]
    literal = pattern_literals(entry.pattern)
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


def _fullmatch(compiled: Any, message: str) -> Any:
    """``compiled.fullmatch(message)``. Most of a message's candidates do not match: those
    are told by RE2 on the message's bytes, encoded once per message, without the wrapper's
    per-call encoding and offset mapping, which cost more than the match; a match is
    then made by the wrapper, as before (its groups as text)."""
    raw = getattr(compiled, "_regexp", None)
    if raw is not None and _BOTH is not None:
        global _last
        last = _last
        if last[0] is message:
            encoded = last[1]
        else:
            encoded = message.encode("utf-8")
            _last = (message, encoded)
        if raw.Match(_BOTH.ANCHOR_BOTH, encoded, 0, len(encoded))[0] == _NULL:
            return None
    return compiled.fullmatch(message)


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
