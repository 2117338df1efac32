"""Names bound by a ``for`` target, a ``with … as`` target or a walrus (``:=``).

A raise that looks a name up is read with the bindings reaching it; only assignments
were followed, so ``key = "a"; for key in items: …; raise KeyError(key)`` quoted ``'a'``,
which the loop had replaced. A loop's or ``with``'s target holds a value the code does
not show: its binding is the name as a hole (say less). A walrus binds its value, as an
assignment does.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator

from errdex.template import MessageTemplate

from .scope import LAZY, Fixed, Scope, bind_assignment

__all__ = ["bind_targets", "bind_walrus"]


def bind_targets(targets: Iterable[ast.expr | None], scope: Scope) -> None:
    """Every name stored by ``targets`` now holds a value not followed."""
    if scope.env is LAZY:
        return
    for target in targets:
        if target is None:
            continue
        for node in ast.walk(target):
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                scope.env[node.id] = (Fixed(MessageTemplate.expression(node.id)),)


def bind_walrus(stmt: ast.stmt, scope: Scope) -> None:
    """The walrus assignments in ``stmt``'s own expressions (not its nested statements,
    lambdas or definitions), in order: each binds its name as ``name = value`` would."""
    if scope.env is LAZY:
        return
    for expr in _own_expressions(stmt):
        for node in _walk_expr(expr):
            if isinstance(node, ast.NamedExpr):
                assign = ast.Assign(targets=[node.target], value=node.value, lineno=stmt.lineno)
                bind_assignment(assign, scope)


def _own_expressions(stmt: ast.stmt) -> list[ast.expr]:
    if isinstance(stmt, (ast.If, ast.While)):
        return [stmt.test]
    if isinstance(stmt, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return [stmt.value] if stmt.value is not None else []
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [stmt.iter]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [item.context_expr for item in stmt.items]
    if isinstance(stmt, ast.Match):
        return [stmt.subject]
    return []


def _walk_expr(expr: ast.expr) -> Iterator[ast.AST]:
    """``ast.walk`` in source order, skipping lambdas (a walrus there binds in the lambda)."""
    todo: list[ast.AST] = [expr]
    while todo:
        node = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        yield node
        todo.extend(reversed(list(ast.iter_child_nodes(node))))
