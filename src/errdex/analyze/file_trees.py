"""A library file's syntax tree, read again at analysis where a rule needs more of the
module than the extracted facts keep (a class's ``__init__`` stores, a ``try`` body
that calls a private helper). Read as Python reads source (a BOM, a coding line) and
cached by path and the content digest the scan took of the file (:func:`scan_digests`),
else by size and modification time, at most a few trees at once (each is large); None
where the file is gone (a catalogue analysed again from its store) or does not parse.
The digest, not the stat: an edit that keeps the size within one clock tick of the last
(git's "racy clean" case) is read again, and a file touched but unchanged is not."""

from __future__ import annotations

import ast
import os
import tokenize
from collections.abc import Iterator, Mapping
from contextlib import contextmanager
from functools import lru_cache

__all__ = [
    "Stamp",
    "file_stamp",
    "function_node",
    "module_tree",
    "read_source",
    "scan_digests",
    "source_lines",
]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Trees kept at once: a rule reads the module of the site at hand, and sites come by file.
_KEPT = 8
#: What a file's cached reads are keyed by: its content digest, else (size, mtime in ns).
Stamp = str | tuple[int, int]
#: The content digests of the scan in progress, by absolute path.
_DIGESTS: dict[str, str] = {}


@contextmanager
def scan_digests(root: str | os.PathLike[str], by_path: Mapping[str, str | None]) -> Iterator[None]:
    """Within this block, a file of ``root`` (``by_path``: relative path -> the scan's
    content digest) is known by its digest."""
    base = os.path.abspath(root)
    before = dict(_DIGESTS)
    _DIGESTS.update(
        (os.path.join(base, rel), d) for rel, d in by_path.items() if d and not rel.endswith("/")
    )
    try:
        yield
    finally:
        _DIGESTS.clear()
        _DIGESTS.update(before)


def file_stamp(path: str) -> Stamp | None:
    """The scan's content digest of the file, else (size, modification time in ns): a
    file edited since is read again; None: it is gone."""
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    digest = _DIGESTS.get(os.path.abspath(path)) if _DIGESTS else None
    return digest if digest is not None else (stat.st_size, stat.st_mtime_ns)


def read_source(path: str) -> str | None:
    """The file's text decoded as the interpreter decodes it (BOM, ``# coding:``)."""
    try:
        with tokenize.open(path) as f:
            return f.read()
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError, LookupError):
        return None


def module_tree(path: str) -> ast.Module | None:
    stamp = file_stamp(path)
    return None if stamp is None else _parsed(path, stamp)


@lru_cache(maxsize=_KEPT)
def _parsed(path: str, stamp: Stamp) -> ast.Module | None:
    del stamp  # part of the key: a file edited between scans is read again
    text = read_source(path)
    if text is None:
        return None
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def source_lines(path: str) -> tuple[str, ...] | None:
    """The file's lines as the interpreter numbers them (a form feed ends no line)."""
    stamp = file_stamp(path)
    return None if stamp is None else _lines(path, stamp)


@lru_cache(maxsize=_KEPT)
def _lines(path: str, stamp: Stamp) -> tuple[str, ...] | None:
    del stamp  # part of the key, as for the trees
    text = read_source(path)
    return None if text is None else tuple(text.split("\n"))


def function_node(path: str, line: int, name: str) -> _Function | None:
    """The ``def name`` at ``line`` of the file (its first line, decorators aside)."""
    tree = module_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, _Function) and node.name == name and node.lineno == line:
            return node
    return None
