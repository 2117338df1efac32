"""click's ``runner.invoke`` as the call that lets the command's error out."""

from __future__ import annotations

import ast

__all__ = ["raising_invoke"]


def raising_invoke(stmt: ast.stmt) -> ast.stmt | None:
    """``result = runner.invoke(cli, args)`` as the call that lets the error out.

    click's ``CliRunner.invoke`` catches what the command raised and the test then reads
    ``result.exit_code``/``result.output``; with ``standalone_mode=False`` and
    ``catch_exceptions=False`` (both passed on to ``main``) the same call raises it."""
    value = stmt.value if isinstance(stmt, (ast.Assign, ast.Expr)) else None
    if not (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Attribute)
        and value.func.attr == "invoke"
        and value.args
    ):
        return None
    kept = [k for k in value.keywords if k.arg not in ("standalone_mode", "catch_exceptions")]
    off = [
        ast.keyword(arg=name, value=ast.Constant(False))
        for name in ("standalone_mode", "catch_exceptions")
    ]
    call = ast.Call(func=value.func, args=value.args, keywords=[*kept, *off])
    return ast.Expr(call)
