"""What a name holds where a condition reads it, settled by the function's own lines."""

from __future__ import annotations

import ast

from errdex.analyze.dominating import Binding, bindings_at, way_tests

SOURCE = """\
def pick(pair, obj, flag=None):
    if flag:
        pair = (0, 0)
    left, right = pair
    name = getattr(obj, '__name__', None)
    first, second = obj
    if right < 0:
        if name is None:
            if second:
                raise ValueError("bad")
    return left
"""


def _func() -> ast.FunctionDef:
    node = ast.parse(SOURCE).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def test_items_and_getattr_of_parameters_never_bound_again() -> None:
    found = bindings_at(_func(), 9, 10, {"name", "second"}, {"pair", "obj", "flag"})
    assert found == {
        "name": Binding("attr", "obj", attr="__name__"),
        "second": Binding("item", "obj", index=1),
    }


def test_a_parameter_bound_again_on_a_branch_unsettles_its_items() -> None:
    """``pair`` may be ``(0, 0)`` where it is unpacked: ``right`` is not the caller's."""
    assert bindings_at(_func(), 7, 10, {"right"}, {"pair", "obj", "flag"}) is None


def test_a_parameter_read_before_any_store_is_itself() -> None:
    assert bindings_at(_func(), 2, 10, {"flag"}, {"pair", "obj", "flag"}) == {
        "flag": Binding("param", "flag")
    }


def test_the_tests_on_the_way_are_read_from_the_tree() -> None:
    tests = way_tests(_func(), 10)
    assert tests is not None
    assert [ast.unparse(t) for t in tests] == ["right < 0", "name is None", "second"]
    assert way_tests(_func(), 3) is None  # no raise there
