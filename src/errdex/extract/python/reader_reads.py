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

import os
from collections.abc import Iterable
from pathlib import Path
from typing import TYPE_CHECKING

from . import name_views

if TYPE_CHECKING:
    from .module import ModuleReader

__all__ = ["closure", "fresh", "kept_as", "note_use", "reads"]

_READS = "_errdex_reads"
_USES = "_errdex_uses"
_FILE = "_errdex_file"


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
        if (by_name := name_views.read_of(reader)) is not None:
            out.add(by_name)  # a module read by name: what was looked up in it
        todo.extend(reader.__dict__.get(_USES, {}).values())
    return out


def kept_as(reader: ModuleReader, path: Path, stat: os.stat_result) -> None:
    """``reader`` was read from ``path`` as ``stat`` says (what :func:`fresh` compares)."""
    reader.__dict__[_FILE] = (path, stat.st_mtime_ns, stat.st_size)


def fresh(reader: ModuleReader, known: dict[int, bool]) -> bool:
    """Whether every kept reader ``reader`` got, in turn, was read from its file as it
    is now: a memo of ``reader`` (an MRO through another module's class) may hold one,
    and a process that scans again after an edit (tags one after another, a re-scan in
    the same process) must not serve what the edited file said before. ``known``: the
    answers already given while one file is read."""
    if id(reader) in known:
        return known[id(reader)]
    known[id(reader)] = True  # a cycle of readers is as fresh as the rest of it
    answer = True
    for other in reader.__dict__.get(_USES, {}).values():
        kept = other.__dict__.get(_FILE)
        if kept is not None:
            path, mtime, size = kept
            try:
                now = path.stat()
            except OSError:
                answer = False
            else:
                answer = (now.st_mtime_ns, now.st_size) == (mtime, size)
        if answer:
            answer = fresh(other, known)
        if not answer:
            break
    known[id(reader)] = answer
    return answer
