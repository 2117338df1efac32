"""The other modules of a file's package that may call one of its functions.

jinja2's ``ext.py`` calls ``parser.fail(…, exc=TemplateAssertionError)``, a method of
``parser.py``; what class ``Parser.fail`` raises is decided there. For a raise whose class
arrives as a parameter, the modules of the same top-level package whose text shows the
call's name (``fail(``) are parsed here, each with a reader of its own (its imports say
what the call's names mean), and kept for the other files of the process. Those files
and the package's folder are noted as read (:meth:`.Project.looked_for`), the others as
read for lacking the name (:mod:`.read_views`), so a cached scan reads the raising file
again when a module is added or removed, one that shows the name changes, or one that
did not comes to show it. A single-file top-level module (``runpy``, ``tarfile``) has no package:
its own module is all there is.
"""

from __future__ import annotations

import ast
from pathlib import Path
from typing import TYPE_CHECKING

from errdex.extract._downgrade import parse_any
from errdex.source.reading import SourceSkip

from . import read_views
from .module import module_name_for
from .package_folder import note_folder, package_of
from .project import MAX_BYTES, current_project, module_text

if TYPE_CHECKING:
    from .module import ModuleReader
    from .project import Project

__all__ = ["PackageModule", "package_modules", "package_text"]

#: Files of one package read for callers; a bigger package is not searched.
MAX_FILES = 2000
#: Modules kept parsed for caller searches (those showing a searched name: a few).
MAX_PARSED = 64

PackageModule = tuple["ModuleReader", ast.Module]

#: Texts of package files kept per process, by (path, mtime, size).
MAX_TEXTS = 4000
_TEXTS: dict[tuple[str, int, int], str] = {}
#: Parsed modules, by (root, relative path, mtime, size).
_PARSED: dict[tuple[str, str, int, int], PackageModule | None] = {}


def package_modules(near: ModuleReader, needle: str) -> list[PackageModule]:
    """The other modules of ``near``'s package whose text holds ``needle``, parsed and
    indexed (empty without a repository on disk, or for a module outside a package). A
    file without the needle is noted as read for that only (:mod:`.read_views`): an edit
    elsewhere in it does not change what was found."""
    project = current_project()
    if project is None:
        return []
    where = package_of(project, near.file_path, near.module)
    if where is None:
        return []
    base = where[0]
    texts = _package_texts(project, *where)
    # the folder itself and the files skipped: a module added to it may call the
    # function too, a file made readable may show the call (:mod:`.package_folder`)
    note_folder(project, near.file_path, *where)
    own = near.file_path.removeprefix(project.prefix)
    out: list[PackageModule] = []
    view = read_views.absent(needle)
    for rel, text in texts.items():
        if rel != own and needle not in text:
            read_views.note(project, near.file_path, rel, view)
            continue
        project.looked_for(near.file_path, rel)
        if rel == own:
            continue
        found = _parsed(project, rel, module_name_for(rel.removeprefix(base)), text)
        if found is not None:
            project.uses(found[0])  # kept for the process: its memos are this file's reads
            out.append(found)
    return out


def _package_texts(project: Project, base: str, top: str) -> dict[str, str]:
    """The package's files and texts, listed once per file read; a text is read again
    only when its file changed (a checkout moved to another tag, a file edited)."""
    key = (base, top)
    if key not in project.package_texts:
        texts: dict[str, str] = {}
        skipped: list[str] = []
        folder = project.root / base / top
        paths = sorted(folder.rglob("*.py")) if folder.is_dir() else []
        if len(paths) <= MAX_FILES:  # a package growing past it changes the listing
            for path in paths:
                text = _text(path)
                rel = path.relative_to(project.root).as_posix()
                if text is not None:
                    texts[rel] = text
                else:
                    skipped.append(rel)
        project.package_texts[key] = texts
        project.package_skipped[key] = skipped
    return project.package_texts[key]


def package_text(path: Path) -> str | None:
    """The text of a package file as the searches read it (None: a symlink, too big,
    one the scan could not read either)."""
    return _text(path)


def _text(path: Path) -> str | None:
    try:
        if path.is_symlink():
            return None
        stat = path.stat()
        if stat.st_size > MAX_BYTES:
            return None
        key = (str(path), stat.st_mtime_ns, stat.st_size)
        if key not in _TEXTS:
            if len(_TEXTS) >= MAX_TEXTS:
                _TEXTS.clear()
            _TEXTS[key] = module_text(path)
        return _TEXTS[key]
    except (OSError, SourceSkip):
        return None


def _parsed(project: Project, rel: str, module: str, text: str) -> PackageModule | None:
    root = project.root
    path = root / rel
    try:
        stat = path.stat()
    except OSError:
        return None
    key = (str(root), rel, stat.st_mtime_ns, stat.st_size)
    if key not in _PARSED:
        if len(_PARSED) >= MAX_PARSED:
            _PARSED.clear()
        _PARSED[key] = None
        try:
            tree, fields = parse_any(text, rel)
        except (SyntaxError, ValueError, RecursionError):
            return None
        if isinstance(tree, ast.Module):
            reader = project._make_reader(text, project.prefix + rel, module, fields)
            reader._index_module(tree)
            _PARSED[key] = (reader, tree)
    return _PARSED[key]
