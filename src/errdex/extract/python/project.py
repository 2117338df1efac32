"""The other modules of the repository a file is read in, for what crosses module lines.

A raise in ``parser.py`` may name a class of ``exceptions.py`` whose ``__init__`` builds
the message, or call a helper defined there. The scan says where the checkout lies
(:func:`reading_repository`); the extractor then reads such a module on first use,
indexes its top-level names (never walks it for sites) and keeps it for the other files
of the same process. Without a repository (one file extracted alone) nothing crosses
module lines: the raise keeps what its own module shows.
"""

from __future__ import annotations

import ast
import os
import re
from collections.abc import Callable, Iterator
from contextlib import contextmanager
from contextvars import ContextVar
from pathlib import Path
from typing import TYPE_CHECKING

from errdex.extract._downgrade import parse_any
from errdex.source.reading import SourceSkip, read_source

from . import name_views, read_views, reader_reads

if TYPE_CHECKING:
    from .module import ModuleReader

__all__ = ["Project", "current_project", "module_text", "reading_repository"]

#: Modules kept parsed per process (a repository's exception and helper modules are few).
MAX_MODULES = 256
#: Bytes of a module read to resolve a name in it; a bigger one is not read.
MAX_BYTES = 2_000_000


class Project:
    """A checkout on disk: ``root`` holds the files, ``prefix`` is prepended to their paths."""

    def __init__(
        self,
        root: Path,
        prefix: str,
        make_reader: Callable[[str, str, str, dict[str, str]], ModuleReader],
    ) -> None:
        self.root = root
        self.prefix = prefix
        self._make_reader = make_reader
        #: Modules already looked up while this file is read: (module, where from) -> the
        #: reader, and the files looked for to find it.
        self._found: dict[tuple[str, str], tuple[ModuleReader | None, tuple[str, ...]]] = {}
        #: A package's files and their texts, by (source base, package), listed once
        #: while this file is read (:mod:`.package_calls`).
        self.package_texts: dict[tuple[str, str], dict[str, str]] = {}
        #: The files of those packages their search could not read (not UTF-8, a
        #: symlink, too big), by the same key (:mod:`.package_folder`).
        self.package_skipped: dict[tuple[str, str], list[str]] = {}
        #: Files this file's extraction looked for itself, present or not.
        self._looked: set[str] = set()
        #: Readers this file's extraction asked or got (a kept one too): what their
        #: memos hold came from the files they looked for (:func:`.reader_reads.reads`).
        self._used: dict[int, ModuleReader] = {}
        #: Kept readers found fresh or stale while this file is read (checked once).
        self._fresh: dict[int, bool] = {}

    def reader(self, module: str, near: ModuleReader) -> ModuleReader | None:
        """The indexed reader of ``module``, found beside ``near`` (same source root)."""
        if module == "builtins" or module.startswith("builtins."):
            return None
        key = (module, near.file_path)
        self.uses(near)
        if key not in self._found:
            tried: list[str] = []
            got = self._reader(module, near, tried)
            # a module read by name is noted through what was looked up in it
            # (:func:`.reader_reads.closure`), not as its whole file
            by_name = name_views.watched_rel(got)
            self._found[key] = (got, tuple(rel for rel in tried if rel != by_name))
        found, looked = self._found[key]
        reader_reads.reads(near).update(looked)  # another reader of the same file asking
        self._looked.update(looked)
        if found is not None:  # kept from an earlier file or not: read for this one
            self.uses(found)
            reader_reads.note_use(near, found)
        return found

    def uses(self, reader: ModuleReader) -> None:
        """Note that this file's extraction relies on ``reader`` (its index, its memos)."""
        self._used.setdefault(id(reader), reader)

    def _reader(self, module: str, near: ModuleReader, tried: list[str]) -> ModuleReader | None:
        base = _source_base(near.file_path.removeprefix(self.prefix), near.module)
        if base is None or not module or module == near.module:
            return None
        for candidate in _candidates(base, module, near.file_path):
            tried.append(candidate)
            path = self.root / candidate
            try:
                stat = path.stat()
            except OSError:
                continue
            key = (str(path), self.prefix, stat.st_mtime_ns, stat.st_size)
            kept = _READERS.get(key)
            if kept is not None and not reader_reads.fresh(kept, self._fresh):
                del _READERS[key]  # its memos hold a reader of a file changed since
            if key not in _READERS:
                if len(_READERS) >= MAX_MODULES:
                    _READERS.clear()
                _READERS[key] = None  # a module importing itself back stops here
                _READERS[key] = self._load(candidate, path, module, stat)
            return _READERS[key]
        return None

    def _load(self, rel: str, path: Path, module: str, stat: os.stat_result) -> ModuleReader | None:
        if stat.st_size > MAX_BYTES:
            return None
        try:
            source = module_text(path)
            tree, fields = parse_any(source, rel)
        except (OSError, SourceSkip, SyntaxError, ValueError, RecursionError):
            return None
        if not isinstance(tree, ast.Module):
            return None
        reader = self._make_reader(source, self.prefix + rel, module, fields)
        reader_reads.kept_as(reader, path, stat)
        reader._index_module(tree)
        if not path.is_symlink():  # the views are made as the package searches read
            name_views.watch(reader, rel, tree)
        return reader

    def looked_for(self, file_path: str, rel: str) -> None:
        """Note that reading ``file_path`` looked at ``rel`` (another language's reader: a
        C header's includer, a package's files), so :meth:`files_read` lists it; a reader
        of this project at ``file_path`` keeps it too, for the files its memos serve."""
        self._looked.add(rel)
        for reader in self._used.values():
            if reader.file_path == file_path:
                reader_reads.reads(reader).add(rel)

    def files_read(self, file_path: str) -> set[str]:
        """The other files (relative to ``root``, present or not) that reading the file at
        ``file_path`` in this project looked for, and those the readers it relied on
        looked for to build what they answered (issue 13: not every lookup the process
        made, which re-extracted 35 unchanged jax files for one edit): what a cache of
        its sites must check besides its own content. A package file only partly read
        (:mod:`.read_views`) is one read of its views, or none when read whole too."""
        del file_path  # one project reads one file: what it noted is that file's
        return read_views.merged(self._looked | reader_reads.closure(self._used.values()))


