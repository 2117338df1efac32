"""The anchors' automaton, holding each anchor's first :data:`PREFIX_CHARS` characters only.

An anchor is a template's rarest word or, for a template of common words, its longest
literal run (up to 200 characters): at a million templates the full anchors made a trie of
9 million nodes, most of them in the tails of long runs that no other anchor shares, and
that trie was most of the index's memory, of its load's peak and of its build. A long
anchor is found in a message where its prefix ends and the rest of it follows there
(``message.startswith(rest, end + 1)``): every occurrence of the prefix is reported, so
the slots found are exactly those whose whole anchor occurs in the message.

The automaton's value for a prefix is the posting slot when the prefix is one anchor and
the whole of it; otherwise ``slots + k``: the ``k``-th group of the anchors that start
with it, each a slot and the rest of its anchor past the prefix ("" for the anchor that
is the prefix itself). Groups, slots and rests are flat columns and one text (saved with
the index's other columns, :data:`COLUMNS`, :data:`REGION`), not an object per anchor.
"""

from __future__ import annotations

from array import array
from collections.abc import Sequence

import ahocorasick

__all__ = ["COLUMNS", "PREFIX_CHARS", "REGION", "Anchors", "BadAnchors"]

#: Characters of an anchor the automaton holds (the rest is compared where they end).
PREFIX_CHARS = 16
#: The integer columns saved with the index: where each group starts in the two others
#: (one more than there are groups), each member's slot, where each member's rest starts
#: in :data:`REGION` (one more than there are members).
COLUMNS = ("anchor_groups", "anchor_members", "anchor_rests_at")
#: The text region of the rests, one after another.
REGION = "anchor_rests"


class BadAnchors(ValueError):
    """A saved automaton and its groups of longer anchors do not fit together."""


class Anchors:
    """The anchors' automaton over their prefixes, and the groups of longer anchors."""

    def __init__(
        self,
        automaton: ahocorasick.Automaton,
        slots: int,
        columns: Sequence[Sequence[int]],
        rests: str,
    ) -> None:
        self.automaton, self.slots, self.rests = automaton, slots, rests
        self.groups, self.members, self.rests_at = columns

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
        groups, members, rests_at = array("Q", [0]), array("I"), array("Q", [0])
        rests: list[str] = []
        total = 0
        for prefix, found in prefixes.items():
            if len(found) == 1 and len(anchors[found[0]]) == len(prefix):
                automaton.add_word(prefix, found[0])
                continue
            automaton.add_word(prefix, slots + len(groups) - 1)
            for slot in found:
                rest = anchors[slot][len(prefix) :]
                members.append(slot)
                rests.append(rest)
                total += len(rest)
                rests_at.append(total)
            groups.append(len(members))
        if len(automaton):
            automaton.make_automaton()
        return cls(automaton, slots, (groups, members, rests_at), "".join(rests))

    @classmethod
    def saved(
        cls,
        automaton: ahocorasick.Automaton,
        slots: int,
        columns: Sequence[Sequence[int]],
        rests: str,
    ) -> Anchors:
        """From an automaton's saved state and its columns (:meth:`columns`), as saved by
        this user's errdex: their shapes are checked, not each value."""
        groups, members, rests_at = columns
        if not (
            len(groups)
            and groups[0] == 0
            and groups[-1] == len(members)
            and len(rests_at) == len(members) + 1
            and rests_at[-1] == len(rests)
        ):
            raise BadAnchors("the groups of longer anchors do not fit together")
        if len(automaton) != slots - len(members) + len(groups) - 1:  # one word per prefix
            raise BadAnchors("the automaton does not hold the anchors' prefixes")
        return cls(automaton, slots, columns, rests)

    def columns(self) -> dict[str, Sequence[int]]:
        """The groups' columns by their names in :data:`COLUMNS` (:attr:`rests`: the text)."""
        return dict(zip(COLUMNS, (self.groups, self.members, self.rests_at), strict=True))

    def keys(self, message: str) -> set[int]:
        """The posting slots whose whole anchor occurs in ``message``."""
        slots, groups, members = self.slots, self.groups, self.members
        rests, at = self.rests, self.rests_at
        found: set[int] = set()
        add = found.add
        for end, value in self.automaton.iter(message):
            if value < slots:
                add(value)
                continue
            group = value - slots
            for k in range(groups[group], groups[group + 1]):
                slot = members[k]
                if slot not in found and message.startswith(rests[at[k] : at[k + 1]], end + 1):
                    add(slot)
        return found

    def anchors(self) -> list[str]:
        """The anchors by posting slot (what :meth:`build` was given)."""
        out = [""] * self.slots
        slots, groups, members = self.slots, self.groups, self.members
        rests, at = self.rests, self.rests_at
        for prefix, value in self.automaton.items():
            if value < slots:
                out[value] = prefix
                continue
            group = value - slots
            for k in range(groups[group], groups[group + 1]):
                out[members[k]] = prefix + rests[at[k] : at[k + 1]]
        return out
