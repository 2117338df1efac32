"""Where in the repository an attribute name is stored, for rules whose sentence holds
only if no other line stores it (:mod:`.init_only`: "`__init__` did not run" was false
for ``Reader._closed``, which ``Base.close()`` in another module sets; re-reader, stop
38). Any object counts (``x._ready = …``, ``setattr``/``object.__setattr__``/``delattr``
with the name as a constant, ``vars(x)["_ready"] = …``, ``x.__dict__.update(_ready=…)``):
which object a store reaches is not known here, so each is taken as a store of it.
"""

from __future__ import annotations

import ast
import os
import re
from collections import Counter
from collections.abc import Iterable
from functools import lru_cache

from .file_trees import Stamp, file_stamp, read_source
from .repo import RepoIndex

__all__ = ["repo_files", "store_names", "stores_elsewhere"]

#: A private identifier anywhere in a file's text: a file without the name is not parsed.
_PRIVATE_WORD = re.compile(r"(?<!\w)_\w+")
_SET = frozenset({"setattr", "delattr"})
_DUNDER_SET = frozenset({"__setattr__", "__delattr__"})


def repo_files(index: RepoIndex) -> tuple[str, ...]:
    """Every library module's file on disk (none where the index knows no directory)."""
    if index.files_memo is None:
        index.files_memo = (
            tuple(sorted(os.path.join(index.root, m.rel) for m in index.modules.values()))
            if index.root
            else ()
        )
    return index.files_memo


def store_names(node: ast.AST) -> list[str]:
    """Attribute names ``node`` stores to or deletes, on any object."""
    if isinstance(node, ast.Attribute) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return [node.attr]
    if isinstance(node, ast.Subscript) and isinstance(node.ctx, (ast.Store, ast.Del)):
        key = node.slice
        if isinstance(key, ast.Constant) and isinstance(key.value, str):
            return [key.value]  # ``vars(obj)["_ready"] = …``, ``self.__dict__[…]``
        return []
    if not isinstance(node, ast.Call):
        return []
    func = node.func
    called = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if called in _SET or called in _DUNDER_SET:
        return [
            a.value
            for a in node.args[1:2]
            if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
    if called in {"update", "setdefault"} and isinstance(func, ast.Attribute):
        return [k.arg for k in node.keywords if k.arg] + [
            a.value
            for a in node.args[:1]
            if isinstance(a, ast.Constant) and isinstance(a.value, str)
        ]
    return []


def stores_elsewhere(name: str, files: Iterable[str], own: str) -> tuple[tuple[str, int], ...]:
    """(file, how many stores) for each file but ``own`` that stores ``name``; a file
    Python cannot decode or parse stores nothing (it never runs: the stdlib's
    ``test/tokenizedata/bad_coding.py`` took every ``Thread`` init cause away)."""
    out: list[tuple[str, int]] = []
    for path in files:
        if path == own:
            continue
        stamp = file_stamp(path)
        if stamp is None:
            continue  # gone since the scan: not part of the repository any more
        words = _words(path, stamp)
        if words is None or name not in words:
            continue
        counts = _counts(path, stamp)
        found = counts.get(name, 0) if counts is not None else 0
        if found:
            out.append((path, found))
    return tuple(out)


@lru_cache(maxsize=16384)
def _words(path: str, stamp: Stamp) -> frozenset[str] | None:
    del stamp  # part of the key
    text = read_source(path)
    return None if text is None else frozenset(_PRIVATE_WORD.findall(text))


@lru_cache(maxsize=4096)
def _counts(path: str, stamp: Stamp) -> dict[str, int] | None:
    del stamp  # part of the key
    text = read_source(path)
    if text is None:
        return None
    try:
        tree = ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None
    return dict(Counter(n for sub in ast.walk(tree) for n in store_names(sub)))
