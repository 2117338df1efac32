"""The answer's group: the sites a paste cannot tell apart, first, confidence shared.

Rivals are the candidates scoring within :data:`TIE_RATIO` of the best and answering the
same error (the final one, or only causes). Of those, the group is the ones that fit the
message equally well: within :data:`LITERAL_SLACK` of the most literal characters of the
message fixed by a template, and fixing every character the most literal one fixes inside
a typed hole (a repr's quotes, a bytes repr's ``b``), which a rival's untyped hole only
absorbs. A site whose template leaves more of the message to holes also renders it, but is
less likely to have printed exactly this text, and its score saturates (about 30 literal
characters say everything a score can), so it is ordered after the group, not shared with.
A template fixing only a short value more (``'='`` where the others print ``{char!r}``)
is no surer: a hole takes so short a value readily.
The group is ordered by literal characters, then by the tie prior (:mod:`.prior`); the
text cannot order it further, so the confidence is shared whatever the order.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Callable, Set
from itertools import chain
from typing import TYPE_CHECKING

from errdex.match.index_groups import clone, expanded, with_copies
from errdex.match.literal_match import typed_literals
from errdex.match.prior import Prior, prior_key
from errdex.match.rank_fuzzy import SIMILAR_CAP

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["TIE_RATIO", "order_group"]

#: Candidates scoring within this ratio of the best are told apart by nothing.
TIE_RATIO = 0.97
#: Literal characters more that do not make a template fit better: about one short value
#: (a character's repr, a small number) that another template's hole would take as well.
LITERAL_SLACK = 3
#: The most an answer is trusted while a rival scoring as well also renders the whole
#: message, only with more of it left to holes: likelier the narrower one, but not sure
#: (a check written for one class, ``X has {n} features, but PowerTransformer is …``,
#: beside the generic one every class shares, ``…, but {name} is …``). The same rule as a
#: resemblance's cap (:data:`.rank_fuzzy.SIMILAR_CAP`): 0.9 and above only where the
#: message settles the site.
LOOSER_FIT_CAP = SIMILAR_CAP


def order_group(
    ranked: list[Scored],
    index: MatchIndex,
    prior: Prior | None = None,
    shown: Callable[[int], int] | None = None,
) -> tuple[list[Scored], int]:
    """``ranked`` (best first) with the best answer's group first, its confidence shared
    among all its sites (not only those shown), then the looser fits among the rivals,
    then the rest; and how many records the group holds (a site may hold several).

    A stand-in for twins (:mod:`.index_groups`) counts as all of them and is copied out
    only for the answers returned: the first ``shown(group)`` (None: all of them).

    Observed messages do not tip the balance between rivals: on networkx's real errors, a
    message seen at one site by one test was, for another test, raised at a sibling site
    more often than not (bench/match_accuracy.py cross-validates this).
    """
    key = prior_key(index, prior)
    if any(s.twins for s in ranked) and key(ranked[0].index):  # a prior reads each twin
        ranked = sorted(with_copies(ranked), key=_evidence)
    if sum(1 + len(s.twins) for s in ranked) < 2:
        return expanded(ranked, _evidence, None), len(ranked)
    top, tier, pinned = ranked[0].score, ranked[0].answers_final, ranked[0].pinned
    cut = 0  # rivals are a prefix of ``ranked``: it is sorted by tier, pinning, then score
    while cut < len(ranked):
        s = ranked[cut]
        if s.answers_final != tier or s.pinned != pinned or s.score < TIE_RATIO * top:
            break
        cut += 1
    rivals = ranked[:cut]
    typed = {id(s): _typed(index, s) for s in rivals}
    lead = max(rivals, key=lambda s: (s.literal, typed[id(s)]))
    best, marked = lead.literal, typed[id(lead)]

    def fits_as_well(s: Scored) -> bool:
        return s.literal >= best - LITERAL_SLACK and typed[id(s)] >= marked

    members = [s for s in rivals if fits_as_well(s)]
    looser = sorted((s for s in rivals if not fits_as_well(s)), key=lambda s: -s.literal)
    rest = ranked[cut:]
    size = _share(members, index)
    if any(s.full_match for s in looser):
        _cap_for_looser(members)
    # stable: the evidence's order where literal characters and the prior leave a tie
    members.sort(key=lambda s: (-s.literal, *key(s.index)))
    limit = None if shown is None else shown(size)
    out = expanded(members, _in_group, limit)
    if limit is None or len(out) < limit:
        out += expanded(looser, _in_group, None if limit is None else limit - len(out))
    if limit is None or len(out) < limit:
        out += expanded(rest, _tie, None if limit is None else limit - len(out))
    return out, size


def _cap_for_looser(members: list[Scored]) -> None:
    """No answer is near-certain while another site fits the whole paste as well as a
    template can with more holes: the text does not rule that site out."""
    for s in members:
        if s.confidence > LOOSER_FIT_CAP:
            s.confidence = LOOSER_FIT_CAP
            s.reasons.append(
                "another site's template also renders the whole message, with more of it "
                "left to values: likelier this one, not certain"
            )


def _typed(index: MatchIndex, s: Scored) -> int:
    """The characters ``s``'s template fixes inside typed holes (a repr's quotes, the ``b``
    of a bytes repr): they tell its text apart from an untyped hole's, so no slack
    forgives a rival without them (``int(b'abc')``: the bytes site, not also the str one)."""
    if s.literal <= 0 or index.runs(s.index) is not None:
        return 0
    return typed_literals(index.entry(s.index).pattern)


def _evidence(s: Scored) -> tuple[bool, bool, float, int]:
    """The order ranking hands over: tier, pinning, score, then entry."""
    return (not s.answers_final, not s.pinned, -s.score, s.index)


def _tie(s: Scored) -> tuple[bool, bool, float]:
    return (not s.answers_final, not s.pinned, -s.score)


def _in_group(s: Scored) -> tuple[int, float]:
    """Among rivals (one tier and pinning): literal characters, then score."""
    return (-s.literal, -s.score)


def _share(members: list[Scored], index: MatchIndex) -> int:
    """Share the group's confidence among its sites (a site's records split its part) and
    return how many records the group holds; a stand-in whose twins' sites are held by
    unequally many records has those twins copied out into ``members``.

    A stand-in for a whole group of twins is counted from the group's sites, counted
    once per index (:meth:`.MatchIndex.twin_sites`), where no other member's site is one
    of them: its thousands of copies are not read again for each paste."""
    whole = _whole_groups(members, index)
    rest = [s for s in members if id(s) not in whole]
    flat = index.sites(chain.from_iterable(chain((s.index,), s.twins) for s in rest))
    sites = Counter(flat)
    if whole and not _apart(sites, [held for held, _ in whole.values()]):
        whole, rest = {}, members  # a site held by two: count every record
        flat = index.sites(chain.from_iterable(chain((s.index,), s.twins) for s in rest))
        sites = Counter(flat)
    size = len(flat) + sum(1 + len(s.twins) for s in members if id(s) in whole)
    distinct = len(sites) + sum(len(held) for held, _ in whole.values())
    if distinct < 2:
        return size
    where = {key: each for key, (_, each) in whole.items()}  # records at its site
    split = False
    start = 0
    for s in list(rest):  # a twin at a site of more records weighs less
        keys = flat[start : start + 1 + len(s.twins)] if s.twins else flat[start : start + 1]
        start += len(keys)
        where[id(s)] = sites[keys[0]]
        if s.twins and len(set(map(sites.__getitem__, keys))) > 1:
            own = sites[keys[0]]
            apart = [i for i, site in zip(s.twins, keys[1:], strict=True) if sites[site] != own]
            for i, site in zip(s.twins, keys[1:], strict=True):
                if sites[site] != own:
                    members.append(clone(s, i))
                    where[id(members[-1])] = sites[site]
            kept = set(s.twins).difference(apart)
            s.twins = tuple(i for i in s.twins if i in kept)
            split = True
    if split:
        members.sort(key=_evidence)  # copies split off stand where their entry puts them
    # each site gets an equal part of the group (its records, if several, split it)
    weight = [s.score**2 / where[id(s)] for s in members]
    total = math.fsum(
        part for s, w in zip(members, weight, strict=True) for part in _times(w, 1 + len(s.twins))
    )
    for s, w in zip(members, weight, strict=True):
        s.confidence = s.confidence * w / total
        s.group_size = distinct
        s.reasons.append(f"{distinct - 1} other site(s) fit this paste equally well")
    return size


def _whole_groups(members: list[Scored], index: MatchIndex) -> dict[int, tuple[Set[int], int]]:
    """``id(stand-in) -> (its group's sites, records at each)`` for the stand-ins that stand
    for a whole group of twins whose sites are each held by as many of its records."""
    out: dict[int, tuple[Set[int], int]] = {}
    for s in members:
        if len(s.twins) >= WHOLE_MIN:
            held = index.twin_sites(s.index, 1 + len(s.twins))
            if held is not None:
                out[id(s)] = held
    return out


def _apart(sites: Counter[int], groups: list[Set[int]]) -> bool:
    """Whether no site is in two of ``groups``, nor in one of them and ``sites`` (the
    smaller side of each pair is read: a group's thousands of sites are not copied)."""
    others = sites.keys()
    for k, held in enumerate(groups):
        if not held.isdisjoint(others) or any(not held.isdisjoint(g) for g in groups[k + 1 :]):
            return False
    return True


#: A stand-in for this many twins or more is counted by its group (:func:`_share`).
WHOLE_MIN = 64


#: Veltkamp's splitter for doubles: 2**27 + 1.
_SPLIT = 134217729.0


def _times(value: float, count: int) -> tuple[float, ...]:
    """``count * value`` as floats that add up to it exactly (``count`` < 2**26): the group's
    total is the exact sum of its parts, the same however its twins are folded."""
    if count == 1:
        return (value,)
    high = _SPLIT * value
    high = high - (high - value)  # 26 significant bits: ``count * high`` is exact
    return (count * high, count * (value - high))
