"""The fuzzy pass (:mod:`errdex.match.rank_fuzzy`) passes over only candidates that could
not reach the cut-off: the bound it prunes by is never below ``fuzz.ratio``."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from rapidfuzz import fuzz

from errdex.match.index import MatchIndex
from errdex.match.rank import Clue, rank
from errdex.match.rank_fuzzy import FUZZY_MIN, similarity_bound
from errdex.template import HOLE_REGEX

_TEXT = st.text(alphabet="abc de_:'", max_size=40)


@settings(max_examples=400, deadline=None)
@given(_TEXT, _TEXT)
def test_the_bound_is_never_below_the_ratio(message: str, literal: str) -> None:
    assert fuzz.ratio(message, literal) <= similarity_bound(len(message), len(literal)) + 1e-9


def test_short_literals_are_passed_over_only_when_they_cannot_reach_the_cut_off() -> None:
    message = "x" * 100
    shortest = FUZZY_MIN * len(message) / (200 - FUZZY_MIN)
    assert similarity_bound(len(message), int(shortest)) < FUZZY_MIN
    assert similarity_bound(len(message), int(shortest) + 1) >= FUZZY_MIN


def _envelope(i: int, pattern: str) -> dict[str, object]:
    record = {
        "id": f"{i:016x}",
        "repo": "r",
        "filePath": f"m{i}.py",
        "lineNumber": 3,
        "errorClass": "ValueError",
        "messagePattern": pattern,
    }
    return {"record": record, "evidence": {}}


def test_a_drifted_message_is_still_found_by_similarity() -> None:
    index = MatchIndex.build(
        [
            _envelope(0, f"cannot convert {HOLE_REGEX} to a graph node"),
            _envelope(1, "cannot"),  # shares the anchor, far too short to be similar
        ]
    )
    ranked = rank([Clue("ValueError", "cannot convert 'x' into a graph node", ())], index)
    assert [s.index for s in ranked] == [0]
    assert any("similar to the template" in r for r in ranked[0].reasons)
