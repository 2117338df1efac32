"""Whether a module binds ``type``, ``str`` or ``repr`` anywhere, shadowing the builtin,
and on which lines (:func:`shadowed_lines`: per scope).

``f"bad {type(x)}"`` prints a class's repr only while ``type`` is the builtin: with
``def f(x, type=len)`` it prints ``bad 1``. A module that binds one of these names (a
parameter, an assignment, an import, a ``def``, a loop or ``with`` target, a handler's or a
pattern's name) keeps the ``{type(x)}`` holes of the scope that binds it untyped (any
text): that function or class and the scopes nested in it, or every hole where the module
binds it or a ``global`` names it.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from functools import partial

__all__ = ["CLASS_PRINTERS", "shadowed_lines"]

#: The builtins a class-repr hole's text calls (:mod:`errdex.extract.class_holes`).
CLASS_PRINTERS = frozenset({"type", "str", "repr"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def shadowed_lines(tree: ast.Module, names: frozenset[str]) -> Callable[[int], bool]:
    """Whether a line of ``tree`` sees one of ``names`` rebound: every line where the
    module itself binds it (or a ``global``/``nonlocal`` statement names it), else the
    lines of each function or class whose own scope binds it, nested scopes included.
    ``argparse`` binds ``type`` as a parameter of a few methods: the module-wide rule left
    every ``{type(x)}`` hole of it open. Comprehensions are read as part of their enclosing
    scope (a wider span: it says less, never more)."""
    spans: list[tuple[int, int]] = []
    if _visit(tree, None, names, spans):
        return _everywhere
    return partial(_within, tuple(spans))


def _everywhere(line: int) -> bool:
    return True


def _within(spans: tuple[tuple[int, int], ...], line: int) -> bool:
    return any(start <= line <= end for start, end in spans)


def _visit(
    node: ast.AST, scope: ast.AST | None, names: frozenset[str], spans: list[tuple[int, int]]
) -> bool:
    """Adds to ``spans`` the scopes under ``node`` that bind one of ``names``; True where
    the module binds one (a plain function, not a closure: extraction leaves no reference
    cycles, ``test_extraction_leaves_no_reference_cycles``)."""
    whole = False
    for child in ast.iter_child_nodes(node):
        bound: list[str] = []
        inner = scope
        if isinstance(child, _SCOPES):
            if not isinstance(child, ast.Lambda):
                bound.append(child.name)  # binds where it stands
            inner = child
        elif isinstance(child, ast.Name) and not isinstance(child.ctx, ast.Load):
            bound.append(child.id)
        elif isinstance(child, ast.alias):
            bound.append(child.asname or child.name.split(".")[0])
        elif isinstance(child, ast.ExceptHandler | ast.MatchAs | ast.MatchStar):
            bound.append(child.name or "")
        elif isinstance(child, ast.MatchMapping):
            bound.append(child.rest or "")
        elif isinstance(child, ast.Global | ast.Nonlocal):
            whole = whole or any(n in names for n in child.names)
        if any(n in names for n in bound):
            if scope is None:
                whole = True
            else:
                spans.append(_span(scope))
        if isinstance(child, ast.arguments):
            params = [*child.posonlyargs, *child.args, *child.kwonlyargs]
            params += [a for a in (child.vararg, child.kwarg) if a is not None]
            if any(a.arg in names for a in params) and scope is not None:
                spans.append(_span(scope))
            for default in [*child.defaults, *(d for d in child.kw_defaults if d)]:
                whole = _visit(default, scope, names, spans) or whole
            continue
        whole = _visit(child, inner, names, spans) or whole
    return whole


def _span(node: ast.AST) -> tuple[int, int]:
    start = getattr(node, "lineno", 0)
    return start, getattr(node, "end_lineno", None) or start
