"""Locals that only rename a parameter (``u, v = u_of_edge, v_of_edge``), for the guards.

A guard is solved over the raising function's parameters; ``v is None`` names a local
the function bound to its parameter ``v_of_edge`` at the top. Where a name is bound once
in the function, directly in its body, before the raise and to a parameter's bare name,
the guard is read with the parameter in its place. Read, not run.
"""

from __future__ import annotations

import ast
from collections import Counter
from functools import lru_cache
from pathlib import Path

from errdex.extract.python.params import parameter_names

from ._source_tree import source_tree

__all__ = ["aliases", "renamed"]

#: (first line, last line, {local: parameter}, {local: line bound}) of each function.
_Span = tuple[int, int, dict[str, str], dict[str, int]]


def _params(func: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return set(parameter_names(func.args))


def _pairs(stmt: ast.stmt) -> list[tuple[str, ast.expr]]:
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return []
    target, value = stmt.targets[0], stmt.value
    if isinstance(target, ast.Name):
        return [(target.id, value)]
    if (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
    ):
        return [
            (t.id, v)
            for t, v in zip(target.elts, value.elts, strict=True)
            if isinstance(t, ast.Name)
        ]
    return []


def _span(func: ast.FunctionDef | ast.AsyncFunctionDef) -> _Span:
    params = _params(func)
    stores = Counter(
        n.id for n in ast.walk(func) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    )
    found: dict[str, str] = {}
    lines: dict[str, int] = {}
    for stmt in func.body:
        for local, value in _pairs(stmt):
            if (
                isinstance(value, ast.Name)
                and value.id in params
                and local not in params
                and stores[local] == 1
            ):
                found[local] = value.id
                lines[local] = stmt.lineno
    return func.lineno, func.end_lineno or func.lineno, found, lines


@lru_cache(maxsize=256)
def _spans(file: Path) -> tuple[_Span, ...]:
    tree = source_tree(file)
    if tree is None:
        return ()
    return tuple(
        _span(node)
        for node in ast.walk(tree)
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef))
    )


def aliases(file: Path | None, line: int) -> dict[str, str]:
    """{local: parameter} of the innermost function of ``file`` holding ``line``, bound
    before it."""
    if file is None:
        return {}
    holding = [s for s in _spans(file) if s[0] <= line <= s[1]]
    if not holding:
        return {}
    _, _, found, lines = max(holding, key=lambda s: s[0])
    return {local: param for local, param in found.items() if lines[local] < line}


class _Rename(ast.NodeTransformer):
    def __init__(self, names: dict[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(self.names.get(node.id, node.id), node.ctx)


def renamed(guards: list[ast.expr], names: dict[str, str]) -> list[ast.expr]:
    """The guards with each alias read as its parameter."""
    if not names:
        return guards
    return [
        ast.fix_missing_locations(_Rename(names).visit(ast.parse(ast.unparse(g), mode="eval").body))
        for g in guards
    ]
