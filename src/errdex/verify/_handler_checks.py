"""What a test's ``except`` checks of the error's message, as a regex.

test_fractions' ``assertRaisesMessage`` is ``try: callable(*args) except exc_type as e:
self.assertEqual(message, str(e))``: a run raising ``ValueError`` with another message
fails that test. Its candidate (a helper inlined, :mod:`._helper_calls`) was accepted for
any class and any message; the check is read here so that the run is held to it."""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

__all__ = ["handler_match"]

#: An expression of the test to what it stands for (a helper's parameter to its argument).
Resolve = Callable[[ast.expr], ast.expr]


def handler_match(handler: ast.ExceptHandler, resolve: Resolve) -> tuple[str | None, bool]:
    """(the regex the handler's checks hold the message to, or None; whether every check
    of the error there was read). ``assertEqual(msg, str(e))`` is the whole message,
    ``assertIn(msg, str(e))`` a part, ``assertRegex(str(e), rx)`` the regex."""
    name = handler.name
    if not name:
        return None, True
    found: list[str] = []
    for stmt in handler.body:
        reads = any(isinstance(n, ast.Name) and n.id == name for n in ast.walk(stmt))
        if not reads:
            continue
        got = _check(stmt, name, resolve)
        if got is None:
            return None, False
        found.append(got)
    if len(found) > 1:
        return None, False
    return (found[0] if found else None), True


def _check(stmt: ast.stmt, name: str, resolve: Resolve) -> str | None:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    method = call.func.attr if isinstance(call.func, ast.Attribute) else ""
    if len(call.args) < 2:
        return None
    first, second = call.args[0], call.args[1]
    if method in ("assertEqual", "assertEquals"):
        if _is_message(second, name):
            first, second = second, first
        text = _text(resolve(second))
        if _is_message(first, name) and text is not None:
            return rf"\A{re.escape(text)}\Z"
    elif method == "assertIn":
        text = _text(resolve(first))
        if _is_message(second, name) and text is not None:
            return re.escape(text)
    elif method == "assertRegex":
        text = _text(resolve(second))
        if _is_message(first, name) and text is not None:
            return text
    return None


def _is_message(expr: ast.expr, name: str) -> bool:
    """``str(e)``."""
    return (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "str"
        and len(expr.args) == 1
        and not expr.keywords
        and isinstance(expr.args[0], ast.Name)
        and expr.args[0].id == name
    )


def _text(expr: ast.expr) -> str | None:
    return expr.value if isinstance(expr, ast.Constant) and isinstance(expr.value, str) else None
