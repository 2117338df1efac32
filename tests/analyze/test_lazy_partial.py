"""Review of a48's lazy-call rule (session 41), on the records of a small library: a
caller that may stop iterating early (``for … return``, ``break``, ``any()``, ``a, b =
g()``) is not said to raise at its call, and no snippet wraps that call in a ``try``; a
lambda's ``yield`` and a decorator that is no dotted name do not make a function lazy;
a yielded error or a warning is not "this raise"; a plain function that returns the
generator is not said to raise nothing at its call."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
import os
import warnings

_eager = [lambda f: (lambda *a: list(f(*a)))]


def _g1():
    yield 1
    if os.environ.get("A"):
        raise OSError("broken one")
    yield 2


def first():
    for x in _g1():
        return x


def _g2():
    yield 1
    if os.environ.get("B"):
        raise OSError("broken two")


def brk():
    out = []
    for x in _g2():
        out.append(x)
        break
    return out


def _g3():
    yield True
    if os.environ.get("C"):
        raise OSError("broken three")


def anyer():
    return any(_g3())


def _g4():
    yield 1
    yield 2
    yield 3
    if os.environ.get("D"):
        raise OSError("broken four")


def unpack():
    a, b = _g4()
    return a + b


def _g5():
    yield 1
    if os.environ.get("E"):
        raise OSError("broken five")


def drain():
    total = 0
    for x in _g5():
        for y in range(x):
            if y:
                break
        total += x
    return total


def lam():
    f = lambda: (yield)
    if os.environ.get("F"):
        raise OSError("broken six")
    return f


@_eager[0]
def eager_gen():
    if os.environ.get("G"):
        raise OSError("broken seven")
    yield 1


def errors(items):
    for i in items:
        if i < 0:
            yield ValueError("negative item found")


def noisy(items):
    for i in items:
        if i < 0:
            warnings.warn("negative item skipped", UserWarning)
        yield i


def _g8(items):
    if not items:
        raise LookupError("no items at all")
    yield from items


def handed(items):
    items = list(items)
    return _g8(items)


def _g9(n):
    yield True
    if n < 0:
        raise KeyError("negative n in g9")


def any_of(n):
    return any(_g9(n))


def _sub(n):
    if n < 0:
        raise ValueError("negative n in sub")
    yield n
    yield n


def excl(n):
    a, b = _sub(n)
    yield a


def _g10():
    if os.environ.get("H"):
        raise OSError("broken ten")
    yield 1


async def async_handed():
    return _g10()


def _errors(items):
    for i in items:
        if i < 0:
            yield ValueError("yielded from handed on")


def handed_errors(items):
    return _errors(items)
"""


@pytest.fixture(scope="module")
def records(tmp_path_factory: pytest.TempPathFactory) -> dict[str, dict[str, Any]]:
    root: Path = tmp_path_factory.mktemp("lazy_partial")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/lazyp"), repo="o/lazyp")
    return {r["errorMessage"]: r for r, _ in result.items}


@pytest.mark.parametrize(
    ("message", "caller"),
    [
        ("broken one", "first"),  # ``for x in g(): return x`` stops at the first item
        ("broken two", "brk"),  # ``break`` after one
        ("broken three", "anyer"),  # any() stops at the first true item
        ("broken four", "unpack"),  # ``a, b = g()`` reads three items, not four
    ],
)
def test_a_caller_that_may_stop_early_gets_no_snippet_around_its_call(
    records: dict[str, dict[str, Any]], message: str, caller: str
) -> None:
    snippet = records[message]["tryCatchPattern"] or ""
    assert f"    {caller}()" not in snippet, snippet


def test_a_loop_whose_break_is_an_inner_loops_drains(records: dict[str, dict[str, Any]]) -> None:
    snippet = records["broken five"]["tryCatchPattern"] or ""
    assert "try:\n    drain()\n" in snippet, snippet


def test_a_lambdas_yield_does_not_make_the_function_a_generator(
    records: dict[str, dict[str, Any]],
) -> None:
    r = records["broken six"]
    said = " ".join([r["triggerScenarios"], r["commonSituations"], *r["solutions"]])
    assert "generator" not in said and "iterat" not in said, said
    assert "list(lam())" not in (r["tryCatchPattern"] or "")


def test_a_decorator_of_any_shape_makes_the_call_not_known(
    records: dict[str, dict[str, Any]],
) -> None:
    r = records["broken seven"]
    said = " ".join([r["triggerScenarios"], r["commonSituations"], *r["solutions"]])
    assert "generator" not in said and "iterat" not in said, said
    assert "list(eager_gen())" not in (r["tryCatchPattern"] or "")


def test_a_yielded_error_or_a_warning_is_not_called_a_raise(
    records: dict[str, dict[str, Any]],
) -> None:
    yielded = records["negative item found"]["triggerScenarios"]
    assert "this `yield` included" in yielded and "this raise" not in yielded, yielded
    warned = records["negative item skipped"]["triggerScenarios"]
    assert "this warning included" in warned and "this raise" not in warned, warned


def test_a_plain_function_returning_the_generator_is_not_said_to_raise_nothing(
    records: dict[str, dict[str, Any]],
) -> None:
    solutions = " ".join(records["no items at all"]["solutions"])
    assert "the result of `handed()`" in solutions, solutions
    assert "raises nothing" not in solutions and "the call alone" not in solutions, solutions
    assert "the error comes when the result is iterated" in solutions, solutions


def test_a_caller_that_may_stop_early_is_not_said_to_raise_at_its_call(
    records: dict[str, dict[str, Any]],
) -> None:
    # any_of(-1) returns True at the first item: the KeyError is never reached
    solutions = " ".join(records["'negative n in g9'"]["solutions"])
    assert "`any_of()`" in solutions, solutions
    assert "the call raises" not in solutions, solutions
    assert "a generator or coroutine on the way, when run that far, raises" in solutions


def test_a_generator_entry_point_with_an_unknown_use_below_is_still_iterated(
    records: dict[str, dict[str, Any]],
) -> None:
    # ``a, b = _sub(n)`` is a use not read, but excl() is a generator: its call runs nothing
    r = records["negative n in sub"]
    assert "iterating the result of a call of `excl()`" in r["commonSituations"], r
    assert "excl(" not in (r["tryCatchPattern"] or ""), r["tryCatchPattern"]
    assert "returns a generator" not in r["triggerScenarios"], r["triggerScenarios"]
    # a coroutine that returns the generator: awaiting it raises nothing (f2a5431 said so)
    r = records["broken ten"]
    said = " ".join([r["commonSituations"], *r["solutions"]])
    assert "await" not in said, said


def test_the_handed_on_trigger_is_worded_by_the_kind_of_site(
    records: dict[str, dict[str, Any]],
) -> None:
    said = records["no items at all"]["triggerScenarios"]
    assert "`handed()` returns a generator that reaches it: the raise comes when" in said
    said = records["yielded from handed on"]["triggerScenarios"]
    assert "`handed_errors()` returns a generator that reaches it: the `yield` comes" in said
