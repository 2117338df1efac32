"""The fuzzy pass of ranking: a message that drifted between versions, scored by similarity.

It runs only when no template fits the message in full, over the first few hundred
message candidates; a message that fits nothing (a miss) pays it in full, so it sets the
tail of a query's time. Most candidates cannot reach :data:`FUZZY_MIN` whatever their
text: ``fuzz.ratio`` is ``100 * (1 - d / (m + n))`` with ``d`` the InDel distance, and
``d >= |m - n|``, so a literal of ``n`` characters scores at most ``200 * n / (m + n)``
against a message of ``m >= n``. A candidate whose literal text (at most as long as its
runs joined) is too short for that is passed over before its text is even cut out.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["FUZZY_MIN", "SIMILAR_CAP", "fuzzy_matches", "similar_cap", "similarity_bound"]

FUZZY_MIN = 70.0
#: The most a site whose template does not fit the message can be believed, were the
#: message identical to its text: a message only similar says the code that raised it is
#: not the code catalogued (another release) or that another site raised it, and the text
#: cannot tell which; 0.9 and above is kept for answers the message itself confirms (a
#: template that produces it), so a frame pointing here cannot lift a resemblance there.
SIMILAR_CAP = 0.85


def similar_cap(similar: float, full_match: bool) -> float:
    """The cap on a candidate's confidence: :data:`SIMILAR_CAP` times the similarity for
    one found only by resemblance, none (1) for one whose template fits or that the
    fuzzy pass did not score."""
    return 1.0 if full_match or similar <= 0 else SIMILAR_CAP * similar


def similarity_bound(message_length: int, literal_length: int) -> float:
    """The highest ``fuzz.ratio`` a text of at most ``literal_length`` characters can
    reach against a message of ``message_length`` (100 when it may be as long)."""
    if literal_length >= message_length:
        return 100.0
    return 200.0 * literal_length / (message_length + literal_length)


def fuzzy_matches(
    message: str, index: MatchIndex, candidates: Sequence[int], get: Callable[[int], Scored]
) -> None:
    """Score the candidates whose literal text is at least :data:`FUZZY_MIN` similar to
    ``message`` (half the similarity, as a message score), in order."""
    from rapidfuzz import fuzz  # here: a hook's first answer must not pay its import

    length = len(message)
    # below this many characters a literal cannot reach FUZZY_MIN (see similarity_bound);
    # the margin keeps a rounding error from passing over one that just does
    shortest = FUZZY_MIN * length / (200.0 - FUZZY_MIN) - 1e-6
    for i, text in index.literal_texts(candidates):
        if len(text) < shortest:
            continue
        runs = text.split(index.RUN_SEPARATOR)
        if not sum(map(len, runs)):
            continue
        literal = " ".join(r.strip() for r in runs if r.strip())
        ratio = fuzz.ratio(message, literal, score_cutoff=FUZZY_MIN)
        if ratio:
            s = get(i)
            score = 0.5 * ratio / 100
            if score > s.message:
                s.message = score
                s.similar = ratio / 100
                s.reasons.append(f"the message is {ratio:.0f}% similar to the template")
