"""The anchors' automaton, holding only as much of each anchor as tells it from the others.

An anchor is a template's rarest word or, for a template of common words, its longest
literal run (up to 200 characters): at a million templates the whole anchors made a trie
of 9 million nodes, most of them in the tails of long runs that no other anchor shares,
and that trie was most of the index's memory, of its load's peak and of its build. Each
anchor's *key* is its first :data:`PREFIX_CHARS` characters, or more where another anchor
starts with the same ones: one character past the longest start it shares with any other
(the whole anchor if that is all of it). No two anchors have the same key, so each key
stands for one posting slot, and an anchor occurs in a message exactly where its key ends
and the rest of it follows (``message.startswith(rest, end + 1)``): the automaton reports
every occurrence of a key, so the slots found are those whose whole anchor the message
holds. The rests are one text and one column of where each slot's starts, saved with the
index's other columns (:data:`COLUMNS`, :data:`REGION`), not an object per anchor. A key
that is its whole anchor has the slot as its value, any other ``slots + slot``: most hits
(short words) are taken as they come, as the automaton of whole anchors took them.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence
from itertools import pairwise

import ahocorasick

__all__ = ["COLUMNS", "PREFIX_CHARS", "REGION", "Anchors", "BadAnchors"]

#: Characters of an anchor the automaton holds at least (the rest is compared where they
#: end); more where anchors share them.
PREFIX_CHARS = 16
#: The integer column saved with the index: where each slot's rest starts in
#: :data:`REGION` (one more than there are slots).
COLUMNS = ("anchor_rests_at",)
#: The text region of the rests, slot after slot.
REGION = "anchor_rests"


class BadAnchors(ValueError):
    """A saved automaton and the rests of its anchors do not fit together."""


class Anchors:
    """The automaton over the anchors' keys, and the rest of each anchor past its key."""

    def __init__(self, automaton: ahocorasick.Automaton, rests_at: Sequence[int], rests: str):
        self.automaton, self.rests_at, self.rests = automaton, rests_at, rests
        self.slots = len(rests_at) - 1

    def __len__(self) -> int:
        """The posting slots (one per anchor), as the full automaton's length was."""
        return self.slots

    @classmethod
    def build(cls, anchors: Sequence[str]) -> Anchors:
        """From the anchors by posting slot (none empty, none repeated)."""
        shared: dict[str, list[int]] = {}
        for slot, anchor in enumerate(anchors):
            if not anchor:
                raise BadAnchors("an empty anchor")
            shared.setdefault(anchor[:PREFIX_CHARS], []).append(slot)
        cut = [PREFIX_CHARS] * len(anchors)
        for members in shared.values():
            if len(members) > 1:  # in order, each shares most with a neighbour
                members.sort(key=anchors.__getitem__)
                for a, b in pairwise(members):
                    length = _common(anchors[a], anchors[b]) + 1
                    cut[a], cut[b] = max(cut[a], length), max(cut[b], length)
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        rests_at, rests, total = array("Q", [0]), [], 0
        slots = len(anchors)
        for slot, anchor in enumerate(anchors):
            rest = anchor[cut[slot] :]
            automaton.add_word(anchor[: cut[slot]], slot + slots if rest else slot)
            rests.append(rest)
            total += len(rest)
            rests_at.append(total)
        if len(automaton) != len(anchors):
            raise BadAnchors("an anchor repeated")
        if len(automaton):
            automaton.make_automaton()
        return cls(automaton, rests_at, "".join(rests))

    @classmethod
    def saved(
        cls,
        automaton: ahocorasick.Automaton,
        slots: int,
        columns: Sequence[Sequence[int]],
        rests: str,
    ) -> Anchors:
        """From an automaton's saved state and its column and text (:meth:`columns`), as
        saved by this user's errdex: their shapes are checked, not each value."""
        (rests_at,) = columns
        if len(rests_at) != slots + 1 or rests_at[0] != 0 or rests_at[-1] != len(rests):
            raise BadAnchors("the rests of the anchors do not fit together")
        if len(automaton) != slots:  # one key per anchor
            raise BadAnchors("the automaton does not hold the anchors' keys")
        return cls(automaton, rests_at, rests)

    def columns(self) -> dict[str, Sequence[int]]:
        """The column by its name in :data:`COLUMNS` (:attr:`rests`: the text)."""
        return {COLUMNS[0]: self.rests_at}

    def keys(self, message: str) -> set[int]:
        """The posting slots whose whole anchor occurs in ``message``."""
        slots, rests, at = self.slots, self.rests, self.rests_at
        found: set[int] = set()
        for end, value in self.automaton.iter(message):
            if value < slots:  # the key is the whole anchor
                found.add(value)
                continue
            slot = value - slots
            if slot not in found and message.startswith(rests[at[slot] : at[slot + 1]], end + 1):
                found.add(slot)
        return found

    def anchors(self) -> list[str]:
        """The anchors by posting slot (what :meth:`build` was given)."""
        out = [""] * self.slots
        rests, at = self.rests, self.rests_at
        for key, value in self.automaton.items():
            slot = value if value < self.slots else value - self.slots
            out[slot] = key + rests[at[slot] : at[slot + 1]]
        return out


def _common(a: str, b: str) -> int:
    """How many characters ``a`` and ``b`` start with alike (both share their first
    :data:`PREFIX_CHARS`), found by halving: each comparison is one slice compared in C."""
    low, high = PREFIX_CHARS, min(len(a), len(b))
    while low < high:
        middle = (low + high + 1) // 2
        if a[:middle] == b[:middle]:
            low = middle
        else:
            high = middle - 1
    return low
