"""The fuzzy pass (:mod:`errdex.match.rank_fuzzy`) passes over only candidates that could
not reach the cut-off: the bound it prunes by is never below ``fuzz.ratio``."""

from __future__ import annotations

import re

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


def _site(i: int, pattern: str, path: str) -> dict[str, object]:
    record = {
        "id": f"{i:016x}",
        "repo": "r",
        "filePath": path,
        "lineNumber": 10,
        "errorClass": "ValidationError",
        "messagePattern": pattern,
    }
    return {"record": record, "evidence": {}}


def test_a_frame_does_not_lift_a_message_only_similar_to_a_literal_to_certainty() -> None:
    """marshmallow's shape: the innermost frame at a site whose literal the message only
    resembles (another release's wording, or another site's) is a guess, not 0.98."""
    index = MatchIndex.build([_site(0, r"Not\ a\ valid\ email\ address\.", "pkg/fields.py")])
    clue = Clue("pkg.ValidationError", "Not a valid e-mail address!", (("pkg/fields.py", 10, "f"),))
    (best,) = rank([clue], index)
    assert any("similar to the template" in r for r in best.reasons)
    assert best.index == 0 and best.confidence < 0.9
    # the same frame with the message its template makes is certain
    exact = Clue("pkg.ValidationError", "Not a valid email address.", clue.frames)
    assert rank([exact], index)[0].confidence >= 0.9


_WORDS = st.lists(
    st.sampled_from(["not", "a", "valid", "url", "email", "path", "address"]),
    min_size=3,
    max_size=8,
)


@settings(max_examples=150, deadline=None)
@given(
    _WORDS, st.integers(0, 7), st.sampled_from(["url", "e-mail", "", "file path"]), st.booleans()
)
def test_no_site_found_by_resemblance_reaches_ninety(
    literal: list[str], at: int, word: str, framed: bool
) -> None:
    """A message one word off a site's literal (often similar enough for the fuzzy pass):
    whatever the frame says, the site it only resembles stays below 0.9."""
    pasted = [*literal]
    pasted[at % len(pasted)] = word
    text, message = " ".join(literal) + ".", " ".join(pasted) + "."
    index = MatchIndex.build([_site(0, re.escape(text), "pkg/a.py")])
    frames = (("pkg/a.py", 10, "f"),) if framed else ()
    for s in rank([Clue("pkg.ValidationError", message, frames)], index):
        if any("similar to the template" in r for r in s.reasons):
            assert message != text
            assert s.confidence < 0.9, s.reasons
