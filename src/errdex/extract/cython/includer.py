"""The module an included Cython file is compiled into.

``include "_unpacker.pyx"`` pastes a file into the one that includes it: msgpack builds
one extension, ``msgpack._cmsgpack``, from ``_cmsgpack.pyx``, which includes
``_packer.pyx`` and ``_unpacker.pyx``. A traceback through the included file prints its
path and the including module's names (``msgpack/_unpacker.pyx``, ``in
msgpack._cmsgpack.Unpacker.__init__``), and a Python twin's ``shadowedBy`` names that
module. In a scan (a checkout on disk, :func:`~errdex.extract.python.project.current_project`)
the Cython files of the included file's own folder are looked at: the first one, in name
order, whose ``include`` statement names the file is its includer, followed up to the file
that no other includes (a ``.pxi`` included by an included ``.pyx``); a Tempita template
(``hashtable_class_helper.pxi.in``) is included by the name of the file it renders. The scan
cache learns that the file's sites depend on the files looked at.
"""

from __future__ import annotations

import re
from pathlib import Path

from errdex.extract.python.project import Project, current_project

__all__ = ["including_file", "including_files", "module_classes"]

#: Cython sources that can include another (a template is rendered first: not read here).
_INCLUDERS = (".pyx", ".pxi")
#: ``include "name"`` starting a line (Cython's include statement takes a string literal).
_INCLUDE = re.compile(r"""^[ \t]*include[ \t]+[rRuU]?(['"])([^'"\n]+)\1""", re.MULTILINE)
#: ``cdef class Name`` (``cdef public class``, ``cdef final class``…) starting a line.
_CDEF_CLASS = re.compile(
    r"^[ \t]*cdef[ \t]+(?:(?:public|api|final|readonly)[ \t]+)*class[ \t]+(\w+)", re.MULTILINE
)
#: Bytes of a file read for its includes; a bigger one is not.
MAX_BYTES = 4_000_000
#: Includes per file, by (path, mtime, size): the files of one folder are asked in turn.
_FILES: dict[tuple[str, int, int], frozenset[Path]] = {}
MAX_FILES = 256
#: Steps followed from an included file to the file no other includes.
MAX_DEPTH = 8


def including_file(file_path: str) -> str | None:
    """The path (as the scan names files) of the file that ``file_path`` is compiled in
    through ``include`` statements, or None (no scan under way, nothing includes it)."""
    project = current_project()
    rendered = file_path.removesuffix(".in")  # a template is included by its rendered name
    if project is None or not rendered.endswith(_INCLUDERS):
        return None
    root = project.root.resolve()
    current = (project.root / rendered.removeprefix(project.prefix)).resolve()
    seen = {current}
    found: Path | None = None
    for _ in range(MAX_DEPTH):
        includer = _includer_of(current, project, root, file_path)
        if includer is None or includer in seen:
            break
        seen.add(includer)
        found = current = includer
    if found is None:
        return None
    return project.prefix + found.relative_to(root).as_posix()


def including_files(file_path: str) -> list[str]:
    """Every file ``file_path`` is compiled in (each outermost file reached through
    ``include`` statements), :func:`including_file`'s first: a ``.pxi`` that two ``.pyx``
    include builds into both modules, and a traceback through it prints the ``.pxi`` line
    with the name of the module that ran it (``File "pkg/common.pxi", line 6, in
    pkg.b.check``, Cython 3.3.1). Empty outside a scan or when nothing includes it."""
    first = including_file(file_path)
    project = current_project()
    if first is None or project is None:
        return []
    root = project.root.resolve()
    start = (project.root / file_path.removesuffix(".in").removeprefix(project.prefix)).resolve()
    found: dict[str, None] = {first: None}
    todo, seen = [(start, 0)], {start}
    while todo:
        path, depth = todo.pop(0)
        includers = [] if depth >= MAX_DEPTH else _includers_of(path, project, root, file_path)
        fresh = [p for p in includers if p not in seen]
        if not includers and path != start:
            found.setdefault(project.prefix + path.relative_to(root).as_posix(), None)
        seen.update(fresh)
        todo.extend((p, depth + 1) for p in fresh)
    return list(found)


def _includer_of(path: Path, project: Project, root: Path, file_path: str) -> Path | None:
    return next(iter(_includers_of(path, project, root, file_path, first=True)), None)


def _includers_of(
    path: Path, project: Project, root: Path, file_path: str, *, first: bool = False
) -> list[Path]:
    """The Cython files of ``path``'s folder whose ``include`` names it, in name order
    (``first``: the first one only)."""
    try:
        siblings = sorted(p for p in path.parent.iterdir() if p.suffix in _INCLUDERS)
    except OSError:
        return []
    found: list[Path] = []
    for sibling in siblings:
        if sibling == path:
            continue
        project.looked_for(file_path, sibling.relative_to(root).as_posix())
        if path in _includes(sibling):
            found.append(sibling)
            if first:
                break
    return found


def _includes(path: Path) -> frozenset[Path]:
    try:
        stat = path.stat()
    except OSError:
        return frozenset()
    key = (str(path), stat.st_mtime_ns, stat.st_size)
    found = _FILES.get(key)
    if found is None:
        found = frozenset()
        if stat.st_size <= MAX_BYTES:
            try:
                text = path.read_text("utf-8", "replace")
            except OSError:
                text = ""
            found = frozenset((path.parent / m.group(2)).resolve() for m in _INCLUDE.finditer(text))
        if len(_FILES) >= MAX_FILES:
            _FILES.clear()
        _FILES[key] = found
    return found


def module_classes(file_path: str, outer: str | None = None) -> set[str]:
    """The ``cdef class`` names of the whole module ``file_path`` is compiled into: the
    outermost file including it (``outer``: that one of several) and every file included
    from there (lxml's ``_Element`` of ``etree.pyx``, used in ``parser.pxi``); empty
    outside a scan."""
    project = current_project()
    if project is None:
        return set()
    outer = outer or including_file(file_path) or file_path.removesuffix(".in")
    root = project.root.resolve()
    start = (project.root / outer.removeprefix(project.prefix)).resolve()
    names: set[str] = set()
    todo, seen = [start], {start}
    while todo and len(seen) <= MAX_FILES:
        path = todo.pop()
        template = path.with_name(path.name + ".in")  # a rendered include's template
        for read in (path, template):  # the sites depend on them (the scan cache's check)
            if read.is_relative_to(root):
                project.looked_for(file_path, read.relative_to(root).as_posix())
        try:
            if path.stat().st_size > MAX_BYTES:
                continue
            text = path.read_text("utf-8", "replace")
        except OSError:
            try:
                text = template.read_text("utf-8", "replace")
            except OSError:
                continue
        names.update(_CDEF_CLASS.findall(text))
        for included in _includes(path):
            if included not in seen:
                seen.add(included)
                todo.append(included)
    return names
