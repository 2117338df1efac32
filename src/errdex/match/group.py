"""The answer's group: the sites a paste cannot tell apart, first, confidence shared.

Rivals are the candidates scoring within :data:`TIE_RATIO` of the best and answering the
same error (the final one, or only causes). Of those, the group is the ones that fit the
message equally well: within :data:`LITERAL_SLACK` of the most literal characters of the
message fixed by a template. A site whose template leaves more of the message to holes
also renders it, but is less likely to have printed exactly this text, and its score
saturates (about 30 literal characters say everything a score can), so it is ordered
after the group, not shared with. A template fixing only a short value more (``'='``
where the others print ``{char!r}``) is no surer: a hole takes so short a value readily.
The group is ordered by literal characters, then by the tie prior (:mod:`.prior`); the
text cannot order it further, so the confidence is shared whatever the order.
"""

from __future__ import annotations

from collections import Counter
from typing import TYPE_CHECKING

from errdex.match.prior import Prior, prior_key

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["TIE_RATIO", "order_group"]

#: Candidates scoring within this ratio of the best are told apart by nothing.
TIE_RATIO = 0.97
#: Literal characters more that do not make a template fit better: about one short value
#: (a character's repr, a small number) that another template's hole would take as well.
LITERAL_SLACK = 3


def order_group(
    ranked: list[Scored], index: MatchIndex, prior: Prior | None = None
) -> tuple[list[Scored], int]:
    """``ranked`` (best first) with the best answer's group first, its confidence shared
    among all its sites (not only those shown), then the looser fits among the rivals,
    then the rest; and how many records the group holds (a site may hold several).

    Observed messages do not tip the balance between rivals: on networkx's real errors, a
    message seen at one site by one test was, for another test, raised at a sibling site
    more often than not (bench/match_accuracy.py cross-validates this).
    """
    if len(ranked) < 2:
        return ranked, len(ranked)
    top, tier, pinned = ranked[0].score, ranked[0].answers_final, ranked[0].pinned
    cut = 0  # rivals are a prefix of ``ranked``: it is sorted by tier, pinning, then score
    while cut < len(ranked):
        s = ranked[cut]
        if s.answers_final != tier or s.pinned != pinned or s.score < TIE_RATIO * top:
            break
        cut += 1
    rivals = ranked[:cut]
    best = max(s.literal for s in rivals)
    members = [s for s in rivals if s.literal >= best - LITERAL_SLACK]
    looser = sorted(
        (s for s in rivals if s.literal < best - LITERAL_SLACK), key=lambda s: -s.literal
    )
    key = prior_key(index, prior)
    # stable: the evidence's order where literal characters and the prior leave a tie
    members.sort(key=lambda s: (-s.literal, *key(s.index)))
    ordered = [*members, *looser, *ranked[cut:]]
    site_of = {id(s): _site(index, s.index) for s in members}
    sites = Counter(site_of.values())
    if len(sites) < 2:
        return ordered, len(members)
    # each site gets an equal part of the group (its records, if several, split it)
    weight = {id(s): s.score**2 / sites[site_of[id(s)]] for s in members}
    total = sum(weight.values())
    for s in members:
        s.confidence = s.confidence * weight[id(s)] / total
        s.group_size = len(sites)
        s.reasons.append(f"{len(sites) - 1} other site(s) fit this paste equally well")
    return ordered, len(members)


def _site(index: MatchIndex, i: int) -> tuple[str, int]:
    entry = index.entry(i)
    return entry.file_path, entry.line
