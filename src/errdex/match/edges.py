"""A template's literal edges as numbers: what rules most candidates out before matching.

A message that a template renders in full starts with its first literal run and ends
with its last (:func:`errdex.match.literal_match.match_runs`). The index keeps, per
entry, a CRC-32 of the first :data:`EDGE` bytes (UTF-8) of the first run and of the
last :data:`EDGE` bytes of the last run; a message's own start and end give at most
``EDGE + 1`` codes each. A candidate whose codes are not among them cannot match, and
the test is one set lookup per candidate instead of slicing its runs out of the index
and matching them. A code that collides only lets a candidate through to the full
check: nothing that matches is ever ruled out. An entry RE2 verifies is coded by its
pattern's opening literal text (:func:`pattern_start`: ``re``'s ``bad escape … at
position {int}`` and its hundreds of kin under one anchor), and not by its end.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from zlib import crc32

__all__ = ["EDGE", "ends", "head_code", "pattern_start", "starts", "tail_code"]

#: Bytes of a literal edge that are coded (a longer run is coded by its first/last ones).
EDGE = 8


def _encode(text: str) -> bytes:
    return text.encode("utf-8", "surrogatepass")


def head_code(runs: Sequence[str] | None) -> int:
    """The code of the start every full match of ``runs`` has (None: checked by regex,
    nothing is known: the code of the empty start, which every message has)."""
    return crc32(_encode(runs[0][:EDGE])[:EDGE]) if runs else 0  # EDGE bytes: <= EDGE chars


def tail_code(runs: Sequence[str] | None) -> int:
    """The code of the end every full match of ``runs`` has (see :func:`head_code`)."""
    return crc32(_encode(runs[-1][-EDGE:])[-EDGE:]) if runs else 0


def starts(message: str) -> set[int]:
    """The codes of the message's starts of 0 to :data:`EDGE` bytes."""
    raw = _encode(message[:EDGE])[:EDGE]
    return {crc32(raw[:k]) for k in range(len(raw) + 1)}


def ends(message: str) -> set[int]:
    """The codes of the message's ends of 0 to :data:`EDGE` bytes."""
    raw = _encode(message[-EDGE:])[-EDGE:]
    return {crc32(raw[len(raw) - k :]) for k in range(len(raw) + 1)}


_META = r".*+?^$|()\[\]{}"
#: A pattern's opening literal characters (plain, or a metacharacter escaped, as
#: :func:`errdex.template.escape_literal` writes them), none of them under a quantifier.
_OPENING = re.compile(rf"(?:(?:[^\\{_META}]|\\[\\{_META}])(?![?*+{{]))*")
_ESCAPED = re.compile(r"\\(.)", re.S)


def pattern_start(pattern: str) -> str:
    """The text every full match of a regex starts with, as far as its opening literal
    characters say (up to its first group, class, escape of a letter or quantified
    character), less the line breaks a pasted message loses (:data:`.index.EDGE_BREAKS`).
    "" for a pattern with ``|`` anywhere (its start may be an alternative), or no such
    start: RE2 verifies these entries, and their start still rules out most messages."""
    if "|" in pattern:
        return ""
    opening = _OPENING.match(pattern)
    return _ESCAPED.sub(r"\1", opening.group()).lstrip("\r\n") if opening else ""
