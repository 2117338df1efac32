"""first_entries keeps what sorting every posting's start kept, in the same order."""

from __future__ import annotations

import random
from array import array
from itertools import chain

from hypothesis import given
from hypothesis import strategies as st

from errdex.match.index_first import first_entries


def _sorted_starts(
    postings: list[int], offsets: list[int], keys: list[int], most: int, budget: int
) -> list[int]:
    """What ``MatchIndex.by_message(most=…)`` read before: every posting's first ``most``."""
    parts, count = [], 0
    for key in keys:
        start, end = offsets[key], offsets[key + 1]
        parts.append(postings[start : min(end, start + most)])
        count += end - start
        if count >= budget:
            break
    return sorted(chain.from_iterable(parts))[:most]


@given(
    st.lists(st.integers(0, 9), min_size=1, max_size=12),
    st.integers(0, 2000),
    st.integers(1, 40),
    st.integers(1, 400),
    st.randoms(use_true_random=False),
)
def test_first_entries_as_the_sorted_starts(
    owners: list[int], entries: int, most: int, budget: int, rng: random.Random
) -> None:
    slots = max(owners) + 1
    by_slot: list[list[int]] = [[] for _ in range(slots)]
    for entry in range(entries):  # each entry in one posting: postings share none
        by_slot[owners[entry % len(owners)] if entry % 3 else rng.randrange(slots)].append(entry)
    postings = array("q", chain.from_iterable(by_slot))
    offsets = [0]
    for posting in by_slot:
        offsets.append(offsets[-1] + len(posting))
    keys = list(range(slots))
    rng.shuffle(keys)
    assert first_entries(postings, offsets, keys, most, budget) == _sorted_starts(
        list(postings), offsets, keys, most, budget
    )
