"""Which names a statement binds and which it reads: what a cut-out snippet must import."""

from __future__ import annotations

import ast
from collections.abc import Iterable

__all__ = ["bound_names", "used_names"]


def _targets(node: ast.expr | None) -> set[str]:
    if node is None:
        return set()
    if isinstance(node, ast.Name):
        return {node.id}
    if isinstance(node, (ast.Tuple, ast.List)):
        out: set[str] = set()
        for elt in node.elts:
            out |= _targets(elt)
        return out
    if isinstance(node, ast.Starred):
        return _targets(node.value)
    return set()


def bound_names(stmt: ast.stmt) -> set[str]:
    """Names ``stmt`` binds in the scope it runs in (compound statements' bodies included)."""
    if isinstance(stmt, ast.Import):
        return {(a.asname or a.name).split(".")[0] for a in stmt.names}
    if isinstance(stmt, ast.ImportFrom):
        return {a.asname or a.name for a in stmt.names if a.name != "*"}
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return {stmt.name}
    if isinstance(stmt, ast.Assign):
        out: set[str] = set()
        for target in stmt.targets:
            out |= _targets(target)
        return out
    if isinstance(stmt, (ast.AnnAssign, ast.AugAssign)):
        return _targets(stmt.target)
    out = set()
    if isinstance(stmt, (ast.For, ast.AsyncFor)):
        out |= _targets(stmt.target)
    if isinstance(stmt, (ast.With, ast.AsyncWith)):
        for item in stmt.items:
            out |= _targets(item.optional_vars)
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list):
            for child in block:
                if isinstance(child, ast.stmt):
                    out |= bound_names(child)
    for handler in getattr(stmt, "handlers", None) or []:
        if handler.name:
            out.add(handler.name)
        for child in handler.body:
            out |= bound_names(child)
    return out


def used_names(nodes: Iterable[ast.AST]) -> set[str]:
    """Every name read anywhere inside ``nodes`` (function bodies and defaults included)."""
    out: set[str] = set()
    for node in nodes:
        for sub in ast.walk(node):
            if isinstance(sub, ast.Name) and isinstance(sub.ctx, ast.Load):
                out.add(sub.id)
    return out
