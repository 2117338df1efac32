"""A signed number written in the code: ``-1``, ``+2.5``, ``-(3)``.

Python parses ``-1`` as a unary minus on the constant ``1``, not as a constant: read as
an expression, its text became a hole named ``-1`` that any text fills, where the message
prints exactly ``-1`` (``KeyError(-1)``, ``ValueError(-1)``).
"""

from __future__ import annotations

import ast

__all__ = ["number_repr", "signed_number"]


def signed_number(node: ast.expr) -> int | float | complex | None:
    """The value of ``-n`` or ``+n`` for a number constant ``n`` (not a bool), else None."""
    if not isinstance(node, ast.UnaryOp) or not isinstance(node.op, (ast.USub, ast.UAdd)):
        return None
    operand = node.operand
    if not isinstance(operand, ast.Constant) or isinstance(operand.value, bool):
        return None
    value = operand.value
    if not isinstance(value, (int, float, complex)):
        return None
    return -value if isinstance(node.op, ast.USub) else +value


def number_repr(node: ast.expr) -> str | None:
    """What ``repr()`` prints for a constant other than a string, or a signed number
    (``-1``, ``-1j`` as ``(-0-1j)``): inside a tuple's repr it has no quotes."""
    if isinstance(node, ast.Constant) and not isinstance(node.value, str):
        return repr(node.value)
    number = signed_number(node)
    return None if number is None else repr(number)
