"""What of a test module's top level becomes an import in a snippet."""

from __future__ import annotations

import ast

__all__ = ["IMPORTING_CALLS", "imported_by_call", "importorskip_import"]

#: test.support's calls that import a module by name (``sunau =
#: warnings_helper.import_deprecated("sunau")``, ``import_helper.import_module("ssl")``,
#: ``import_fresh_module("heapq", blocked=["_heapq"])``): 128 (test module, top) pairs of
#: CPython's tests import a top-level module only so.
IMPORTING_CALLS = ("import_module", "import_deprecated", "import_fresh_module")


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


def imported_by_call(stmt: ast.stmt) -> set[str]:
    """The modules a top-level statement imports through :data:`IMPORTING_CALLS`."""
    out: set[str] = set()
    for node in ast.walk(stmt):
        if not (isinstance(node, ast.Call) and node.args):
            continue
        func = node.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        first = node.args[0]
        if name in IMPORTING_CALLS and isinstance(first, ast.Constant) and first.value:
            out.add(str(first.value))
    return out
