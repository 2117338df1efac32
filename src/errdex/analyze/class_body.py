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
    """Names the statements bind by ``=``, ``+=`` or ``name: T = value`` (also inside an
    ``if``/``try``/``with`` of the body); a bare annotation binds nothing, and a ``def``
    or ``class`` is a definition, looked up as such."""
    out: set[str] = set()
    stack = list(body)
    while stack:
        stmt = stack.pop()
        if isinstance(stmt, ast.Assign):
            out.update(n.id for t in stmt.targets for n in _names(t))
        elif isinstance(stmt, ast.AugAssign) or (
            isinstance(stmt, ast.AnnAssign) and stmt.value is not None
        ):
            out.update(n.id for n in _names(stmt.target))
        elif isinstance(stmt, (ast.If, ast.Try, ast.TryStar)):
            stack.extend(stmt.body)
            stack.extend(stmt.orelse)
            if not isinstance(stmt, ast.If):
                stack.extend(stmt.finalbody)
                stack.extend(x for h in stmt.handlers for x in h.body)
        elif isinstance(stmt, (ast.With, ast.AsyncWith)):
            stack.extend(stmt.body)
    return frozenset(out)


def _names(target: ast.expr) -> list[ast.Name]:
    """The plain names a target binds (``a, b = ...`` both; ``self.x``, ``d[k]`` none)."""
    if isinstance(target, ast.Name):
        return [target]
    if isinstance(target, (ast.Tuple, ast.List)):
        return [n for e in target.elts for n in _names(e)]
    if isinstance(target, ast.Starred):
        return _names(target.value)
    return []
