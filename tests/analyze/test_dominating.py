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


def test_an_item_or_attribute_stored_into_the_parameter_unsettles_it() -> None:
    """``fields[0] = abs(fields[0])``, ``obj.__name__ = 'x'``: no longer what was passed."""
    func = ast.parse(
        "def f(fields, obj):\n"
        "    fields[0] = abs(fields[0])\n"
        "    obj.__name__ = 'x'\n"
        "    a, b = fields\n"
        "    name = getattr(obj, '__name__', None)\n"
        "    if a < 0 or name is None:\n"
        "        raise ValueError\n"
    ).body[0]
    assert isinstance(func, ast.FunctionDef)
    assert bindings_at(func, 6, 7, {"a"}, {"fields", "obj"}) is None
    assert bindings_at(func, 6, 7, {"name"}, {"fields", "obj"}) is None


def test_the_last_of_two_same_names_wins() -> None:
    func = ast.parse("def f(fields):\n    a, a = fields\n    if a:\n        raise E\n").body[0]
    assert isinstance(func, ast.FunctionDef)
    assert bindings_at(func, 3, 4, {"a"}, {"fields"}) == {"a": Binding("item", "fields", 1)}
