"""Twins: entries the message alone cannot tell apart, scored once and copied after.

A catalogue of a million templates holds thousands of copies of one template (a vendored
``'{msg} (at {loc})'``, one per package that ships it): a message that fits one fits all
of them, with the same score, and ranking used to verify and score each copy in turn.
Entries with the same class, resolved class, literal runs and pattern are *twins*. The
index records them at build time (:func:`twin_groups`); for one message,
:func:`collapse` keeps one stand-in per group among the candidates, ranking scores it,
and :func:`expand` copies its score to the other twins before the confidence is shared,
so the answer is the one scoring every copy would give.

Only what the message says is copied: twins a frame points at are scored on their own.
Every group is folded, those among the first :data:`SCORED_ALONE` candidates too; ranking's
fuzzy and note passes read those first candidates one by one, so before either runs
:func:`unfold_head` makes each twin among them a candidate of its own (a copy of its
stand-in's score so far, which is what scoring it alone would have given) and folds the
group's later twins under a stand-in of their own. Entries whose score depends on their own file are
never twins (runtime observations, sites in compiled code that print no frame); neither
are a group's copies when the pasted class is a subclass of theirs, where the package of
each file decides (:func:`errdex.match.classes.foreign_subclass`).

A stand-in is then carried as one answer (its ``twins``: the entries it stands for) through
ranking and :func:`errdex.match.group.order_group`, and copied out only where answers are
shown (:func:`expanded`): the order is the one scoring every copy gives (twins tie on all
but their index, so each stands where its index puts it). Where something reads each copy
on its own (several errors of a paste merged by entry, the records read to settle compiled
twins), :func:`with_copies` makes them first, as before.
"""

from __future__ import annotations

import bisect
import copy
import heapq
from array import array
from collections import Counter
from collections.abc import (
    Callable,
    Collection,
    Container,
    Hashable,
    Iterable,
    Iterator,
    MutableMapping,
    Sequence,
)
from itertools import chain, groupby, islice, repeat
from typing import TYPE_CHECKING, Protocol, TypeVar

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex

__all__ = [
    "FOLD_POSTING",
    "SCORED_ALONE",
    "Candidates",
    "clone",
    "collapse",
    "collapse_folded",
    "copy_out_shadowed",
    "expand",
    "expanded",
    "fits_by_message",
    "fold_posting",
    "may_be_compiled",
    "split_off",
    "twin_groups",
    "unfold_head",
    "with_copies",
]

#: Candidates ranking reads one by one, at least (``rank``: fuzzy ``candidates[:200]``,
#: notes ``candidates[:MAX_NOTED]``): no twin among them stands in for another.
SCORED_ALONE = 200


class Candidates(list[int]):
    """Message candidates, sorted, with ``twins``: a stand-in -> the entries it stands for
    (absent from the list); ``found``: every candidate, unfolded (what :func:`unfold_head`
    reads)."""

    __slots__ = ("_found", "_more", "twins", "unfolded")

    def __init__(self, items: Sequence[int] = ()) -> None:
        super().__init__(items)
        self.twins: dict[int, list[int]] = {}
        self._found: Sequence[int] | None = None
        self._more: list[Sequence[int]] = []  # postings folded whole (:func:`fold_postings`)
        self.unfolded = False

    @property
    def found(self) -> Sequence[int]:
        """Every candidate, unfolded and sorted (made when first asked for)."""
        if self._found is None:
            self._found = list(self)
        if self._more:
            self._found = sorted(chain(self._found, *self._more))
            self._more = []
        return self._found

    @found.setter
    def found(self, value: Sequence[int]) -> None:
        self._found, self._more = value, []


class _Scored(Protocol):
    index: int
    holes: dict[str, str]
    reasons: list[str]
    twins: tuple[int, ...]


class _Fit(_Scored, Protocol):
    full_match: bool
    innermost: bool
    message: float


