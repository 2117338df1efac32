"""A condition's syntax tree, parsed once: guards and platform tests read the same texts."""

from __future__ import annotations

import ast
from functools import lru_cache

__all__ = ["parse_guard"]


@lru_cache(maxsize=8192)
def parse_guard(text: str) -> ast.expr | None:
    """The condition's syntax tree (shared: callers must not change it)."""
    try:
        return ast.parse(text.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return None
