"""Candidates RE2 would verify that the message's literal text already rules out.

Under a crowded anchor (``at position``: hundreds of templates at a million, most of them
verified by RE2 for their typed holes) a message passes the edges of many candidates whose
pattern holds a run of literal text the message lacks. :func:`.rank_verify.verify` rules
each of them out before RE2 (:func:`.literal_match.may_fullmatch`), but only after the
per-candidate work of getting there: on the slowest 1% of queries at 1M, most of the
verification time went to such candidates. :func:`may_fit` makes the same check first,
from each pattern's required text read once and kept, so a candidate it drops is one
``verify`` would have found not to fit: the answers stay the same.

A pattern is compiled (by ``verify``'s own cache) before its required text is kept, so a
pattern RE2 cannot read fails as it did; a pattern with line breaks at its edges, which
``verify`` reads with those breaks made optional, is left to ``verify``.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from errdex.match.literal_match import Required, may_fullmatch, required_runs
from errdex.match.rank_verify import _compiled as compiled  # verify's own cache
from errdex.match.rank_verify import verify

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex

__all__ = ["KEPT", "may_fit", "verify_known"]

#: Patterns whose required text is kept, at most (then the memo starts afresh): a million
#: templates held about 50,000 patterns RE2 verifies.
KEPT = 1 << 17
_BREAKS = ("\n", "\r")

#: Each pattern's required text (None: nothing to check here), read once.
_memo: dict[str, Required | None] = {}


def may_fit(index: MatchIndex, candidates: Sequence[int], message: str) -> list[int]:
    """``candidates``, in order, less those RE2 would verify whose required literal text
    ``message`` lacks (see the module docstring)."""
    memo, pattern_of = _memo, index.pattern
    out: list[int] = []
    for i in candidates:
        pattern = pattern_of(i)
        if pattern:  # else its literal runs decide, in verify
            required = memo[pattern] if pattern in memo else _keep(pattern)
            if required is not None and not may_fullmatch(required, message):
                continue
        out.append(i)
    return out


def verify_known(index: MatchIndex, entry: int, text: str) -> tuple[bool, list[str], int]:
    """:func:`.rank_verify.verify`, told no fit at once where :func:`may_fit` would drop
    the entry: a hole value tried against the templates it may render
    (:func:`.rank_nested.nested_literals`) meets the same crowded kin as the message."""
    pattern = index.pattern(entry)
    if pattern:
        required = _memo[pattern] if pattern in _memo else _keep(pattern)
        if required is not None and not may_fullmatch(required, text):
            return False, [], 0
    return verify(index, entry, text)


def _keep(pattern: str) -> Required | None:
    """What every full match of ``pattern`` holds; None: nothing to check here (``verify``
    reads a pattern with line breaks at its edges otherwise)."""
    required = None
    if not (pattern.startswith(_BREAKS) or pattern.endswith(_BREAKS)):
        compiled(pattern)  # first, as verify does: a pattern RE2 cannot read fails as before
        required = required_runs(pattern)
    if len(_memo) >= KEPT:
        _memo.clear()
    _memo[pattern] = required
    return required
