"""The fast walk lists what ``ast.walk`` yields, in its order, on real modules; a
definition's list is made once, and a copy of the node gets its own."""

from __future__ import annotations

import ast
import copy
import sysconfig
from pathlib import Path

import pytest

from errdex.extract.python.subtree import calls, statements, walk, walked

STDLIB = Path(sysconfig.get_paths()["stdlib"])


@pytest.mark.parametrize("module", ["argparse.py", "_pydecimal.py", "asyncio/base_events.py"])
def test_walk_is_ast_walk_node_for_node(module: str) -> None:
    tree = ast.parse((STDLIB / module).read_text(encoding="utf-8"))
    expected = list(ast.walk(tree))
    got = walk(tree)
    assert len(got) == len(expected) > 1000
    assert all(a is b for a, b in zip(got, expected, strict=True))


def test_walked_is_listed_once_and_not_shared_with_a_copy() -> None:
    (fn,) = ast.parse("def f(x):\n    return g(x) + h(x)\n").body
    first = walked(fn)
    assert walked(fn) is first
    assert [n for n in first if isinstance(n, ast.Call)] == calls(fn)
    assert calls(fn) is calls(fn)
    twin = copy.deepcopy(fn)
    assert walked(twin) is not first
    assert all(a is not b for a, b in zip(walked(twin), first, strict=True))


@pytest.mark.parametrize("module", ["argparse.py", "re/_parser.py"])
def test_statements_are_the_walks_statements_in_its_order(module: str) -> None:
    tree = ast.parse((STDLIB / module).read_text(encoding="utf-8"))
    blocks = (ast.stmt, ast.excepthandler, ast.match_case)
    defs = [n for n in ast.walk(tree) if isinstance(n, ast.FunctionDef)]
    for node in [*tree.body, *defs]:
        expected = [n for n in ast.walk(node) if isinstance(n, blocks)]
        got = statements(node)
        assert all(a is b for a, b in zip(got, expected, strict=True))


def test_statements_of_a_match_and_a_try_star() -> None:
    code = (
        "def f(x):\n    match x:\n        case 1:\n            y = 1\n        case _:\n"
        "            try:\n                y = 2\n            except* E:\n                y = 3\n"
        "            else:\n                y = 4\n            finally:\n                y = 5\n"
    )
    (fn,) = ast.parse(code).body
    blocks = (ast.stmt, ast.excepthandler, ast.match_case)
    expected = [n for n in ast.walk(fn) if isinstance(n, blocks)]
    assert statements(fn) == expected
    assert [n.value.value for n in statements(fn) if isinstance(n, ast.Assign)] == [1, 2, 4, 5, 3]


def test_a_trees_lists_go_with_the_tree() -> None:
    """Listing a definition must not keep its tree alive (re-read, stop 34: a
    WeakKeyDictionary whose list held its own key kept every tree of a scan)."""
    import gc
    import weakref

    from errdex.extract.python.subtree import calls, walked

    tree = ast.parse("def f(x):\n    return g(x)\n")
    func = tree.body[0]
    assert walked(func)[0] is func and len(calls(func)) == 1
    alive = weakref.ref(func)
    del tree, func
    gc.collect()
    assert alive() is None
