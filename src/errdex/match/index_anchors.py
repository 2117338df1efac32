"""The anchors' automaton, holding each anchor's first :data:`PREFIX_CHARS` characters only.

An anchor is a template's rarest word or, for a template of common words, its longest
literal run (up to 200 characters): at a million templates the full anchors made a trie of
9 million nodes, most of them in the tails of long runs that no other anchor shares, and
that trie was most of the index's memory, of its load's peak and of its build. A long
anchor is found in a message where its prefix ends and the rest of it follows there
(``message.startswith(rest, end + 1)``): every occurrence of the prefix is reported, so
the slots found are exactly those whose whole anchor occurs in the message.

The automaton's value for a prefix is the posting slot when the prefix is one anchor and
the whole of it; otherwise ``slots + k``, the ``k``-th row of :attr:`Anchors.longer`:
``(slot, rest)`` of each anchor that starts with it (``rest`` "" for the anchor that is
the prefix itself).
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import ahocorasick

__all__ = ["PREFIX_CHARS", "Anchors", "BadAnchors"]

#: Characters of an anchor the automaton holds (the rest is compared where they end).
PREFIX_CHARS = 16

#: One row of :attr:`Anchors.longer`: the anchors that start with one prefix.
Longer = list[tuple[int, str]]


class BadAnchors(ValueError):
    """A saved automaton and its table of longer anchors do not fit together."""


class Anchors:
    """The anchors' automaton and the rest of each anchor longer than its prefix."""

    def __init__(self, automaton: ahocorasick.Automaton, slots: int, longer: list[Longer]) -> None:
        self.automaton, self.slots, self.longer = automaton, slots, longer

    def __len__(self) -> int:
        """The posting slots (one per anchor), as the full automaton's length was."""
        return self.slots

    @classmethod
    def build(cls, anchors: Sequence[str]) -> Anchors:
        """From the anchors by posting slot (none empty, none repeated)."""
        prefixes: dict[str, list[int]] = {}
        for slot, anchor in enumerate(anchors):
            if not anchor:
                raise BadAnchors("an empty anchor")
            prefixes.setdefault(anchor[:PREFIX_CHARS], []).append(slot)
        automaton = ahocorasick.Automaton(ahocorasick.STORE_INTS)
        slots = len(anchors)
        longer: list[Longer] = []
        for prefix, members in prefixes.items():
            if len(members) == 1 and len(anchors[members[0]]) == len(prefix):
                automaton.add_word(prefix, members[0])
            else:
                automaton.add_word(prefix, slots + len(longer))
                longer.append([(slot, anchors[slot][len(prefix) :]) for slot in members])
        if len(automaton):
            automaton.make_automaton()
        return cls(automaton, slots, longer)

    @classmethod
    def saved(cls, automaton: ahocorasick.Automaton, slots: int, longer: Any) -> Anchors:
        """From an automaton's saved state and its table (:meth:`table`), checked to fit."""
        rows: list[Longer] = []
        if not isinstance(longer, list):
            raise BadAnchors("no table of longer anchors")
        listed = 0
        for row in longer:
            if not isinstance(row, list) or not row:
                raise BadAnchors("a bad row of longer anchors")
            pairs: Longer = []
            for pair in row:
                if not (
                    isinstance(pair, list)
                    and len(pair) == 2
                    and isinstance(pair[0], int)
                    and 0 <= pair[0] < slots
                    and isinstance(pair[1], str)
                ):
                    raise BadAnchors("a bad longer anchor")
                pairs.append((pair[0], pair[1]))
            listed += len(pairs)
            rows.append(pairs)
        if len(automaton) != slots - listed + len(rows):  # one word per prefix
            raise BadAnchors("the automaton does not hold the anchors' prefixes")
        return cls(automaton, slots, rows)

    def table(self) -> list[list[list[Any]]]:
        """:attr:`longer` as JSON, for :meth:`saved`."""
        return [[[slot, rest] for slot, rest in row] for row in self.longer]

    def keys(self, message: str) -> set[int]:
        """The posting slots whose whole anchor occurs in ``message``."""
        slots, longer = self.slots, self.longer
        found: set[int] = set()
        add = found.add
        for end, value in self.automaton.iter(message):
            if value < slots:
                add(value)
                continue
            for slot, rest in longer[value - slots]:
                if slot not in found and message.startswith(rest, end + 1):
                    add(slot)
        return found

    def anchors(self) -> list[str]:
        """The anchors by posting slot (what :meth:`build` was given)."""
        out = [""] * self.slots
        slots, longer = self.slots, self.longer
        for prefix, value in self.automaton.items():
            if value < slots:
                out[value] = prefix
            else:
                for slot, rest in longer[value - slots]:
                    out[slot] = prefix + rest
        return out
