"""A lambda's ``yield`` is the lambda's, and a decorator that is no dotted name is still
a decorator (review of a48's lazy-call rule, session 41: ``f = lambda: (yield)`` made
the enclosing function "a generator function", ``@_eager[0]`` was dropped)."""

from __future__ import annotations

from errdex.analyze.facts import FuncFacts
from errdex.analyze.walk import module_facts

SOURCE = """\
_eager = [lambda f: f]


def lam():
    f = lambda: (yield)
    g = (x for x in range(3))
    return f, g


def comp():
    return [x for x in (yield)]


def gen():
    yield 1


@_eager[0]
def subscripted():
    yield 1


@make()(1)
def called_twice():
    yield 1


@staticmethod
def plain():
    return 1
"""


def _funcs() -> dict[str, FuncFacts]:
    facts = module_facts(SOURCE, "pkg/m.py", "/x/pkg/m.py", "pkg.m", is_test=False)
    assert facts is not None
    return {f.name: f for f in facts.functions}


def test_a_lambdas_yield_is_not_the_functions() -> None:
    funcs = _funcs()
    assert not funcs["lam"].is_generator
    # a ``yield`` in a comprehension's first iterable is the enclosing function's
    assert funcs["comp"].is_generator
    assert funcs["gen"].is_generator


def test_a_decorator_that_is_no_dotted_name_is_counted() -> None:
    funcs = _funcs()
    assert funcs["subscripted"].odd_decorators == 1
    assert funcs["called_twice"].odd_decorators == 1
    assert funcs["plain"].odd_decorators == 0 and funcs["plain"].decorators == [("staticmethod",)]
    assert funcs["gen"].odd_decorators == 0
