"""The first entries of several postings together: :meth:`.MatchIndex.by_message`'s
``most``, read without sorting every posting's start.

``rank_nested._inner_fit`` asks, per hole value, for the first 64 entries of all the
postings whose anchor the value holds: 7 to 30 postings at a million templates, each
read up to 64 entries, then all of them sorted to keep 64 (a third of the inner fit's
time on the slowest 1%). Postings are in entry order and share no entry, so an entry
past the 64th kept so far can only be dropped again: each posting is read only below
the largest entry kept (one bisection), and merged into what is kept. The entries are
those the sort of every start gave, in the same order.
"""

from __future__ import annotations

from bisect import bisect_left
from collections.abc import Iterable, Sequence

__all__ = ["first_entries"]


def first_entries(
    postings: Sequence[int], offsets: Sequence[int], keys: Iterable[int], most: int, budget: int
) -> list[int]:
    """The ``most`` least entries of the postings of ``keys`` (slots, in the order read),
    each posting ``postings[offsets[key]:offsets[key + 1]]`` ascending; reading stops once
    the postings read hold ``budget`` entries, counting every entry of each."""
    kept: list[int] = []
    count = 0
    for key in keys:
        start, end = offsets[key], offsets[key + 1]
        count += end - start
        stop = min(end, start + most)
        if len(kept) >= most:
            stop = bisect_left(postings, kept[-1], start, stop)  # past it: dropped again
        if stop > start:
            kept.extend(postings[start:stop])
            kept.sort()
            del kept[most:]
        if count >= budget:
            break
    return kept
