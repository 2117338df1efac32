"""The import statements validation code may write for a module's own imports."""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = ["import_lines"]


def import_lines(index: RepoIndex, module: str) -> dict[str, str]:
    """How to import the top-level modules the module imports: ``nx`` -> ``import networkx as
    nx``. Names imported from inside a package are left out: validation code that needs
    them is not written, as their origin is not in the record's evidence."""
    facts = index.modules.get(module)
    if facts is None:
        return {}
    return {
        alias: f"import {target}" + (f" as {alias}" if alias != target else "")
        for alias, target in facts.imports.items()
        if "." not in target
    }
