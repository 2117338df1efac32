"""The fast walk lists what ``ast.walk`` yields, in its order, on real modules; a
definition's list is made once, and a copy of the node gets its own."""

from __future__ import annotations

import ast
import copy
import sysconfig
from pathlib import Path

import pytest

from errdex.extract.python.subtree import calls, walk, walked

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
