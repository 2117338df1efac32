"""Guards in words, negated as requirements, and the rules that read them."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.analyze.guards import condition_phrase, free_names, isinstance_checks, negated
from errdex.evidence import GuardItem
from errdex.template import Hole, Literal, MessageTemplate


@pytest.mark.parametrize(
    ("guard", "requirement"),
    [
        ("x < 0", "x >= 0"),
        ("i is None", "i is not None"),
        ("u not in G", "u in G"),
        ("not G.is_directed()", "G.is_directed()"),
        ("kwargs", "not kwargs"),
        ("a < 0 or b > 1", "a >= 0 and b <= 1"),
        ("s is not None and t is None", "s is None or t is not None"),
        ("a and (b or c)", "not a or (not b and not c)"),
    ],
)
def test_negated(guard: str, requirement: str) -> None:
    assert negated(guard) == requirement


def test_free_names_leave_out_builtins_and_comprehension_names() -> None:
    assert free_names("len(xs) != len(ys)") == {"xs", "ys"}
    assert free_names("any(v < 0 for v in weights.values())") == {"weights"}
    assert free_names("x +") is None


def test_isinstance_checks_keep_only_what_the_condition_implies() -> None:
    assert isinstance_checks("not isinstance(x, int)") == [("x", "int", False)]
    assert isinstance_checks("isinstance(x, str) and y") == [("x", "str", True)]
    # ``not (A and B)`` says nothing about A alone
    assert isinstance_checks("not (isinstance(v, list) and k == 1)") == []
    assert isinstance_checks("not (isinstance(v, list) or k == 1)") == [("v", "list", False)]


def test_condition_phrase() -> None:
    template = MessageTemplate([Literal("bad on dimension "), Hole("{axis}", "axis")])
    guards = [
        GuardItem(kind="for", text="for axis, (i, o) in enumerate(zip(a, b))", line=3),
        GuardItem(kind="if", text="i is None", line=6),
    ]
    assert condition_phrase(guards, template) == (
        "when `i is None`, for dimension `axis` in the loop over `zip(a, b)`"
    )
    handler = [
        GuardItem(kind="if", text="flag", line=2),
        GuardItem(kind="except", text="KeyError was raised (as e)", line=5),
    ]
    assert (
        condition_phrase(handler, MessageTemplate()) == "when `flag`, after `KeyError` was caught"
    )
    assert condition_phrase([], template) is None


def test_a_private_condition_is_not_restated_and_while_true_is_no_condition() -> None:
    """``self._connection_lost`` is nothing a caller can check: the phrase says a private
    check exists; ``while True`` is a loop header (the review's "while True holds")."""
    from errdex.analyze.guards import condition_phrase
    from errdex.template import MessageTemplate

    guards: list[Any] = [
        {"kind": "while", "text": "True"},
        {"kind": "if", "text": "self._connection_lost"},
        {"kind": "if", "text": "n > 0"},
    ]
    template = MessageTemplate.literal("Connection lost")
    # left out when nothing a caller reads states it; else said in those words, last
    assert condition_phrase(guards, template) == "when `n > 0`"
    said = "in the case the docstring of `Lost` gives: “Raised when the peer hung up”"
    phrase = condition_phrase(guards, template, private=said)
    assert phrase == f"when `n > 0`, {said}"
    assert "_connection_lost" not in (phrase or "") and "True" not in (phrase or "")
    # said as code (:func:`errdex.analyze.private_terms.readable`): one "when" clause
    phrase = condition_phrase(guards, template, private="when `self._connection_lost`")
    assert phrase == "when `n > 0` and `self._connection_lost`"
    assert condition_phrase(guards[:2], template) is None
