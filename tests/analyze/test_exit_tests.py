"""The test of an early exit, said where exact (:mod:`errdex.analyze.exit_tests`)."""

from __future__ import annotations

import ast

from errdex.analyze.exit_tests import exact_test, made_as

ADD = """\
def add(n, m):
    total = n + m
    if 0 < total <= _MAX:
        return total
    raise OverflowError("result out of range")
"""


def _parts(text: str) -> tuple[ast.FunctionDef, ast.If]:
    func = ast.parse(text).body[0]
    assert isinstance(func, ast.FunctionDef)
    test = next(s for s in func.body if isinstance(s, ast.If))
    return func, test


def test_the_test_and_what_its_local_holds() -> None:
    func, stmt = _parts(ADD)
    assert exact_test(ADD, stmt, 5, func.body) == "0 < total <= _MAX"
    assert made_as(func, stmt, {"total"}) == "`total = n + m`"


def test_a_name_bound_again_before_the_raise_says_nothing() -> None:
    text = ADD.replace("    raise", "    total = 0\n    raise")
    func, stmt = _parts(text)
    assert exact_test(text, stmt, 6, func.body) is None


def test_a_local_bound_twice_is_said_without_its_value() -> None:
    text = ADD.replace("    total = n + m\n", "    total = n\n    total += m\n")
    func, stmt = _parts(text)
    assert made_as(func, stmt, {"total"}) is None
