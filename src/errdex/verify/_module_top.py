"""What of a test module's top level becomes an import in a snippet."""

from __future__ import annotations

import ast

__all__ = ["importorskip_import"]


def importorskip_import(stmt: ast.Assign | ast.AnnAssign) -> ast.stmt | None:
    """``np = pytest.importorskip("numpy")`` as ``import numpy as np``."""
    value = stmt.value
    target = stmt.targets[0] if isinstance(stmt, ast.Assign) else stmt.target
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "importorskip"
        and value.args
        and isinstance(value.args[0], ast.Constant)
        and isinstance(value.args[0].value, str)
        and isinstance(target, ast.Name)
    ):
        return None
    name = value.args[0].value
    return ast.Import(names=[ast.alias(name=name, asname=target.id)])
