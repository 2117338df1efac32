"""Second literals: a crowded anchor's entries are ruled out by one ``in`` before matching."""

from __future__ import annotations

from typing import Any

from errdex.match.index import SHARED_WORD_LIMIT, MatchIndex
from errdex.match.rank import Clue, rank

from .conftest import pattern_envelope

CROWD = SHARED_WORD_LIMIT + 24
#: Each template's distinct text touches a hole (no whole word) and is shorter than the
#: shared run: all are anchored by ``at position``, as the varied ``re`` errors are.
PATTERN = r"([\s\S]*?)Q{k} in ([\s\S]*?) at position ([\s\S]*?)"


def _index(extra: list[str] = []) -> MatchIndex:  # noqa: B006 (read only)
    patterns = [PATTERN.format(k=k) for k in range(CROWD)] + extra
    return MatchIndex.build(pattern_envelope(i, p) for i, p in enumerate(patterns))


def _without_seconds(index: MatchIndex) -> MatchIndex:
    data = dict(index._data)
    data["seconds"] = [0] * len(index)
    return MatchIndex(data, index._built())


def test_a_crowded_anchor_keeps_the_run_that_tells_its_entries_apart() -> None:
    index = _index()
    message = "fooQ7 in bar at position 3"
    candidates = index.by_message(message)
    assert len(candidates) == CROWD  # one anchor for all
    assert index.may_match(candidates, message) == [7]
    assert _without_seconds(index).may_match(candidates, message) == list(range(CROWD))
    seconds, offsets, blob = index._seconds, index._runs_offsets, index._runs_blob
    for i in range(CROWD):
        at, length = offsets[i] + (seconds[i] >> 8), seconds[i] & 255
        assert blob[at : at + length] == f"Q{i} in "


def test_answers_are_those_without_the_second_literals() -> None:
    index = _index()
    plain = _without_seconds(index)
    for message in ("fooQ7 in bar at position 3", "Q12 in x at position y", "at position 9"):
        got = rank([Clue("error", message, ())], index, top=5)
        want = rank([Clue("error", message, ())], plain, top=5)
        assert [(s.index, s.confidence, s.holes) for s in got] == [
            (s.index, s.confidence, s.holes) for s in want
        ]
        assert got or message == "at position 9"


def test_an_uncrowded_anchor_and_a_regex_keep_none(tmp_path: Any) -> None:
    few = MatchIndex.build(
        pattern_envelope(i, PATTERN.format(k=i)) for i in range(SHARED_WORD_LIMIT)
    )
    assert not any(few._seconds)
    # a pattern RE2 verifies (not made of literals and lazy holes) keeps none either
    index = _index([r"(\d+)Q99 in ([\s\S]*?) at position ([\s\S]*?)"])
    assert index._seconds[CROWD] == 0 and index.runs(CROWD) is None
    index.save(tmp_path / "idx")
    loaded = MatchIndex.load(tmp_path / "idx")
    assert loaded is not None and list(loaded._seconds) == list(index._seconds)
