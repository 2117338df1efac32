"""Names a class body binds by assignment, which shadow the bases' attributes.

``IPv6Network`` sets ``_address_class = IPv6Address`` in its body: on an ``IPv6Network``
``self._address_class`` is that class, not ``_BaseNetwork``'s property that raises
``NotImplementedError``. A method lookup that walks past such a name to a base's
definition finds a function Python never runs (:meth:`RepoIndex.method`).
"""

from __future__ import annotations

import ast

__all__ = ["assigned_names"]


def assigned_names(body: list[ast.stmt]) -> frozenset[str]:
    """Names the statements bind by ``=``, ``+=``, ``name: T = value``, ``:=``, a ``for``
    or ``with … as`` target or a ``match`` capture, in the body's own blocks however
    deep (``if``, ``for``, ``while``, ``with``, ``try``, ``match``); a bare annotation
    binds nothing, a comprehension's or an ``except … as``'s name does not outlive it,
    and a ``def`` or ``class`` is a definition, looked up as such."""
    out: set[str] = set()
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, _SCOPES):
            continue
        if isinstance(node, ast.AnnAssign) and node.value is None:
            continue
        if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
            out.add(node.id)
        elif isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name:
            out.add(node.name)
        elif isinstance(node, ast.MatchMapping) and node.rest:
            out.add(node.rest)
        todo.extend(ast.iter_child_nodes(node))
    return frozenset(out)


#: Nodes whose names are not the class body's: nested scopes, and comprehensions.
_SCOPES = (
    ast.FunctionDef,
    ast.AsyncFunctionDef,
    ast.ClassDef,
    ast.Lambda,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
)
