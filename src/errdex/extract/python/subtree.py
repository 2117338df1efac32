"""The nodes of a subtree, in ``ast.walk``'s order, listed fast and, for a definition the
extractor questions once per raise, listed once.

``ast.walk`` is a generator over ``iter_child_nodes`` over ``iter_fields``: three Python
frames per node. Most of the extraction time beyond the parse went there, the same
function walked again for each raise in it and each name asked about (issue 11). The
list built here holds the same nodes in the same (breadth-first) order, so any reading
of it finds what a reading of ``ast.walk`` found.
"""

from __future__ import annotations

import ast

__all__ = ["calls", "name_ids", "statements", "walk", "walked"]

_AST = ast.AST
#: The fields that hold statements (a handler's, a case's too): no expression holds one.
_BLOCKS = frozenset(("body", "handlers", "orelse", "finalbody", "cases"))
# Kept on the node itself: a tree's lists go with the tree. (A WeakKeyDictionary kept
# them all: a node's list holds the node, so its key never died; 719 lists after the
# standard library, +24 MiB.) Only statements and definitions are listed, which nothing
# here copies and rewrites (``passed`` deep-copies an expression, never a statement).
_WALKED = "_errdex_walked"
_CALLS = "_errdex_calls"


def walk(node: ast.AST) -> list[ast.AST]:
    """``list(ast.walk(node))``, built without a generator per node."""
    out = [node]
    append = out.append
    for current in out:  # the list grows while it is read: breadth first, like ``ast.walk``
        for name in current._fields:
            value = getattr(current, name, None)
            if isinstance(value, _AST):
                append(value)
            elif isinstance(value, list):
                for item in value:
                    if isinstance(item, _AST):
                        append(item)
    return out


def walked(node: ast.AST) -> list[ast.AST]:
    """:func:`walk` of ``node``, listed once per node (the list is shared: not to be
    changed). For definitions and statements read many times; trees are not changed after
    the parse."""
    found: list[ast.AST] | None = node.__dict__.get(_WALKED)
    if found is None:
        found = walk(node)
        setattr(node, _WALKED, found)
    return found


def calls(node: ast.AST) -> list[ast.Call]:
    """The calls of :func:`walk` of ``node``, in its order, listed once per node (shared:
    not to be changed): a statement is searched again for each helper called in it."""
    found: list[ast.Call] | None = node.__dict__.get(_CALLS)
    if found is None:
        found = [n for n in walk(node) if isinstance(n, ast.Call)]
        setattr(node, _CALLS, found)
    return found


def name_ids(node: ast.AST) -> list[str]:
    """The ids of the names (``ast.Name``) of :func:`walk` of ``node``, in its order; a
    name or a constant, most assignments' one side, is answered without a walk."""
    if isinstance(node, ast.Name):
        return [node.id]  # its one child is its context
    if isinstance(node, ast.Constant):
        return []
    return [n.id for n in walk(node) if isinstance(n, ast.Name)]


def statements(node: ast.stmt) -> list[ast.AST]:
    """The statements of :func:`walk` of the statement ``node`` (``node`` first; except
    handlers and match cases too), in its order, without visiting an expression: each
    level holds the same nodes, in the same order, as the walk's."""
    out: list[ast.AST] = [node]
    append = out.append
    for current in out:
        for name in current._fields:  # in field order, as the walk reads them
            if name in _BLOCKS:
                for item in getattr(current, name, None) or ():
                    if isinstance(item, _AST):
                        append(item)
    return out
