"""What each kept module reader looked for, so a file served by it later is told so.

A reader of another module is kept for the process (:mod:`.project`) and memoizes what
it resolved (an MRO, a re-export, a star import's names). A file whose extraction gets
an answer from those memos depends on the files looked for to build them, though it
made no lookup itself. Each reader therefore keeps the files it looked for and the
readers it got, and a file's reads are its own lookups plus that closure over the readers
it relied on: not every lookup of the process, nor what the module's own extraction as a
scanned file looked for.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .module import ModuleReader

__all__ = ["closure", "note_use", "reads"]

_READS = "_errdex_reads"
_USES = "_errdex_uses"


def reads(reader: ModuleReader) -> set[str]:
    """The files (relative to the checkout) ``reader`` looked for, present or not."""
    found: set[str] = reader.__dict__.setdefault(_READS, set())
    return found


def note_use(reader: ModuleReader, other: ModuleReader) -> None:
    """``reader`` got ``other`` (its memos may hold what ``other`` answered)."""
    if other is not reader:
        uses: dict[int, ModuleReader] = reader.__dict__.setdefault(_USES, {})
        uses.setdefault(id(other), other)


def closure(readers: Iterable[ModuleReader]) -> set[str]:
    """The files ``readers`` and the readers they got, in turn, looked for."""
    out: set[str] = set()
    seen: set[int] = set()
    todo = list(readers)
    while todo:
        reader = todo.pop()
        if id(reader) in seen:
            continue
        seen.add(id(reader))
        out |= reader.__dict__.get(_READS, set())
        todo.extend(reader.__dict__.get(_USES, {}).values())
    return out
