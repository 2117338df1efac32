"""Whether a module binds ``type``, ``str`` or ``repr`` anywhere, shadowing the builtin.

``f"bad {type(x)}"`` prints a class's repr only while ``type`` is the builtin: with
``def f(x, type=len)`` it prints ``bad 1``. A module that binds one of these names (a
parameter, an assignment, an import, a ``def``, a loop or ``with`` target, a handler's or a
pattern's name) keeps its ``{type(x)}`` holes untyped (any text): the binding's reach is
not followed, so the whole module says less.
"""

from __future__ import annotations

import ast

__all__ = ["CLASS_PRINTERS", "binds_any"]

#: The builtins a class-repr hole's text calls (:mod:`errdex.extract.class_holes`).
CLASS_PRINTERS = frozenset({"type", "str", "repr"})
_NAMED = (
    ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.ExceptHandler,
    ast.MatchAs, ast.MatchStar,
)  # fmt: skip


def binds_any(tree: ast.AST, names: frozenset[str]) -> bool:
    """Whether any scope of ``tree`` binds one of ``names``."""
    for node in ast.walk(tree):
        if isinstance(node, ast.Name) and not isinstance(node.ctx, ast.Load):
            bound: str | None = node.id
        elif isinstance(node, ast.arg):
            bound = node.arg
        elif isinstance(node, ast.alias):
            bound = node.asname or node.name.split(".")[0]
        elif isinstance(node, ast.MatchMapping):
            bound = node.rest
        elif isinstance(node, _NAMED):
            bound = node.name
        else:
            continue
        if bound in names:
            return True
    return False
