"""Where a function may change, or stops holding, the object a caller passed it.

The entry-point walk trusts a caller's filled list (:mod:`.filled_locals`) at the raising
function's own test only when that function leaves the parameter alone up to the test:
``_consume(items)`` that does ``items.pop()`` first may find it empty (a read-only
review of session 41). When the caller's call may run again (in a loop), the list must
also come back from the call with its items, so the function must never change it; a
plain rebinding of the parameter at the top of its body (``fs = set(fs)``) ends what it
can do to the caller's object. Harmless uses are those :mod:`.item_uses` names.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable

from errdex.extract.python.params import parameter_names

from .item_uses import item_uses

__all__ = ["kept_params", "param_changes"]


def param_changes(node: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, tuple[int, bool]]:
    """Parameter -> (first line where it may no longer hold the caller's untouched object:
    a change, a hand-over to a call or a binding; whether the caller's object may be
    changed at all). A parameter used only harmlessly is left out."""
    params = set(parameter_names(node.args))
    uses = item_uses(node, params)
    binds: dict[str, list[int]] = {}
    for inner in ast.walk(node):
        if isinstance(inner, ast.Name) and not isinstance(inner.ctx, ast.Load):
            binds.setdefault(inner.id, []).append(inner.lineno)
        elif isinstance(inner, (ast.Global, ast.Nonlocal)):
            for name in inner.names:
                binds.setdefault(name, []).append(inner.lineno)
    out: dict[str, tuple[int, bool]] = {}
    for name in params:
        changes = [*uses.changes.get(name, ()), *(c.lineno for c in uses.calls.get(name, ()))]
        first = min((*changes, *binds.get(name, ())), default=None)
        if first is None:
            continue
        ends = _plain_rebind(node.body, name)
        out[name] = (first, any(at < ends for at in changes))
    return out


def _plain_rebind(body: list[ast.stmt], name: str) -> float:
    """The line after which ``name`` surely holds another object: the end of the first
    statement of the body's own top level that binds it (and binds it nowhere else
    before); or never."""
    for stmt in body:
        if (
            isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and any(isinstance(t, ast.Name) and t.id == name for t in _targets(stmt))
            and not any(
                isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
                for t in _targets(stmt)
                for n in ast.walk(t)
                if n is not t
            )
        ):
            return float(stmt.end_lineno or stmt.lineno) + 0.5
        if any(
            isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
            for n in ast.walk(stmt)
        ):
            return float("inf")  # bound first somewhere less plain
    return float("inf")


def _targets(stmt: ast.Assign | ast.AnnAssign) -> list[ast.expr]:
    return list(stmt.targets) if isinstance(stmt, ast.Assign) else [stmt.target]


def kept_params(
    changes: dict[str, tuple[int, bool]], params: Iterable[str], check: int | None
) -> tuple[frozenset[str], frozenset[str]]:
    """Of ``params``, those that still hold the caller's untouched object at the test on
    line ``check`` (None: anywhere); and of those, the ones whose object the function
    never changes (a call that may run again may trust them)."""
    once = frozenset(
        p for p in params if p not in changes or (check is not None and changes[p][0] > check)
    )
    return once, frozenset(p for p in once if not changes.get(p, (0, False))[1])
