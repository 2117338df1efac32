"""What a package-wide search read of the package folder itself (issue 13).

A search of every file of a package (:mod:`.package_calls`, :mod:`.text_facts`) read the
folder's listing and each file it could read; its answer changes when a module is added
or removed (a new ``config.COLOR = …`` store, a new ``Failure(compute())``) and when a
file it skipped (not UTF-8, a symlink, too big) becomes readable. So the folder is noted
as read (a cached scan compares its listing, :func:`errdex.scan_cache.folder_digest`:
an edit that adds no file leaves it alone) and each skipped file as read whole (its
content digest): either change re-extracts the files that searched.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from .project import _source_base, current_project

if TYPE_CHECKING:
    from .module import ModuleReader
    from .project import Project

__all__ = ["note_folder", "note_package", "package_of"]


def package_of(project: Project, file_path: str, module: str) -> tuple[str, str] | None:
    """(source base, top-level package) of the module at ``file_path``; None for a
    single-file top-level module (no package) or a path the module does not match."""
    base = _source_base(file_path.removeprefix(project.prefix), module)
    if base is None or ("." not in module and not file_path.endswith("__init__.py")):
        return None
    return base, module.split(".")[0]


def note_folder(project: Project, file_path: str, base: str, top: str) -> None:
    """Note the package folder ``base``/``top`` and the files its search skipped as read
    for ``file_path``."""
    project.looked_for(file_path, f"{base}{top}/")
    for rel in project.package_skipped.get((base, top), ()):
        project.looked_for(file_path, rel)


def note_package(reader: ModuleReader) -> None:
    """:func:`note_folder` for ``reader``'s package (nothing outside a package)."""
    project = current_project()
    where = package_of(project, reader.file_path, reader.module) if project else None
    if project is not None and where is not None:
        note_folder(project, reader.file_path, *where)
