"""A compound statement of a test with its body (and ``else``) replaced by cleaned ones.

A ``try`` around an expectation keeps its ``finally`` (``with Bunch(f, 1, True) as bunch:
try: self.assertRaises(RuntimeError, lock.release) finally: bunch.do_finish()``): without
it the error left the ``with`` while the threads still waited for ``do_finish()``, and
the run was stopped as blocked instead of ending with the error. Each of its statements
runs with its errors swallowed: a cleanup that raised (``lock.release()`` of a lock the
cut never acquired, RuntimeError) counted as the raise the test expects, though the call
raised nothing. One that could end the error (``break``, ``return``) is not kept."""

from __future__ import annotations

import ast

__all__ = ["copy_with"]


def copy_with(
    stmt: ast.stmt, body: list[ast.stmt], orelse: list[ast.stmt] | None = None
) -> ast.stmt:
    """``stmt`` with ``body``, and for a loop or an ``if`` the ``else`` given: dropping a
    ``for``'s ``else: namei += 1`` or an ``if``'s ``else: chars[i] = ...`` left the loop
    around them spinning (CPython's test_pwd/test_grp ``while fakename in bynames``)."""
    if isinstance(stmt, ast.For):
        return ast.For(target=stmt.target, iter=stmt.iter, body=body, orelse=orelse or [])
    if isinstance(stmt, ast.While):
        return ast.While(test=stmt.test, body=body, orelse=orelse or [])
    if isinstance(stmt, ast.If):
        return ast.If(test=stmt.test, body=body, orelse=orelse or [])
    if isinstance(stmt, ast.With):
        return ast.With(items=stmt.items, body=body)
    if isinstance(stmt, ast.Try):  # its ``finally`` only: the handlers would catch the raise
        return ast.Try(body=body, handlers=[], orelse=[], finalbody=_quiet(stmt.finalbody))
    return stmt


def _quiet(final: list[ast.stmt]) -> list[ast.stmt]:
    """Each statement of a ``finally`` in a ``try`` whose errors it swallows, so that the
    error a run ends with is the body's; none when one could end the error instead."""
    if any(isinstance(n, _ENDS) for s in final for n in ast.walk(s)):
        return []
    swallow = ast.ExceptHandler(
        type=ast.Name("BaseException", ast.Load()), name=None, body=[ast.Pass()]
    )
    return [ast.Try(body=[s], handlers=[swallow], orelse=[], finalbody=[]) for s in final]


_ENDS = (ast.Break, ast.Continue, ast.Return, ast.Yield, ast.YieldFrom)
