"""A header read with what the file that includes it defines first.

A C file often pastes a header of its own into itself (simplejson's ``_speedups.c``
defines its message macros, ``#define ERR_EXPECTING_VALUE "Expecting value"``, and its
``raise_errmsg`` helper, then ``#include "_speedups_scan.h"``, whose scanner calls
``raise_errmsg(state, ERR_EXPECTING_VALUE, …)``). Read alone, the header's calls name
a helper and macros it does not define, and give no site. In a scan (a checkout on
disk, :func:`~errdex.extract.python.project.current_project`), a header is read with
the string macros the includer defines above its ``#include`` line, its exception
variables and its helpers: the C files of the header's own folder that include it by
that name are looked at (the first one, in name order, is used), and the scan cache
learns that the header's sites depend on them.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field, replace
from pathlib import Path

from errdex.extract.python.project import current_project

from .helpers import Helper

__all__ = ["HEADER_SUFFIXES", "Inherited", "from_includer", "includers_of"]

HEADER_SUFFIXES = (".h", ".hh", ".hpp", ".hxx", ".inc")
_SOURCE_SUFFIXES = (".c", ".cc", ".cpp", ".cxx")
_INCLUDE = re.compile(rb'^[ \t]*#[ \t]*include[ \t]*"([^"\n]+)"', re.MULTILINE)
#: Bytes of an includer read; a bigger file is not.
MAX_BYTES = 4_000_000


@dataclass
class Inherited:
    """What a header takes from the file that includes it."""

    includer: str  # its path, as its own sites name it
    macros: dict[str, str] = field(default_factory=dict)
    module_exceptions: dict[str, str] = field(default_factory=dict)
    registered: dict[str, str] = field(default_factory=dict)
    helpers: dict[str, Helper] = field(default_factory=dict)


@dataclass
class _Includer:
    """One C file as headers see it: the rows of its ``#include "…"`` lines, by the
    file each names, and (once a header asks) what its walk found."""

    includes: dict[Path, int]
    walked: tuple[dict[str, str], dict[str, int], Inherited] | None = None  # (macros, rows, …)


#: C files already looked at in this process, by (path, mtime, size).
_FILES: dict[tuple[str, int, int], _Includer | None] = {}
#: C files kept per process (a folder's files are few; a big tree's are dropped in turn).
MAX_FILES = 256


def from_includer(file_path: str) -> Inherited | None:
    """What the first C file of its folder that includes the header at ``file_path``
    defines for it, or None (no scan under way, not a header, no includer)."""
    project = current_project()
    if project is None or not file_path.endswith(HEADER_SUFFIXES):
        return None
    header = (project.root / file_path.removeprefix(project.prefix)).resolve()
    try:
        siblings = sorted(p for p in header.parent.iterdir() if p.suffix in _SOURCE_SUFFIXES)
    except OSError:
        return None
    for path in siblings:
        sibling = path.relative_to(project.root.resolve()).as_posix()
        project.looked_for(file_path, sibling)
        includer = _looked_at(path)
        if includer is None or header not in includer.includes:
            continue
        if includer.walked is None:
            includer.walked = _walk(path, project.prefix + sibling)
        if includer.walked is None:
            continue
        macros, rows, inherited = includer.walked
        row = includer.includes[header]
        return replace(inherited, macros={k: v for k, v in macros.items() if rows[k] < row})
    return None


def includers_of(file_path: str) -> list[str]:
    """Every C file of its folder that includes the header at ``file_path`` (paths as the
    scan names them, in name order): the header builds into each one's module."""
    project = current_project()
    if project is None or not file_path.endswith(HEADER_SUFFIXES):
        return []
    root = project.root.resolve()
    header = (project.root / file_path.removeprefix(project.prefix)).resolve()
    try:
        siblings = sorted(p for p in header.parent.iterdir() if p.suffix in _SOURCE_SUFFIXES)
    except OSError:
        return []
    found = []
    for path in siblings:
        project.looked_for(file_path, path.relative_to(root).as_posix())  # the cache's check
        includer = _looked_at(path)
        if includer is not None and header in includer.includes:
            found.append(project.prefix + path.relative_to(root).as_posix())
    return found


def _looked_at(path: Path) -> _Includer | None:
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    if key not in _FILES:
        if len(_FILES) >= MAX_FILES:
            _FILES.clear()
        _FILES[key] = _includes(path, stat.st_size)
    return _FILES[key]


def _includes(path: Path, size: int) -> _Includer | None:
    if size > MAX_BYTES:
        return None
    try:
        data = path.read_bytes()
    except OSError:
        return None
    rows: dict[Path, int] = {}
    for m in _INCLUDE.finditer(data):
        target = (path.parent / m.group(1).decode("utf-8", "replace")).resolve()
        rows.setdefault(target, data.count(b"\n", 0, m.start()))
    return _Includer(rows) if rows else None


def _walk(path: Path, includer: str) -> tuple[dict[str, str], dict[str, int], Inherited] | None:
    from . import walker_for

    try:
        data = path.read_bytes()
    except OSError:
        return None
    walker = walker_for(data, includer)
    walker.run()
    inherited = Inherited(includer, {}, walker.module_exceptions, walker.registered, walker.helpers)
    return walker.macros, walker.macro_rows, inherited
