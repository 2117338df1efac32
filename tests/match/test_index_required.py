"""Candidates ruled out by their pattern's literal text before RE2
(:mod:`errdex.match.index_required`): never one that fits, and the same answers as
:func:`errdex.match.rank_verify.verify`."""

from __future__ import annotations

import pytest
import re2

from errdex.match.index import MatchIndex
from errdex.match.index_required import may_fit, verify_known
from errdex.match.rank_verify import verify

from .conftest import pattern_envelope

PATTERNS = [
    r"invalid group reference (-?[0-9]+) at position (-?[0-9]+)",
    r"invalid group reference (-?[0-9]+) at position (-?[0-9]+), pliljaba (.*?)",
    r"([\s\S]*?) at position (-?[0-9]+)(?: \(line (-?[0-9]+)\))?",
    r"([\s\S]*?) at position (-?[0-9]+) \(choxla (.*?)\)",
    "\n(.*?) at position (\\d+)\n",  # edge breaks: verify makes them optional
    r"(?i)AT POSITION (\d+)",  # its literals match more than themselves
]
MESSAGES = [
    "invalid group reference 3 at position 7",
    "invalid group reference 3 at position 7, pliljaba x",
    "invalid group reference 'content' at position 7",
    "bad escape at position 7 (line 2)",
    "bad escape at position 7 (choxla y)",
    "at position 7",
    "x at position 7 (choxla",
    "",
]


@pytest.fixture(scope="module")
def index() -> MatchIndex:
    return MatchIndex.build(pattern_envelope(i, p) for i, p in enumerate(PATTERNS))


def test_drops_only_what_verify_finds_unfit(index: MatchIndex) -> None:
    everyone = list(range(len(PATTERNS)))
    for message in MESSAGES:
        kept = may_fit(index, everyone, message)
        assert kept == sorted(kept)
        fits = [i for i in everyone if verify(index, i, message)[0]]
        assert set(fits) <= set(kept), message
        for i in everyone:
            assert verify_known(index, i, message) == verify(index, i, message), (i, message)


def test_drops_the_crowd_whose_text_the_message_lacks(index: MatchIndex) -> None:
    everyone = list(range(len(PATTERNS)))
    # 'pliljaba' and 'choxla' are not in it; the edge-break and (?i) patterns are left to verify
    assert may_fit(index, everyone, "invalid group reference 3 at position 7") == [0, 2, 4, 5]
    assert may_fit(index, everyone, "x at position 7 (choxla z)") == [2, 3, 4, 5]


def test_a_pattern_re2_cannot_read_fails_as_in_verify() -> None:
    bad = MatchIndex.build([pattern_envelope(0, r"(?<=a)b at position (\d+), zz")])
    with pytest.raises(re2.error):
        verify(bad, 0, "no such text")
    with pytest.raises(re2.error):
        may_fit(bad, [0], "no such text")