S = TypeVar("S", bound=_Scored)
F = TypeVar("F", bound=_Fit)


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
    """``found`` with each group's twins folded into their first one; ``alone``: entries to
    score on their own (a frame points at them); ``told_apart(group)``: whether this paste
    tells the group's twins apart."""
    out = Candidates()
    out.found = found
    stand_in: dict[int, int] = {}  # group -> its stand-in, or -1: scored one by one
    for index in found:
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


#: A posting (one anchor's entries) of this many entries or more is folded as a whole:
#: twins are entries of one anchor (.index_build), so its groups are whole in it.
FOLD_POSTING = 64


def fold_posting(
    posting: Sequence[int], groups: Sequence[int], sizes: Callable[[int], int]
) -> tuple[list[int], list[int]] | None:
    """``(entries in no group, groups)`` of one anchor's posting, groups in order of their
    first entry; None if a group is not whole in it (``sizes(group)``: its entries)."""
    lone: list[int] = []
    held: dict[int, int] = {}
    for i in posting:
        group = groups[i]
        if not group:
            lone.append(i)
        else:
            held[group] = held.get(group, 0) + 1
    if any(sizes(group) != count for group, count in held.items()):
        return None
    return lone, list(held)


def collapse_folded(
    loose: Sequence[int],
    folded: Sequence[tuple[Sequence[int], list[int], list[int]]],
    groups: Sequence[int],
    members: Callable[[int], Sequence[int]],
    alone: Collection[int],
    told_apart: Callable[[int], bool],
) -> Candidates:
    """What :func:`collapse` makes of ``loose`` plus every entry of the ``folded`` postings
    (each ``(posting, its entries in no group, its groups)``, :func:`fold_posting`), at the
    cost of their groups, not of their entries: no group spans two postings."""
    out = collapse(loose, groups, alone, told_apart)
    for posting, lone, held in folded:
        out._more.append(posting)
        out.extend(lone)
        for group in held:
            twins = members(group)
            own = sorted(i for i in alone if groups[i] == group)  # a frame points at them
            out.extend(own)
            rest = [i for i in twins if i not in own] if own else twins
            if not rest:
                continue
            if told_apart(group):
                out.extend(rest)
            else:
                out.append(rest[0])
                out.twins[rest[0]] = list(rest[1:])
    out.sort()
    return out


def unfold_head(candidates: Sequence[int], found: MutableMapping[int, S]) -> None:
    """Fold ``candidates`` as if the first :data:`SCORED_ALONE` had never been folded:
    before a pass that reads those one by one (ranking's fuzzy and note passes). Each twin
    among them becomes a candidate of its own, scored (in ``found``) as its stand-in was so
    far, unless it has been scored on its own already; a group's later twins are folded
    under the first of them, scored alike. Until then every pass treated a stand-in as each
    of its twins, so the scores are those every pass on every twin would have given."""
    if not isinstance(candidates, Candidates) or candidates.unfolded:
        return
    candidates.unfolded = True
    if not candidates.twins or len(candidates.found) <= 1:
        return
    last = candidates.found[min(SCORED_ALONE, len(candidates.found)) - 1]
    twins = candidates.twins
    for head in [h for h in twins if h <= last]:
        members = twins.pop(head)
        scored = found.get(head)
        cut = bisect.bisect_right(members, last)
        later = members[cut:]
        for i in members[:cut] + later[:1]:
            candidates.append(i)
            if scored is not None and i not in found:
                found[i] = clone(scored, i)
        if later:
            twins[later[0]] = later[1:]
    candidates.sort()


def split_off(candidates: Sequence[int], head: int, apart: Container[int]) -> list[int]:
    """Take the twins in ``apart`` out of ``head``'s group (something of this paste sets
    them apart: a hole holds a message that very entry renders), and, if ``head`` is one of
    them, fold the rest under the first of the rest; the entries to score on their own
    now, in order (the new stand-in among them)."""
    twins: dict[int, list[int]] = getattr(candidates, "twins", {})
    members = twins.get(head)
    if not members:
        return []
    out = [i for i in members if i in apart]
    rest = [i for i in members if i not in apart]
    if head in apart:
        del twins[head]
        if rest:
            twins[rest[0]] = rest[1:]
            out.append(rest[0])
    else:
        twins[head] = rest
    if isinstance(candidates, list):
        candidates.extend(out)
    return sorted(out)


