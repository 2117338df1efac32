"""Every text a method can return when its ``if`` tests are not decided by what is known.

``TestCase._formatMessage(msg, standardMsg)`` returns ``msg or standardMsg`` when
``self.longMessage`` is false, ``standardMsg`` when ``msg`` is None, else
``'%s : %s' % (standardMsg, msg)``. Which one depends on values the raise does not
show, so each is an alternative. Only bodies made of ``if``, ``try``, ``return`` and
expression statements are read: an assignment or a loop would change what a later
``return`` means, and then there is no answer.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Sequence

from .frame_values import Fail, Stop
from .frames import Frame, Function

__all__ = ["possible_returns", "returned_ways"]

#: How a test is decided: True, False, or None when the known values do not settle it.
Decide = Callable[[ast.expr], bool | None]


def returned_ways(
    fn: Function,
    new_frame: Callable[[], Frame],
    walk_to: Callable[[Sequence[ast.stmt], Frame, None], ast.expr | Stop | None],
) -> tuple[list[ast.expr], Frame]:
    """What ``fn`` returns run in a new frame: the one ``return`` the statement walk
    reaches, else every way :func:`possible_returns` finds (Fail when neither can say)."""
    frame = new_frame()
    try:
        returned = walk_to(fn.body, frame, None)
        if isinstance(returned, ast.expr):
            return [returned], frame
    except Fail:
        pass
    frame = new_frame()  # the walk changed what the frame holds
    return possible_returns(fn.body, lambda test: frame.reader._decide(test, frame)), frame


def possible_returns(body: Sequence[ast.stmt], decide: Decide) -> list[ast.expr]:
    """The expressions the ``return`` statements reachable in ``body`` give, in order;
    Fail where a statement is not one this reading follows or a way ends without one."""
    found: list[ast.expr] = []
    if not _walk(body, decide, found):
        raise Fail  # a way falls off the end: it returns None, not text
    return found


def _walk(body: Sequence[ast.stmt], decide: Decide, found: list[ast.expr]) -> bool:
    """Collect returns; True when every way through ``body`` ends at a ``return``."""
    for stmt in body:
        if isinstance(stmt, ast.Return):
            if stmt.value is None:
                raise Fail
            found.append(stmt.value)
            return True
        if isinstance(stmt, ast.If):
            decided = decide(stmt.test)
            if decided is not None:
                if _walk(stmt.body if decided else stmt.orelse, decide, found):
                    return True
                continue
            ends = [_walk(stmt.body, decide, found), _walk(stmt.orelse, decide, found)]
            if all(ends):
                return True
            continue
        if isinstance(stmt, ast.Try):
            # the ``except`` ways run only when the body raised; what they return is
            # another story than the body's text (``safe_repr`` of the same values)
            if stmt.finalbody or not stmt.handlers:
                raise Fail
            if _walk([*stmt.body, *stmt.orelse], decide, found):
                return True
            continue
        if isinstance(stmt, (ast.Pass, ast.Expr)):
            if isinstance(stmt, ast.Expr) and not isinstance(stmt.value, ast.Constant):
                raise Fail  # a call may change what a return reads
            continue
        raise Fail
    return False
