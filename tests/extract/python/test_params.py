"""Every parameter of a function for the seven readers: named ones first, then the stars."""

from __future__ import annotations

import ast

from errdex.extract.python.params import parameter_names, parameters

SIGNATURE = "def f(a, /, b, c=1, *rest, d, e=2, **extra): pass"


def _spec(source: str) -> ast.arguments:
    node = ast.parse(source).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node.args


def test_every_kind_the_named_first() -> None:
    spec = _spec(SIGNATURE)
    assert parameter_names(spec) == ["a", "b", "c", "d", "e", "rest", "extra"]
    assert [a.arg for a in parameters(spec)] == ["a", "b", "c", "d", "e", "rest", "extra"]


def test_the_stars_left_out_or_written() -> None:
    spec = _spec(SIGNATURE)
    assert parameter_names(spec, starred=False) == ["a", "b", "c", "d", "e"]
    assert [a.arg for a in parameters(spec, starred=False)] == ["a", "b", "c", "d", "e"]
    assert parameter_names(spec, marked=True) == ["a", "b", "c", "d", "e", "*rest", "**extra"]


def test_a_function_without_stars() -> None:
    assert parameter_names(_spec("def g(self, x): pass"), marked=True) == ["self", "x"]
    assert parameter_names(_spec("def h(): pass")) == []
