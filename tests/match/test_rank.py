"""Ranking on a real catalogue: frames pick the site, ties share confidence, classes must agree."""

from __future__ import annotations

from pathlib import Path

from errdex.match.index import MatchIndex
from errdex.match.rank import Clue, class_agreement, rank

from .conftest import envelopes, line_of

FILE = "/venv/lib/python3.11/site-packages/tinygraph/graph.py"


def index_of(db: Path) -> MatchIndex:
    return MatchIndex.build(envelopes(db))


def lines(index: MatchIndex, ranked: list) -> list[int]:  # type: ignore[type-arg]
    return [index.entry(s.index).line for s in ranked]


def test_same_message_at_three_sites_shares_confidence(catalogue: Path) -> None:
    index = index_of(catalogue)
    ranked = rank([Clue("NodeNotFound", "Node 7 is not in the graph.", ())], index)
    assert len(ranked) == 3
    assert all(s.holes == {"0": "7"} for s in ranked)
    assert all(s.confidence < 0.5 for s in ranked)
    assert any("2 other site(s)" in r for r in ranked[0].reasons)


def test_innermost_frame_picks_the_site_with_high_confidence(catalogue: Path) -> None:
    index = index_of(catalogue)
    raise_line = line_of('raise NodeNotFound(f"Node {v}')
    frames = (("app.py", 3, "<module>"), (FILE, raise_line, "add_edge"))
    ranked = rank(
        [Clue("tinygraph.graph.NodeNotFound", "Node 7 is not in the graph.", frames)], index
    )
    assert lines(index, ranked)[0] == raise_line
    assert ranked[0].confidence >= 0.9
    assert any("innermost frame" in r for r in ranked[0].reasons)


def test_a_frame_a_few_lines_off_still_counts_when_code_moved(catalogue: Path) -> None:
    index = index_of(catalogue)
    raise_line = line_of("weight must be non-negative")
    frames = ((FILE, raise_line + 3, "add_edge"),)
    ranked = rank([Clue("ValueError", "weight must be non-negative, got -1", frames)], index)
    assert lines(index, ranked)[0] == raise_line


def test_class_must_agree(catalogue: Path) -> None:
    index = index_of(catalogue)
    right = rank([Clue("ValueError", "weight must be non-negative, got -1", ())], index)
    wrong = rank([Clue("KeyError", "weight must be non-negative, got -1", ())], index)
    assert right[0].confidence >= 0.9
    assert wrong == []  # no site raises KeyError with this message: no candidate at all
    assert class_agreement("builtins.LookupError", "KeyError")[0] == 0.6


def test_specific_template_beats_generic_and_empty_message_finds_bare_raise(
    catalogue: Path,
) -> None:
    index = index_of(catalogue)
    ranked = rank([Clue("ValueError", "bfs is not a valid choice for an algorithm.", ())], index)
    assert sorted(lines(index, ranked)) == [
        line_of("{method} is not"),
        line_of("{algorithm} is not"),
    ]
    bare = rank([Clue("tinygraph.graph.NetworkXError", "", ())], index)
    assert lines(index, bare) == [line_of("    raise NetworkXError")]


def test_drifted_message_is_found_fuzzily(catalogue: Path) -> None:
    index = index_of(catalogue)
    ranked = rank([Clue("ValueError", "weight must be non-negative!, got -1 (was 2)", ())], index)
    assert lines(index, ranked)[0] == line_of("weight must be non-negative")
    assert ranked[0].confidence < 0.6
    assert any("similar" in r for r in ranked[0].reasons)


def test_nothing_matches_unrelated_text(catalogue: Path) -> None:
    assert rank([Clue("OSError", "disk full", ())], index_of(catalogue)) == []
