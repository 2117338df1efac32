"""A condition's syntax tree, parsed once: guards and platform tests read the same texts."""

from __future__ import annotations

import ast
from functools import lru_cache

__all__ = ["len_of_name", "parse_guard"]


@lru_cache(maxsize=8192)
def parse_guard(text: str) -> ast.expr | None:
    """The condition's syntax tree (shared: callers must not change it)."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None


def len_of_name(node: ast.expr) -> str | None:
    """``p`` for a plain ``len(p)`` of a name (one argument, no keywords); else None."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
        and not node.keywords
        and isinstance(node.args[0], ast.Name)
    ):
        return node.args[0].id
    return None
