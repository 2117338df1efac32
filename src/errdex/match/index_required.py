"""Candidates RE2 would verify that the message's literal text already rules out.

Under a crowded anchor (``at position``: hundreds of templates at a million, most of them
verified by RE2 for their typed holes) a message passes the edges of many candidates whose
pattern holds a run of literal text the message lacks. :func:`.rank_verify.verify` rules
each of them out before RE2 (:func:`.literal_match.may_fullmatch`), but only after the
per-candidate work of getting there: on the slowest 1% of queries at 1M, most of the
verification time went to such candidates. :func:`may_fit` makes the same check first,
from each entry's required text read once and kept, so a candidate it drops is one
``verify`` would have found not to fit: the answers stay the same.

A pattern is compiled (by ``verify``'s own cache) before its required text is kept, so a
pattern RE2 cannot read fails as it did; a pattern with line breaks at its edges, which
``verify`` reads with those breaks made optional, is left to ``verify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from errdex.match.literal_match import Required, may_fullmatch, required_runs
from errdex.match.rank_verify import _compiled as compiled  # verify's own cache
from errdex.match.rank_verify import verify

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex

__all__ = ["KEPT", "may_fit", "verify_known"]

#: Entries whose required text is kept per index, at most (then the memo starts afresh).
KEPT = 1 << 17
_BREAKS = ("\n", "\r")

_memos: WeakKeyDictionary[MatchIndex, dict[int, Required | None]] = WeakKeyDictionary()


def may_fit(index: MatchIndex, candidates: Sequence[int], message: str) -> list[int]:
    """``candidates``, in order, less those RE2 would verify whose required literal text
    ``message`` lacks (see the module docstring)."""
    memo = _memo(index)
    out: list[int] = []
    for i in candidates:
        try:
            required = memo[i]
        except KeyError:  # first seen: read once and kept
            required = _keep(index, memo, i)
        if required is None or may_fullmatch(required, message):
            out.append(i)
    return out


def verify_known(index: MatchIndex, entry: int, text: str) -> tuple[bool, list[str], int]:
    """:func:`.rank_verify.verify`, told no fit at once where :func:`may_fit` would drop
    the entry: a hole value tried against the templates it may render
    (:func:`.rank_nested.nested_literals`) meets the same crowded kin as the message."""
    memo = _memo(index)
    try:
        required = memo[entry]
    except KeyError:
        required = _keep(index, memo, entry)
    if required is not None and not may_fullmatch(required, text):
        return False, [], 0
    return verify(index, entry, text)


def _memo(index: MatchIndex) -> dict[int, Required | None]:
    memo = _memos.get(index)
    if memo is None:
        memo = _memos[index] = {}
    return memo


def _keep(index: MatchIndex, memo: dict[int, Required | None], entry: int) -> Required | None:
    if len(memo) >= KEPT:
        memo.clear()
    required = memo[entry] = _required(index, entry)
    return required


def _required(index: MatchIndex, entry: int) -> Required | None:
    """What every full match of the entry's pattern holds; None: nothing to check here
    (its literal runs decide, or ``verify`` reads the pattern otherwise)."""
    pattern = index.pattern(entry)
    if not pattern or pattern.startswith(_BREAKS) or pattern.endswith(_BREAKS):
        return None
    compiled(pattern)  # first, as verify does: a pattern RE2 cannot read fails as before
    return required_runs(pattern)
