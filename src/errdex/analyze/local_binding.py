"""A local's one binding in its function's own scope, or None where there is not exactly one.

An assert's note "where `_n = 0` (line 2)" was said of ``_n`` that a loop then
increments (``_n += 1``), of a ``for _item in`` target beside its first assignment, and
of an outer parameter ``_x`` from a nested ``def``'s own ``_x = 5`` (re-reading of d44).
Every way Python binds a name counts here (assignment of any shape, augmented or
annotated assignment, ``for``/``with``/``except``/``import``/walrus/``match`` targets,
``del``, parameters, nested ``def``/``class`` names, ``global``/``nonlocal``), and a
nested function's, class's or comprehension's own names do not: only a name bound once,
by a plain ``name = value``, is quoted.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["binding_lines", "binds", "binds_otherwise", "sole_assignment"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_Scope = ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef


def sole_assignment(func: _Function, name: str) -> ast.Assign | None:
    """The ``name = value`` that is ``name``'s only binding in ``func``'s own scope."""
    if name in _parameters(func.args):
        return None
    bindings = 0
    assign: ast.Assign | None = None
    for node in _own_nodes(func.body):
        bindings += binds(node, name)
        if bindings > 1:
            return None
        if isinstance(node, ast.Assign) and any(
            isinstance(t, ast.Name) and t.id == name for t in node.targets
        ):
            assign = node
    return assign if bindings == 1 else None


def _parameters(args: ast.arguments) -> set[str]:
    every = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    return {a.arg for a in every if a is not None}


def _own_nodes(body: list[ast.stmt]) -> Iterator[ast.AST]:
    """The nodes of ``body`` evaluated in its function's scope: a nested scope's
    decorators, defaults and bases, never its body; a comprehension's parts but its
    targets (a walrus inside still binds the enclosing function's name)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        yield node
        if isinstance(node, _Scope):
            todo.extend(_outer_parts(node))
        elif isinstance(node, ast.comprehension):
            todo.extend([node.iter, *node.ifs])
        else:
            todo.extend(ast.iter_child_nodes(node))


def _outer_parts(node: _Scope) -> list[ast.AST]:
    if isinstance(node, ast.ClassDef):
        return [*node.decorator_list, *node.bases, *node.keywords]
    outer: list[ast.AST] = [*node.args.defaults, *(d for d in node.args.kw_defaults if d)]
    if not isinstance(node, ast.Lambda):
        outer.extend(node.decorator_list)
    return outer


def binding_lines(func: _Function, name: str) -> list[int] | None:
    """The lines where ``func``'s own scope binds ``name`` (a comprehension's target is
    the comprehension's, a nested ``def``'s store its own); None where ``name`` is a
    ``global`` or ``nonlocal`` there: no local of ``func`` at all."""
    lines: list[int] = []
    for node in _own_nodes(func.body):
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            return None
        if binds(node, name):
            lines.append(getattr(node, "lineno", func.lineno))
    return lines


def binds(node: ast.AST, name: str) -> bool:
    """Whether ``node`` itself binds ``name`` (a target ``Name`` is its own node)."""
    if isinstance(node, ast.Name):
        return node.id == name and not isinstance(node.ctx, ast.Load)
    if isinstance(node, (ast.Global, ast.Nonlocal)):
        return name in node.names
    return binds_otherwise(node, name)


def binds_otherwise(node: ast.AST, name: str) -> bool:
    """Whether ``node`` binds ``name`` other than as a name store: ``except … as p``,
    ``import p``, a ``def p``/``class p``, a ``match`` capture."""
    if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return node.name == name
    if isinstance(node, (ast.Import, ast.ImportFrom)):
        return any((a.asname or a.name.split(".")[0]) == name for a in node.names)
    if isinstance(node, (ast.ExceptHandler, ast.MatchAs, ast.MatchStar)):
        return node.name == name
    return isinstance(node, ast.MatchMapping) and node.rest == name
