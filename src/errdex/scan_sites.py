"""One record per raise, and a key for each where a file raises one message twice.

The extractor may report one raise several times (one per value it follows); the
catalogue wants one record per (line, class, message). Two raises of one message in one
file need something besides the message to tell their ids apart: their qualname, then
their order.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Sequence

from errdex.extract.site import ErrorSite, message_key
from errdex.record import id_key

__all__ = ["disambiguate", "one_per_raise"]


def one_per_raise(sites: Sequence[ErrorSite]) -> list[ErrorSite]:
    """One site per (line, class, message), the first kept with the others' notes added.

    The extractor follows each value a variable may hold; in ``raise val`` after
    ``val = typ()`` on one branch and ``val = val.with_traceback(tb)`` on another, every
    alternative it cannot resolve gives the same ``{val}`` site, which must be one record.
    """
    kept: dict[tuple[int, str | None, str], ErrorSite] = {}
    for site in sites:
        key = (site.line, site.error_class, message_key(site))
        first = kept.setdefault(key, site)
        if first is not site:
            first.notes.extend(n for n in site.notes if n not in first.notes)
    return list(kept.values())


def disambiguate(sites: Sequence[ErrorSite]) -> None:
    """Where one file raises one message (or error code) at several sites, key each by its
    qualname (then order)."""
    by_message: dict[str, list[ErrorSite]] = {}
    for site in sites:
        by_message.setdefault(id_key(site.error_code, message_key(site)), []).append(site)
    for group in by_message.values():
        if len(group) < 2:
            continue
        seen: Counter[str] = Counter()
        for site in group:
            local = site.qualname
            seen[local] += 1
            site.disambiguator = local if seen[local] == 1 else f"{local}#{seen[local]}"