def module_text(path: Path) -> str:
    """Another module's text, decoded as the scan decodes the files it extracts (its
    coding cookie decides: a latin-1 module is read, not skipped), or SourceSkip. The one
    reader of other modules' files: what a module of the package says is read the same
    way whether it is scanned itself, imported, or searched (:mod:`.package_calls`)."""
    return read_source(path)


_CYTHON_SUFFIX = re.compile(r"\.(?:pyx|pxd|pxi)(?:\.in)?$")
#: Readers of modules already read in this process, by (path, prefix, mtime, size).
_READERS: dict[tuple[str, str, int, int], ModuleReader | None] = {}


#: Where a package's Python lies beside a compiled module built from outside it: PyYAML
#: builds ``yaml._yaml`` from ``yaml/_yaml.pyx`` while ``import yaml`` is ``lib/yaml/``.
_CODE_DIRS = ("lib/", "src/")


def _candidates(base: str, module: str, file_path: str) -> list[str]:
    """The files ``module`` may be, read from the file at ``file_path`` (``base`` its
    source root): beside it, then, for a Cython file at the checkout's top, under a
    code folder (``setup.py``'s ``package_dir={'': 'lib'}``)."""
    bases = [base]
    if base == "" and _CYTHON_SUFFIX.search(file_path):
        bases += _CODE_DIRS
    return [f"{b}{module.replace('.', '/')}{end}" for b in bases for end in (".py", "/__init__.py")]


def _source_base(rel: str, module: str) -> str | None:
    """``src/click/core.py`` read as ``click.core`` -> ``src/``: where the package tree starts
    (a Cython module's ``.pyx``/``.pxd``/``.pxi`` lies where its ``.py`` would)."""
    rel = _CYTHON_SUFFIX.sub(".py", rel)
    tail = module.replace(".", "/")
    for ending in (f"{tail}.py", f"{tail}/__init__.py"):
        if rel == ending:
            return ""
        if rel.endswith("/" + ending):
            return rel[: len(rel) - len(ending)]
    return None


_PROJECT: ContextVar[Project | None] = ContextVar("errdex_python_project", default=None)


def current_project() -> Project | None:
    return _PROJECT.get()


@contextmanager
def reading_repository(root: Path, prefix: str = "") -> Iterator[Project]:
    """Within this block, the extractor reads other modules of the checkout at ``root``."""
    from .walk import ModuleExtractor  # the reader class; imported late (walk imports us)

    project = Project(root, prefix, ModuleExtractor)
    token = _PROJECT.set(project)
    try:
        yield project
    finally:
        _PROJECT.reset(token)
