"""``raise Class, message``: Cython's Python 2 form, read as the call it stands for.

Cython compiles ``raise E, V`` as ``raise E(V)`` (``raise E(*V)`` for a tuple ``V``), so
lxml's ``raise ValueError, f"Invalid PI name '{target}'"`` prints the f-string's text.
Python 3 cannot parse the statement, but it parses what follows ``raise`` as the tuple
``E, V``: rebuilt as ``raise E(V)`` at the same places, the Python extractor reads the
class and the message's template (an f-string's holes, a ``%``, a literal) as for any raise.

Only a value that is text (or a tuple) is read so: Cython's ``__Pyx_Raise`` takes a value
of ``None`` as no value (``raise E, None`` is ``raise E()``), and re-raises a value that is
already an instance of the class (``raise E, inst``), which a name or a call may be.
"""

from __future__ import annotations

import ast
from typing import Any

from .snippet import parse_expr_at

__all__ = ["as_call_raise"]


def as_call_raise(lines: list[str], node: Any) -> ast.Raise | None:
    """The ``raise E(V)`` a Cython ``RaiseStatNode`` of ``raise E, V`` means, placed where
    the statement is; None when it is not that form (or a traceback is passed too)."""
    if node.exc_value is None or node.exc_tb is not None or node.cause is not None:
        return None
    _, line, col = node.exc_type.pos
    parsed = parse_expr_at(lines, line, col, "")
    if not isinstance(parsed, ast.Tuple) or len(parsed.elts) != 2:
        return None
    exc, value = parsed.elts
    if isinstance(value, ast.Constant) and value.value is None:
        args: list[ast.expr] = []
    elif isinstance(value, ast.Tuple):
        args = list(value.elts)
    elif _is_text(value):
        args = [value]
    else:
        return None  # perhaps an instance of the class, re-raised as it is
    call = ast.Call(func=exc, args=args, keywords=[])
    ast.copy_location(call, parsed)
    call.end_lineno, call.end_col_offset = parsed.end_lineno, parsed.end_col_offset
    _, raise_line, raise_col = node.pos
    stmt = ast.Raise(exc=call, cause=None)
    stmt.lineno = raise_line
    stmt.col_offset = len(lines[raise_line - 1][:raise_col].encode())
    stmt.end_lineno, stmt.end_col_offset = parsed.end_lineno, parsed.end_col_offset
    return stmt


def _is_text(value: ast.expr) -> bool:
    """A value that is a literal, an f-string or a string formatted or joined: never an
    instance of the class raised."""
    if isinstance(value, (ast.Constant, ast.JoinedStr)):
        return True
    if isinstance(value, ast.BinOp):
        return _is_text(value.left)
    if isinstance(value, ast.Call) and isinstance(value.func, ast.Attribute):
        return value.func.attr == "format" and _is_text(value.func.value)
    return False
