"""The anchors' automaton over prefixes finds exactly the anchors a message holds."""

from __future__ import annotations

import random

import ahocorasick
import pytest

from errdex.match.index_anchors import COLUMNS, PREFIX_CHARS, Anchors, BadAnchors

LONG = "x" * PREFIX_CHARS
ANCHORS = [
    "not in graph",
    LONG,  # exactly a prefix that longer anchors share
    LONG + " must be positive",
    LONG + " must be negative",
    "Aliases for discriminator must be the same",
    "Aliases for discriminator",  # another anchor's start, shorter than its prefix
    "ünïcode ancho\u00e9 longer than the prefix",
    "(at",
]


def _slots_in(message: str, anchors: list[str]) -> set[int]:
    return {slot for slot, anchor in enumerate(anchors) if anchor in message}


@pytest.mark.parametrize(
    "message",
    [
        "Node 3 not in graph",
        LONG,
        LONG + " must be positive",
        "a" + LONG + " must be negative, and " + LONG + " must be positive",
        LONG + " must be",  # the prefix, and not the rest of either longer anchor
        "Aliases for discriminator 'x' must be the same",
        "Aliases for discriminator must be the same (got 2)",
        "ünïcode ancho\u00e9 longer than the prefix (at 3)",
        "ünïcode ancho\u00e9 longer than",
        "",
    ],
)
def test_the_slots_found_are_the_anchors_the_message_holds(message: str) -> None:
    assert Anchors.build(ANCHORS).keys(message) == _slots_in(message, ANCHORS)


def test_random_anchors_and_messages_agree_with_substring_search() -> None:
    chance = random.Random(7)
    alphabet = "ab c"
    anchors = sorted(
        {"".join(chance.choices(alphabet, k=chance.randint(1, 40))) for _ in range(300)}
    )
    built = Anchors.build(anchors)
    for _ in range(300):
        message = "".join(chance.choices(alphabet, k=chance.randint(0, 120)))
        assert built.keys(message) == _slots_in(message, anchors)


def test_the_automaton_holds_keys_past_shared_starts_and_gives_the_anchors_back() -> None:
    built = Anchors.build(ANCHORS)
    keys = {key: value % len(ANCHORS) for key, value in built.automaton.items()}
    assert len(keys) == len(ANCHORS)  # one key per anchor
    assert keys[ANCHORS[0]] == 0  # a short anchor is its own key
    # three anchors share LONG: each key runs one character past what it shares
    assert keys[LONG] == 1
    assert keys[LONG + " must be p"] == 2 and keys[LONG + " must be n"] == 3
    assert max(map(len, keys)) == PREFIX_CHARS + len(" must be p")
    assert built.anchors() == ANCHORS
    assert len(built) == len(ANCHORS)


def _saved(built: Anchors) -> tuple[ahocorasick.Automaton, list[list[int]], str]:
    _cls, state = built.automaton.__reduce__()
    columns = [list(built.columns()[name]) for name in COLUMNS]
    return ahocorasick.Automaton(*state), columns, built.rests


def test_a_saved_state_with_its_columns_finds_the_same() -> None:
    built = Anchors.build(ANCHORS)
    automaton, columns, rests = _saved(built)
    again = Anchors.saved(automaton, len(ANCHORS), columns, rests)
    message = "b" + LONG + " must be negative (at 2)"
    assert again.keys(message) == built.keys(message) == _slots_in(message, ANCHORS)
    assert again.anchors() == ANCHORS


@pytest.mark.parametrize("broken", ["rests_at", "rests", "slots"])
def test_columns_that_do_not_fit_their_automaton_are_refused(broken: str) -> None:
    automaton, (rests_at,), rests = _saved(Anchors.build(ANCHORS))
    slots = len(ANCHORS)
    if broken == "rests_at":
        rests_at.append(rests_at[-1])
    elif broken == "rests":
        rests = rests[:-1]
    else:
        slots += 1
    with pytest.raises(BadAnchors):
        Anchors.saved(automaton, slots, (rests_at,), rests)


@pytest.mark.parametrize("anchors", [["ok", ""], ["same", "other", "same"]])
def test_an_empty_or_repeated_anchor_is_refused(anchors: list[str]) -> None:
    with pytest.raises(BadAnchors):
        Anchors.build(anchors)
