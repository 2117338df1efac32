"""A number known only to lie between two bounds, and comparisons decided on it.

``uuid1`` builds ``UUID(fields=(time_low, time_mid, time_hi_version, …))`` from
``time_mid = (timestamp >> 32) & 0xffff`` and ``time_hi_version = (timestamp >> 48) &
0x0fff``: whatever ``timestamp`` is, each lies in ``[0, 0xffff]``, and ``UUID.__init__``'s
``not 0 <= time_mid < 1<<16`` ("field 2 out of range") is false for every one of them
(blind review stop 33, records 09 and 20). A caller's local bound once to ``x & C`` (``C``
a literal integer, not negative) is known as :class:`Interval` ``[0, C]``: ``&`` with an
integer gives that for any ``int`` (and ``bool``) ``x``; any other operand the caller
gives raises ``TypeError`` at its own ``&`` (a class defining ``__and__`` aside, which
the standard library's callers never mask so). A comparison of an interval with a number
is decided when every value in it gives the same answer; anything else is unknown.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

__all__ = ["Interval", "compare_interval", "masked"]


@dataclass(frozen=True, slots=True)
class Interval:
    """A number ``low <= x <= high``, nothing else known of it."""

    low: int
    high: int

    def __bool__(self) -> bool:
        raise TypeError("the truth of a number known by its bounds only is not decided")


def masked(node: ast.expr) -> Interval | None:
    """``x & C`` or ``C & x`` with ``C`` a literal integer >= 0: ``[0, C]``."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.BitAnd)):
        return None
    for side in (node.right, node.left):
        if isinstance(side, ast.Constant) and type(side.value) is int and side.value >= 0:
            return Interval(0, side.value)
    return None


def compare_interval(op: ast.cmpop, left: object, right: object) -> bool | None:
    """``left <op> right`` where one side (or both) is an :class:`Interval` and the other
    a real number: True or False when every value gives it, None otherwise."""
    a, b = _bounds(left), _bounds(right)
    if a is None or b is None:
        return None
    if isinstance(op, (ast.Gt, ast.GtE)):
        a, b = b, a
        op = ast.Lt() if isinstance(op, ast.Gt) else ast.LtE()
    (alo, ahi), (blo, bhi) = a, b
    if isinstance(op, ast.Lt):
        return True if ahi < blo else False if alo >= bhi else None
    if isinstance(op, ast.LtE):
        return True if ahi <= blo else False if alo > bhi else None
    if isinstance(op, (ast.Eq, ast.NotEq)):
        equal = True if alo == ahi == blo == bhi else False if ahi < blo or bhi < alo else None
        if equal is None or isinstance(op, ast.Eq):
            return equal
        return not equal
    return None


def _bounds(value: object) -> tuple[float, float] | None:
    if isinstance(value, Interval):
        return value.low, value.high
    if type(value) in (int, float, bool):
        return value, value  # type: ignore[return-value]
    return None
