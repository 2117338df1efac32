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


def test_the_automaton_holds_prefixes_only_and_gives_the_anchors_back() -> None:
    built = Anchors.build(ANCHORS)
    words = [word for word, _ in built.automaton.items()]
    assert max(map(len, words)) == PREFIX_CHARS
    assert len(words) < len(ANCHORS)  # the three sharing LONG are one word
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


@pytest.mark.parametrize("broken", ["groups", "members", "rests", "slots"])
def test_columns_that_do_not_fit_their_automaton_are_refused(broken: str) -> None:
    automaton, (groups, members, rests_at), rests = _saved(Anchors.build(ANCHORS))
    slots = len(ANCHORS)
    if broken == "groups":
        groups.append(groups[-1])  # one group more than the automaton's words
    elif broken == "members":
        members.pop()
    elif broken == "rests":
        rests = rests[:-1]
    else:
        slots += 1
    with pytest.raises(BadAnchors):
        Anchors.saved(automaton, slots, (groups, members, rests_at), rests)


def test_an_empty_anchor_is_refused() -> None:
    with pytest.raises(BadAnchors):
        Anchors.build(["ok", ""])
