"""A library file's syntax tree, read again at analysis where a rule needs more of the
module than the extracted facts keep (a class's ``__init__`` stores, a ``try`` body
that calls a private helper). Cached by path and modification time; None where the
file is gone (a catalogue analysed again from its store) or does not parse."""

from __future__ import annotations

import ast
import os
from functools import lru_cache

__all__ = ["function_node", "module_tree"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def module_tree(path: str) -> ast.Module | None:
    try:
        stamp = os.stat(path).st_mtime_ns
    except (OSError, ValueError):
        return None
    return _parsed(path, stamp)


@lru_cache(maxsize=64)
def _parsed(path: str, stamp: int) -> ast.Module | None:
    del stamp  # part of the key: a file edited between scans is read again
    try:
        with open(path, encoding="utf-8") as f:
            return ast.parse(f.read())
    except (OSError, SyntaxError, ValueError, UnicodeDecodeError, RecursionError):
        return None


def function_node(path: str, line: int, name: str) -> _Function | None:
    """The ``def name`` at ``line`` of the file (its first line, decorators aside)."""
    tree = module_tree(path)
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, _Function) and node.name == name and node.lineno == line:
            return node
    return None
