"""Twins: entries the message alone cannot tell apart, scored once and copied after.

A catalogue of a million templates holds thousands of copies of one template (a vendored
``'{msg} (at {loc})'``, one per package that ships it): a message that fits one fits all
of them, with the same score, and ranking used to verify and score each copy in turn.
Entries with the same class, resolved class, literal runs and pattern are *twins*. The
index records them at build time (:func:`twin_groups`); for one message,
:func:`collapse` keeps one stand-in per group among the candidates, ranking scores it,
and :func:`expand` copies its score to the other twins before the confidence is shared,
so the answer is the one scoring every copy would give.

Only what the message says is copied: twins a frame points at are scored on their own,
and so is every twin among the first :data:`SCORED_ALONE` candidates (ranking reads those
alone for its fuzzy and note passes). Entries whose score depends on their own file are
never twins (runtime observations, sites in compiled code that print no frame); neither
are a group's copies when the pasted class is a subclass of theirs, where the package of
each file decides (:func:`errdex.match.classes.foreign_subclass`).
"""

from __future__ import annotations

import copy
from array import array
from collections.abc import Callable, Container, Iterable, MutableMapping, Sequence
from typing import Protocol, TypeVar

__all__ = ["SCORED_ALONE", "Candidates", "collapse", "expand", "twin_groups"]

#: Candidates ranking reads one by one, at least (``rank``: fuzzy ``candidates[:200]``,
#: notes ``candidates[:MAX_NOTED]``): no twin among them stands in for another.
SCORED_ALONE = 200


class Candidates(list[int]):
    """Message candidates, sorted, with ``twins``: a stand-in -> the entries it stands for
    (absent from the list)."""

    __slots__ = ("twins",)

    def __init__(self, items: Sequence[int] = ()) -> None:
        super().__init__(items)
        self.twins: dict[int, list[int]] = {}


class _Scored(Protocol):
    index: int
    holes: dict[str, str]
    reasons: list[str]


S = TypeVar("S", bound=_Scored)


def twin_groups(
    groups: Iterable[Sequence[int]], entries: int
) -> tuple[array[int], array[int], array[int]]:
    """``(group of each entry, members, offsets)`` of ``groups`` of twins (each in order),
    numbered from 1 (0: no twin); group ``g`` is ``members[offsets[g - 1] : offsets[g]]``."""
    of_entry = array("I", bytes(4 * entries))
    members = array("I")
    offsets = array("Q", [0])
    for number, group in enumerate(groups, start=1):
        for index in group:
            of_entry[index] = number
        members.extend(group)
        offsets.append(len(members))
    return of_entry, members, offsets


def collapse(
    found: Sequence[int],
    groups: Sequence[int],
    alone: Container[int],
    told_apart: Callable[[int], bool],
) -> Candidates:
    """``found`` with each group's twins past the first :data:`SCORED_ALONE` candidates
    folded into their first one; ``alone``: entries to score on their own (a frame points
    at them); ``told_apart(group)``: whether this paste tells the group's twins apart."""
    out = Candidates(found[:SCORED_ALONE])
    stand_in: dict[int, int] = {}  # group -> its stand-in, or -1: scored one by one
    for index in found[SCORED_ALONE:]:
        group = groups[index]
        if not group or index in alone:
            out.append(index)
            continue
        head = stand_in.get(group)
        if head is None:
            head = stand_in[group] = -1 if told_apart(group) else index
            out.append(index)
            if head >= 0:
                out.twins[index] = []
        elif head < 0:
            out.append(index)
        else:
            out.twins[head].append(index)
    return out


def expand(candidates: Sequence[int], found: MutableMapping[int, S]) -> None:
    """Give each twin a stand-in stood for a copy of its score (``found``: by entry)."""
    twins: dict[int, list[int]] = getattr(candidates, "twins", {})
    for head, members in twins.items():
        scored = found.get(head)
        if scored is None:
            continue
        # copy.copy's generic path costs several times this, for thousands of twins
        kind, fields = type(scored), getattr(scored, "__dict__", None)
        if hasattr(kind, "__copy__") or hasattr(kind, "__slots__"):
            fields = None  # a copy of its own making
        for index in members:
            if index not in found:  # scored on its own since (a class's sites tried)
                if fields is None:
                    twin = found[index] = copy.copy(scored)
                else:
                    twin = found[index] = kind.__new__(kind)
                    twin.__dict__.update(fields)
                twin.index = index
                twin.holes = dict(scored.holes)
                twin.reasons = list(scored.reasons)
