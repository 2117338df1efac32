"""A library's message the caller replaced: the honest answer when no text fits.

marshmallow takes ``fields.Boolean(error_messages={"invalid": "bad input"})`` and its
validators ``error="…"``: the error then prints the caller's text, which no catalogued
template holds. When no template of the class fits the message at all, not even one that
is one value and nothing else, the text cannot decide between any of the class's sites:
each may have raised it with the caller's text. They are answered as one group, at a
one-value fit's score and sharing the confidence, when the class has few enough sites for
that to be an answer (:data:`MAX_OVERRIDDEN`).

Where a one-value site fits (``raise ParseError(str(e))``, marshmallow's
``ValidationError(error.messages)``), it alone is the answer, as before
(tests/match/test_rank_thin.py): such a site fits any text, so the override cannot be
told from it by the text, and whether both should be one group is left open.
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["MAX_OVERRIDDEN", "overridden"]

#: A class raised at more sites than this is answered by nothing when its message fits
#: no text: a group that large tells a reader nothing.
MAX_OVERRIDDEN = 64


def overridden(
    index: MatchIndex,
    error_class: str,
    scored: Iterable[Scored],
    get: Callable[[int], Scored],
    score: float,
) -> None:
    """The class's sites, each at ``score`` (a one-value fit's), if no template fits the
    message (``scored``: the candidates so far) and the class has few sites."""
    if any(s.full_match for s in scored):
        return
    sites = index.by_class(error_class)
    count = len({(index.entry(i).file_path, index.entry(i).line) for i in sites})
    if count > MAX_OVERRIDDEN:
        return
    for i in sites:
        s = get(i)
        if s.full_match or s.message >= score:
            continue
        s.message = score  # its literal stays -1: the template does not fit the text
        s.reasons.append(
            f"no template fits the message: the caller may have replaced "
            f"this site's message (an override); one of {count} sites raising "
            f"{error_class}, which the text cannot tell apart"
        )
