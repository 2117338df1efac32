"""A library file's syntax tree for the snippet builders, or None where it cannot be read:
a reproducer is built from what the file says, and a file that does not parse says nothing
(each builder caches what it derives from the tree, so the tree itself is not kept)."""

from __future__ import annotations

import ast
from pathlib import Path

__all__ = ["source_tree"]


def source_tree(file: Path) -> ast.Module | None:
    try:
        return ast.parse(file.read_text(encoding="utf-8"))
    except (OSError, UnicodeDecodeError, SyntaxError, ValueError, RecursionError, MemoryError):
        return None
