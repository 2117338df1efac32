"""A library file's syntax tree, read again at analysis where a rule needs more of the
module than the extracted facts keep (a class's ``__init__`` stores, a ``try`` body
that calls a private helper). Read as Python reads source (a BOM, a coding line) and
cached by path, size and modification time, at most a few trees at once (each is
large); None where the file is gone (a catalogue analysed again from its store) or does
not parse."""

from __future__ import annotations

import ast
import os
import tokenize
from functools import lru_cache

__all__ = ["file_stamp", "function_node", "module_tree", "read_source", "source_lines"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Trees kept at once: a rule reads the module of the site at hand, and sites come by file.
_KEPT = 8


def file_stamp(path: str) -> tuple[int, int] | None:
    """(size, modification time in ns): a file edited since is read again."""
    try:
        stat = os.stat(path)
    except (OSError, ValueError):
        return None
    return stat.st_size, stat.st_mtime_ns


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
def _parsed(path: str, stamp: tuple[int, int]) -> ast.Module | None:
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
def _lines(path: str, stamp: tuple[int, int]) -> tuple[str, ...] | None:
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
