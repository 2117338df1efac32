"""A condition's syntax tree, parsed once: guards and platform tests read the same texts."""

from __future__ import annotations

import ast
from functools import lru_cache

__all__ = ["is_none_of", "len_of_name", "name_call", "parse_guard"]


@lru_cache(maxsize=8192)
def parse_guard(text: str) -> ast.expr | None:
    """The condition's syntax tree (shared: callers must not change it)."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def len_of_name(node: ast.expr) -> str | None:
    """``p`` for a plain ``len(p)`` of a name (one argument, no keywords); else None."""
    return name_call(node, "len")


def name_call(node: ast.expr, func: str, args: int = 1) -> str | None:
    """``p`` for a plain ``func(p, …)`` whose first of ``args`` arguments is a name (no
    keywords): ``len(p)``, ``callable(p)``, ``isinstance(p, T)``; else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == func
        and len(node.args) == args
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
    ):
        return node.args[0].id
    return None


def is_none_of(node: ast.expr) -> str | None:
    """``p`` for ``p is None``; else None."""
    if (
        isinstance(node, ast.Compare)
        and isinstance(node.left, ast.Name)
        and len(node.ops) == 1
        and isinstance(node.ops[0], ast.Is)
        and isinstance(node.comparators[0], ast.Constant)
        and node.comparators[0].value is None
    ):
        return node.left.id
    return None
