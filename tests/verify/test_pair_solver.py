"""Two parameters that one guard reads together, set at once."""

from __future__ import annotations

from errdex.verify._guard_solver import parse_guards, solve
from errdex.verify._pair_solver import solve_pairs

from .conftest import Tree
from .test_from_guards import _verified


def test_a_guard_over_two_literals_the_call_gives_is_met_by_changing_both() -> None:
    guards = parse_guards(["lo is not None and hi is not None and hi < lo"])
    known = {"lo": None, "hi": None}  # as the test's call passes them
    assert solve(guards, known, ["lo", "hi"]) == []  # one at a time: never both
    ((p, v), (q, w)) = solve_pairs(guards, known, ["lo", "hi"])[0]
    assert (p, q) == ("lo", "hi")
    assert v is not None and w < v


def test_a_parameter_one_value_decides_is_not_paired() -> None:
    guards = parse_guards(["n < 0 or m < 0"])
    assert solve_pairs(guards, {"n": 1, "m": 2}, ["n", "m"]) == []


def test_no_pair_when_another_guard_stays_false() -> None:
    guards = parse_guards(["a > 0 and b > 0", "c == 1"])
    assert solve_pairs(guards, {"a": 0, "b": 0, "c": 2}, ["a", "b"]) == []


SPANS = """\
def span(lo=None, hi=None):
    if lo is not None and hi is not None and hi < lo:
        raise ValueError(f"hi {hi} is below lo {lo}")
    return hi
"""

TEST_SPANS = """\
from acme.spans import span


def test_span():
    assert span() is None
"""


def test_two_arguments_changed_at_once_reproduce(tree: Tree) -> None:
    env = _verified(tree, "spans", SPANS, TEST_SPANS)
    rep = env["evidence"]["reproducer"]
    assert rep["site"] == "acme/spans.py:3"
    assert rep["raised"].startswith("ValueError: hi ")
    assert "make `lo is not None and hi is not None and hi < lo` true together" in rep["test"]
