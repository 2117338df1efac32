"""The earlier ways out of a function on the way to a raise."""

from __future__ import annotations

import ast

from errdex.analyze.ways_out import exit_tests, other_values, unpack_checks

SOURCE = """\
def f(fields, k):
    if k == 3:
        return None
    for x in k:
        pass
    if fields is not None:
        if len(fields) != 2:
            raise ValueError("size")
        a, b = fields
        if a < 10:
            raise ValueError("small")
    def inner():
        return 1
    while k:
        if k:
            raise ValueError("loop")
    assert k
    raise ValueError("last")
"""


def _func() -> ast.FunctionDef:
    node = ast.parse(SOURCE).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_the_tests_of_earlier_plain_exits() -> None:
    tests = exit_tests(_func(), 11)
    assert tests is not None
    assert [ast.unparse(t) for t in tests] == ["k == 3", "len(fields) != 2"]
    assert exit_tests(_func(), 3) == []


def test_an_exit_in_a_loop_or_an_assert_is_not_read() -> None:
    assert exit_tests(_func(), 18) is None


def test_a_length_check_of_the_unpacked_tuple_cannot_fire() -> None:
    tests = exit_tests(_func(), 11)
    assert tests is not None
    assert unpack_checks(_func(), tests[1:], {"fields"})
    assert not unpack_checks(_func(), tests, {"fields"})  # ``k == 3`` may
    assert not unpack_checks(_func(), tests[1:], set())


def test_an_exit_on_another_value_of_the_same_name_cannot_fire() -> None:
    func = ast.parse(
        "def f(how, k):\n"
        "    if how == 'OK':\n"
        "        return 1\n"
        "    if k == 'ERROR':\n"
        "        return 2\n"
        "    if how == 1:\n"
        "        return 3\n"
        "    if how == 'ERROR':\n"
        "        raise E\n"
    ).body[0]
    assert isinstance(func, ast.FunctionDef)
    exits = exit_tests(func, 9)
    way = [func.body[3].test]  # type: ignore[attr-defined]
    assert exits is not None
    # ``k`` is another name: it may hold; ``1`` is never ``'ERROR'``
    assert [ast.unparse(t) for t in other_values(func, exits, way)] == ["k == 'ERROR'"]
