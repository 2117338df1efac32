"""A test call that cannot bind to the function it names never reaches that function's
raises: the interpreter's ``TypeError`` comes first (blind review 2026-12-06, stop 36:
``functools.partialmethod()`` and ``partialmethod(func=capture, a=1)`` were linked to
``partialmethod.__init__``'s "is not callable or a descriptor")."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from errdex.analyze.call_shapes import block_shapes
from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class partialish:
    def __init__(self, func, /, *args, **keywords):
        if not callable(func):
            raise TypeError("{!r} is not callable".format(func))
        self.func = func


def spread(a, b, *, c=1):
    if a == b:
        raise ValueError("a and b are the same value")
    return a, b, c
"""

TESTS = """\
import unittest

from partials import partialish, spread


def capture(*args, **kw):
    return args, kw


class PartialTests(unittest.TestCase):
    def test_not_callable(self):
        with self.assertRaises(TypeError):
            partialish(None, 1)

    def test_no_func(self):
        with self.assertRaises(TypeError):
            class B:
                method = partialish()

    def test_func_by_keyword(self):
        with self.assertRaises(TypeError):
            class B:
                method = partialish(func=capture, a=1)

    def test_spread_arguments(self):
        args = (None,)
        with self.assertRaises(TypeError):
            partialish(*args)

    def test_same(self):
        with self.assertRaisesRegex(ValueError, "a and b are the same value"):
            spread(1, 1)

    def test_too_many(self):
        with self.assertRaisesRegex(ValueError, "a and b are the same value"):
            spread(1, 1, 1)

    def test_unknown_keyword(self):
        self.assertRaises(ValueError, spread, 1, 1, d=2)
"""


def _linked(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "partials.py").write_text(LIBRARY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_partials.py").write_text(TESTS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/p"), repo="o/p")
    return {
        record["errorMessage"]: sorted(t["name"].rpartition("::")[2] for t in evidence["tests"])
        for record, evidence in result.items
    }


def test_a_call_that_cannot_bind_is_no_link(tmp_path: Path) -> None:
    linked = _linked(tmp_path)
    # ``partialish()`` misses ``func``; ``func=`` is positional-only: neither runs the body.
    # ``*args`` may hold anything: kept.
    assert linked["{!r} is not callable"] == ["test_not_callable", "test_spread_arguments"]
    # three positional arguments for two, a keyword ``spread`` does not take: no link
    assert linked["a and b are the same value"] == ["test_same"]


def test_block_shapes_read_each_call() -> None:
    tree = ast.parse("f(1, k=2)\nobj.m(*a)\ng(x)(y)\nh(**kw)\n")
    assert block_shapes(tree.body) == (
        (("f",), 1, ("k",)),
        (("obj", "m"), -1, ()),
        (("g",), 1, ()),
        (("h",), -1, ()),
    )


def test_a_kept_choice_is_taken_again_when_the_callee_binds_now(tmp_path: Path) -> None:
    """The memo's key reads the signature of a callee left out as unbound (the raise is in
    another function, whose own digest does not change): once the call binds, it links."""
    import math

    from errdex.analyze.repo import build_index
    from errdex.analyze.static import analyze_with_index

    core = (
        "def _validate(x):\n    if x < 0:\n        raise ValueError('negative value given')\n\n\n"
        "def check(x):\n    _validate(x)\n"
    )
    test = (
        "import pytest\nfrom core import check\n\n\n"
        "def test_negative():\n"
        "    with pytest.raises(ValueError, match='negative value given'):\n"
        "        check(-1, 2)\n"
    )
    (tmp_path / "core.py").write_text(core)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_core.py").write_text(test)

    def linked(choices: dict[str, list[tuple[str, str]]] | None) -> tuple[list[str], Any]:
        checkout = open_source(str(tmp_path), repo="o/c")
        items = scan_checkout(checkout, repo="o/c", analyze=False).items
        analysis = analyze_with_index(
            build_index(checkout), "", items, budget=math.inf, choices=choices
        )
        [(_, evidence)] = analysis.items
        return [t["name"] for t in evidence["tests"]], analysis.choices

    cold, choices = linked(None)
    assert cold == []  # ``check`` takes one argument: the interpreter's TypeError
    (tmp_path / "core.py").write_text(core.replace("check(x)", "check(x, y=0)"))
    assert linked(choices)[0] == ["tests/test_core.py::test_negative"]


METACLASS_LIBRARY = """\
class Trimming(type):
    def __call__(cls, *args, **kwargs):
        return super().__call__(*args[:1])


class Trimmed(metaclass=Trimming):
    pass


class Pair(Trimmed, dict):
    def __init__(self, func, /):
        if not callable(func):
            raise TypeError("pair needs a callable first")
"""

METACLASS_TESTS = """\
import unittest

from pairs import Pair


class PairTests(unittest.TestCase):
    def test_extra_argument(self):
        with self.assertRaisesRegex(TypeError, "pair needs a callable first"):
            Pair(None, 2)
"""


def test_a_builtin_base_does_not_hide_a_metaclass_above_another(tmp_path: Path) -> None:
    """``Pair(None, 2)`` does not fit ``__init__(self, func, /)``, but ``Trimmed``'s
    metaclass may pass fewer arguments: the call may reach the raise. ``dict``, a
    builtin base met first, says nothing of that (it once ended the search)."""
    (tmp_path / "pairs.py").write_text(METACLASS_LIBRARY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_pairs.py").write_text(METACLASS_TESTS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/p"), repo="o/p")
    linked = {
        record["errorMessage"]: [t["name"].rpartition("::")[2] for t in evidence["tests"]]
        for record, evidence in result.items
    }
    assert linked["pair needs a callable first"] == ["test_extra_argument"]
