"""How often a module's top level binds each name, read from the file's syntax tree.

A rule that judges a module function by its one definition (:mod:`.factories`), or a
condition by the builtin a name stands for (:mod:`.none_kept`), is wrong where the
module binds that name again: ``def make(): return Case()`` followed by ``def make():
return Case``, a ``def`` per branch of an ``if``, ``class int(metaclass=…)``, ``int =
…``. :class:`.facts.ModuleFacts` keeps names bound once (``settled``, ``top``), not
how often each is bound, so the tree is counted here: every store of the name at the
top level (inside ``if``/``try``/``for``/``with`` too, and by walrus anywhere there),
each ``def``/``class``, import and ``except … as`` of it, and a ``global`` declaration
of it in any function or class (which lets that body bind it) counts as one more
binding than any rule accepts.
"""

from __future__ import annotations

import ast
from collections import Counter
from functools import lru_cache

from .file_trees import file_stamp, module_tree

__all__ = ["STAR", "top_bindings"]

#: Counted once per ``from … import *`` at the top level: it may bind any name.
STAR = "*"
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)
#: Well above one: a name declared ``global`` in a body may be bound any number of times.
_GLOBAL = 2


def top_bindings(path: str) -> Counter[str] | None:
    """Name -> how many times the module at ``path`` binds it at its top level (``*``:
    star imports); None where the file is gone or does not parse."""
    stamp = file_stamp(path)
    return None if stamp is None else _counted(path, stamp)


@lru_cache(maxsize=64)
def _counted(path: str, stamp: tuple[int, int]) -> Counter[str] | None:
    del stamp  # part of the key: a file edited between scans is read again
    tree = module_tree(path)
    if tree is None:
        return None
    found: Counter[str] = Counter()
    stack: list[ast.AST] = list(tree.body)
    while stack:
        node = stack.pop()
        if isinstance(node, _SCOPES):
            found[node.name] += 1
            for inner in ast.walk(node):  # its body binds a top-level name only so
                if isinstance(inner, ast.Global):
                    found.update(dict.fromkeys(inner.names, _GLOBAL))
            stack.extend(_evaluated_here(node))
            continue
        if isinstance(node, ast.Lambda):
            continue  # its parameters and walruses are its own
        _count_node(node, found)
        stack.extend(ast.iter_child_nodes(node))
    return found


def _evaluated_here(node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> list[ast.AST]:
    """What a ``def``/``class`` statement evaluates in the enclosing (top-level) scope."""
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *(k.value for k in node.keywords)]
    args = node.args
    return [*node.decorator_list, *args.defaults, *(d for d in args.kw_defaults if d)]


def _count_node(node: ast.AST, found: Counter[str]) -> None:
    """One binding node of the top level (not a ``def``/``class``), if it is one."""
    if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
        found[node.id] += 1  # a store or a ``del``, a walrus's target too
    elif isinstance(node, (ast.Import, ast.ImportFrom)):
        for alias in node.names:
            found[STAR if alias.name == "*" else alias.asname or alias.name.split(".")[0]] += 1
    elif isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)) and node.name:
        found[node.name] += 1  # ``except … as e``, a ``match`` capture
    elif isinstance(node, ast.MatchMapping) and node.rest:
        found[node.rest] += 1
