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


def test_any_binding_between_the_test_and_the_raise_says_nothing() -> None:
    # the if's own else, an ``except … as``, an import, a def, a match capture (rr5, f8.py)
    arms = (
        "    else:\n        total = 10\n",
        "    try:\n        pass\n    except OSError as total:\n        pass\n",
        "    import total\n",
        "    def total():\n        pass\n",
        "    match n:\n        case [*total]:\n            pass\n",
    )
    for arm in arms:
        text = ADD.replace("    raise", arm + "    raise")
        func, stmt = _parts(text)
        target = text.splitlines().index('    raise OverflowError("result out of range")') + 1
        assert exact_test(text, stmt, target, func.body) is None, arm


def test_the_exit_s_own_branch_is_not_asked() -> None:
    text = ADD.replace("        return total", "        total = 1\n        return total")
    func, stmt = _parts(text)
    assert exact_test(text, stmt, 6, func.body) == "0 < total <= _MAX"


def test_an_assignment_in_a_loop_or_block_is_not_said() -> None:
    # ``for i in range(3): n = g(i)`` leaves n from the last turn, or unbound (rr5, f1.py)
    for head in ("    for i in range(3):\n", "    if n:\n", "    with ctx:\n"):
        text = ADD.replace("    total = n + m\n", head + "        total = n + m\n")
        func, stmt = _parts(text)
        assert made_as(func, stmt, {"total"}) is None, head
    # an assignment after the raise makes it no sole binding
    text = ADD + "    total = 0\n"
    func, stmt = _parts(text)
    assert made_as(func, stmt, {"total"}) is None
