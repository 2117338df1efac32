"""A template's literal edges as numbers: what rules most candidates out before matching.

A message that a template renders in full starts with its first literal run and ends
with its last (:func:`errdex.match.literal_match.match_runs`). The index keeps, per
entry, a CRC-32 of the first :data:`EDGE` bytes (UTF-8) of the first run and of the
last :data:`EDGE` bytes of the last run; a message's own start and end give at most
``EDGE + 1`` codes each. A candidate whose codes are not among them cannot match, and
the test is one set lookup per candidate instead of slicing its runs out of the index
and matching them. A code that collides only lets a candidate through to the full
check: nothing that matches is ever ruled out.
"""

from __future__ import annotations

from collections.abc import Sequence
from zlib import crc32

__all__ = ["EDGE", "ends", "head_code", "starts", "tail_code"]

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
