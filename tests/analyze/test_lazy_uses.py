"""Which uses of a generator's result surely iterate it to the end (review of a48's rule,
session 41: ``for … return``, ``break``, ``any()`` and ``a, b = g()`` were counted as
draining it, and a ``try`` around the caller's call was written that catches nothing)."""

from __future__ import annotations

import ast

import pytest

from errdex.analyze.lazy_uses import CONSUMED, COROUTINE, GENERATOR, PARTIAL, RETURNED, use_of


def _use(body: str, kind: str = GENERATOR) -> str | None:
    """The use of the call of ``g`` in ``body``; a comprehension's iterable is used by the
    comprehension expression, as :mod:`errdex.analyze.lazy_chain` hands it over."""
    tree = ast.parse(body)
    for parent in ast.walk(tree):
        children = list(ast.iter_child_nodes(parent))
        if isinstance(parent, (ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp)):
            children += [c.iter for c in parent.generators]
        for child in children:
            if isinstance(child, ast.Call) and getattr(child.func, "id", None) == "g":
                return use_of(parent, child, kind)
    raise AssertionError("no call of g")


@pytest.mark.parametrize(
    "body",
    [
        "for x in g():\n    return x",
        "for x in g():\n    out.append(x)\n    break",
        "for x in g():\n    if x:\n        raise ValueError(x)",
        "for x in g():\n    for y in x:\n        pass\n    else:\n        break",
        "any(g())",
        "all(g())",
        "next(g())",
        "a, b = g()",
    ],
)
def test_a_use_that_may_stop_early_is_partial(body: str) -> None:
    assert _use(body) == PARTIAL


@pytest.mark.parametrize("body", ["h.update(g())", "(x for x in g())", "zip(a, g())", "x = g()"])
def test_a_use_not_read_is_not_known(body: str) -> None:
    assert _use(body) is None


@pytest.mark.parametrize(
    "body",
    [
        "for x in g():\n    total += x",
        "for x in g():\n    for y in x:\n        if y:\n            break\n    n += 1",
        "for x in g():\n    def inner():\n        return x",
        "list(g())",
        "sorted(g())",
        "''.join(g())",
        "first, *rest = g()",
        "[x for x in g()]",
        "def f():\n    yield from g()",
        "f(*g())",
    ],
)
def test_a_use_that_drains_it_is_consumed(body: str) -> None:
    assert _use(body) == CONSUMED


def test_returned_and_awaited() -> None:
    assert _use("def f():\n    return g()") == RETURNED
    assert _use("async def f():\n    await g()", COROUTINE) == CONSUMED
    assert _use("list(g())", COROUTINE) is None
