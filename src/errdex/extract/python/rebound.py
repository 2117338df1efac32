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
    lambdas or definitions), in order: each that surely runs binds its name as
    ``name = value`` would. One that may not run (after the first operand of ``and``/``or``,
    in a branch of ``… if … else …``, in a comprehension, in an ``assert``, in a case's
    guard) leaves its name a hole: ``if x and (key := "b")`` keeps ``key``'s old value
    when ``x`` is false. A ``match``'s capture patterns (``case [key]:``) rebind too, even
    when the case fails, so their names are holes as well."""
    if scope.env is LAZY:
        return
    for expr, surely in _own_expressions(stmt):
        for node, runs in _walk_expr(expr, surely):
            if not isinstance(node, ast.NamedExpr):
                continue
            if runs:
                assign = ast.Assign(targets=[node.target], value=node.value, lineno=stmt.lineno)
                bind_assignment(assign, scope)
            else:
                bind_targets((node.target,), scope)
    if isinstance(stmt, ast.Match):
        for case in stmt.cases:
            bind_targets(_captures(case.pattern), scope)


def _own_expressions(stmt: ast.stmt) -> list[tuple[ast.expr, bool]]:
    """``stmt``'s own expressions, each with whether it surely runs."""
    if isinstance(stmt, (ast.If, ast.While)):
        return [(stmt.test, True)]
    if isinstance(stmt, (ast.Expr, ast.Return, ast.Assign, ast.AnnAssign, ast.AugAssign)):
        return [(stmt.value, True)] if stmt.value is not None else []
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        return [(stmt.iter, True)]
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        return [(item.context_expr, True) for item in stmt.items]
    if isinstance(stmt, ast.Assert):  # not run under ``python -O``; its message only on failing
        return [(e, False) for e in (stmt.test, stmt.msg) if e is not None]
    if isinstance(stmt, ast.Match):
        guards = [(c.guard, False) for c in stmt.cases if c.guard is not None]
        return [(stmt.subject, True), *guards]
    return []


def _walk_expr(expr: ast.expr, surely: bool) -> Iterator[tuple[ast.AST, bool]]:
    """``ast.walk`` in source order, skipping lambdas (a walrus there binds in the lambda),
    each node with whether it surely runs when ``expr`` does."""
    todo: list[tuple[ast.AST, bool]] = [(expr, surely)]
    while todo:
        node, runs = todo.pop()
        if isinstance(node, ast.Lambda):
            continue
        yield node, runs
        todo.extend(reversed([(child, runs and _always(node, child)) for child in _children(node)]))


def _children(node: ast.AST) -> list[ast.AST]:
    return list(ast.iter_child_nodes(node))


def _always(parent: ast.AST, child: ast.AST) -> bool:
    """Whether ``child`` runs whenever ``parent`` does."""
    if isinstance(parent, ast.BoolOp):
        return child is parent.values[0]
    if isinstance(parent, ast.IfExp):
        return child is parent.test
    return not isinstance(parent, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp))


def _captures(pattern: ast.pattern) -> list[ast.expr]:
    """The names a case pattern binds, as stores."""
    names: list[ast.expr] = []
    for node in ast.walk(pattern):
        name = getattr(node, "rest" if isinstance(node, ast.MatchMapping) else "name", None)
        if isinstance(name, str):
            names.append(ast.Name(name, ast.Store()))
    return names
