"""A library's message the caller replaced: the honest answer when no text fits.

marshmallow takes ``fields.Boolean(error_messages={"invalid": "bad input"})`` and its
validators ``error="…"``: the error then prints the caller's text, which no catalogued
template holds. When no template of the class fits the message at all, not even one that
is one value and nothing else, the text cannot decide between any of the class's sites:
each may have raised it with the caller's text. They are answered as one group, at a
one-value fit's score and sharing the confidence, when the class has few enough sites for
that to be an answer (:data:`MAX_OVERRIDDEN`).

Where the only fits are one-value sites (``raise ParseError(str(e))``, marshmallow's
``ValidationError(error.messages)``), they fit any text, exactly as well as an override
would: their literal characters are none. The text cannot tell them from the class's
other sites then, so those join them as one group, sharing the confidence (the lead's
decision on marshmallow's overrides); the one-value sites stay first in it, as they fit
with their template. A fit with any literal text (a dict's ``{<int>…}`` braces, or a site
of another class with words) is no such tie: no override is answered.
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
    message with any literal text (``scored``: the candidates so far, a one-value fit has
    none) and the class has few sites."""
    if any(s.full_match and s.literal > 0 for s in scored):
        return
    sites = index.by_class(error_class)
    count = index.count_sites(sites, MAX_OVERRIDDEN)
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