def expand(candidates: Sequence[int], found: MutableMapping[int, S], groups: Sequence[int]) -> None:
    """Give each stand-in in ``found`` (by entry) the twins it stood for, less those scored
    on their own since (a class's sites tried): ``twins``, copied out later."""
    twins: dict[int, list[int]] = getattr(candidates, "twins", {})
    if not twins:
        return
    # the few scored entries are counted by group once, not the twins, nor per stand-in
    scored_in = Counter(groups[i] for i in found)
    for head, members in twins.items():
        scored = found.get(head)
        if scored is not None:
            if scored_in[groups[head]] > 1:  # another entry of its group scored alone
                scored.twins = tuple(i for i in members if i not in found)
            else:
                scored.twins = tuple(members)


def clone(scored: S, index: int) -> S:
    """A copy of ``scored`` for its twin ``index`` (its own holes and reasons lists)."""
    # copy.copy's generic path costs several times this, for thousands of twins
    kind, fields = type(scored), getattr(scored, "__dict__", None)
    if fields is None or hasattr(kind, "__copy__") or hasattr(kind, "__slots__"):
        twin = copy.copy(scored)  # a copy of its own making
    else:
        twin = kind.__new__(kind)
        twin.__dict__.update(fields)
    twin.index = index
    twin.holes = dict(scored.holes)
    twin.reasons = list(scored.reasons)
    twin.twins = ()
    return twin


def with_copies(scored: Iterable[S]) -> list[S]:
    """``scored`` with each stand-in's twins as copies of it after them all, stand-ins in
    entry order (as scoring every copy in turn listed them)."""
    out = list(scored)
    heads = sorted((s for s in out if s.twins), key=lambda s: s.index)
    for head in heads:
        out.extend(clone(head, i) for i in head.twins)
        head.twins = ()
    return out


def expanded(runs: Iterable[S], tie: Callable[[S], Hashable], limit: int | None) -> list[S]:
    """The first ``limit`` (None: all) answers of ``runs`` with the stand-ins copied out.

    ``runs`` is ordered by ``tie``, then by entry; copies share their stand-in's ``tie``,
    so they are merged by entry with the answers it ties with (equal ``tie``)."""
    out: list[S] = []
    for _, block in groupby(runs, key=tie):
        if limit is not None and len(out) >= limit:
            break
        items = list(block)
        if not any(s.twins for s in items):
            out.extend(items)
            continue
        # lazily: a stand-in may hold thousands of twins, and a few are shown
        lists = [zip(chain((s.index,), s.twins), repeat(k), repeat(s)) for k, s in enumerate(items)]
        merged: Iterator[tuple[int, int, S]] = heapq.merge(*lists)
        left = None if limit is None else limit - len(out)
        for i, _k, s in islice(merged, left):
            out.append(s if i == s.index else clone(s, i))
    for s in out:
        if s.twins:
            s.twins = ()  # its twins are copies of their own now, or not shown
    return out


def fits_by_message(s: _Fit) -> bool:
    """Fits the message in full, and only the message places it (no innermost frame):
    the candidates ``native.prefer_live`` weighs against their compiled twins."""
    return s.full_match and not s.innermost and s.message > 0


def may_be_compiled(index: MatchIndex, scored: Iterable[_Fit]) -> bool:
    """Whether a site that fits by message, twins counted, may be compiled code (its file
    is not ``.py``): then ``native.prefer_live`` reads each Python twin on its own."""
    return any(
        fits_by_message(s)
        and any(not index.file_path(i).endswith(".py") for i in (s.index, *s.twins))
        for s in scored
    )


def copy_out_shadowed(index: MatchIndex, best: MutableMapping[int, F]) -> None:
    """Give each twin its own entry in ``best`` where ``native.prefer_live`` must read it
    alone: the index knows a Python site a compiled module replaces, and a fitting site
    may be compiled."""
    if index.any_shadowed and may_be_compiled(index, best.values()):
        best.update((s.index, s) for s in with_copies(best.values()))
