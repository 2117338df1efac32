"""The match index: built from a real store, saved and loaded, looked up by message and frame."""

from __future__ import annotations

from pathlib import Path

from errdex.match.index import MatchIndex, runs_from_pattern, trim_edges
from errdex.store import SqliteStore

from .conftest import envelopes, line_of, pattern_envelope


def test_lookups_by_message_frame_and_empty_class(catalogue: Path) -> None:
    index = MatchIndex.build(envelopes(catalogue))
    assert len(index) == 7
    hits = {index.entry(i).line for i in index.by_message("Node 7 is not in the graph.")}
    assert hits == {
        line_of('raise NodeNotFound(f"Node {u}'),
        line_of('raise NodeNotFound(f"Node {v}'),
        line_of("Node {source}"),
    }
    assert index.by_message("nothing in common here") == []
    # a frame path printed by an installed copy finds the src/ layout file
    raise_line = line_of("weight must be non-negative")
    near = index.by_frame("/venv/lib/python3.11/site-packages/tinygraph/graph.py", raise_line)
    assert near[0] == (near[0][0], 0) and index.entry(near[0][0]).line == raise_line
    assert index.by_frame("/elsewhere/other.py", 3) == []
    empty = index.by_empty_message("NetworkXError")
    assert [index.entry(i).line for i in empty] == [line_of("    raise NetworkXError")]


def test_save_and_load_roundtrip(catalogue: Path, tmp_path: Path) -> None:
    with SqliteStore(catalogue) as store:
        index = MatchIndex.build(store.iter_envelopes(), version=store.data_version())
    target = tmp_path / "idx"
    index.save(target)
    index.save(target)  # replacing an existing index works
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.version == index.version
    assert [loaded.entry(i) for i in range(len(loaded))] == [
        index.entry(i) for i in range(len(index))
    ]
    assert loaded.by_message("Node 1 is not in the graph.") == index.by_message(
        "Node 1 is not in the graph."
    )
    for name in ("arrays.bin", "texts.json", "meta.json"):
        saved = (target / name).read_bytes()
        (target / name).write_bytes(b"garbage")
        assert MatchIndex.load(target) is None, name
        (target / name).write_bytes(saved[: len(saved) // 2])
        assert MatchIndex.load(target) is None, name
        (target / name).write_bytes(saved)
    assert MatchIndex.load(target) is not None
    assert MatchIndex.load(tmp_path / "missing") is None


def test_runs_from_foreign_patterns() -> None:
    assert runs_from_pattern(r"Node ([\s\S]*?) is not in the graph\.") == (
        "Node ",
        " is not in the graph.",
    )
    assert runs_from_pattern("^$") == ("",)
    assert runs_from_pattern(r"bad (\d+) value") is None  # not errdex's shape: RE2 verifies it


def test_trim_edges_drops_only_the_line_breaks_around_the_whole_message() -> None:
    """Spaces stay: a hole's value may end the message with one, and it must come back
    (test_api's rendered-template property found ``got {weight!r}`` with ``' '``)."""
    assert trim_edges(("\n  head ", " mid ", " tail\n\n")) == ("  head ", " mid ", " tail")
    assert trim_edges((" alone\n",)) == (" alone",)
    assert trim_edges(("\r\nboth\r\n",)) == ("both",)
    assert trim_edges(("", "")) == ("", "")


def test_the_first_candidates_of_a_message_are_those_of_all_of_them(tmp_path: Path) -> None:
    """``by_message(…, most=k)`` reads the start of each posting, not all of it sorted: the
    same first ``k``, from several crowded anchors (65 to 135 entries each, interleaved), and
    from a saved index as from a built one."""

    texts = [  # interleaved: each anchor's entries spread over the whole index
        r"([\s\S]*?) at position ([\s\S]*?)",
        r"bad escape ([\s\S]*?)",
        r"missing ([\s\S]*?), unterminated ([\s\S]*?)",
        r"unknown ([\s\S]*?) flag ([\s\S]*?)",
    ]
    patterns = [texts[i % 4] if i < 260 else texts[i % 2] for i in range(400)]
    built = MatchIndex.build(
        pattern_envelope(i, p, "ValueError", f"pkg/m{i % 7}.py") for i, p in enumerate(patterns)
    )
    built.save(tmp_path / "index")
    loaded = MatchIndex.load(tmp_path / "index")
    assert loaded is not None
    messages = [
        "bad escape \\q at position 3",
        "missing ), unterminated flag at position 7",
        "unknown x flag y",
        "bad escape missing ), unterminated unknown z flag",
        "nothing at all",
    ]
    for index in (built, loaded):
        for message in messages:
            every = index.by_message(message)
            for most in (1, 5, 64):
                assert index.by_message(message, most=most) == every[:most], message
    assert max(len(built.by_message(m)) for m in messages) > 64  # a crowded anchor's


def test_literal_bounds_count_the_runs_less_the_holes_between_them() -> None:
    """An inner fit is tried only where a template's literal characters could beat the best:
    the separators between its runs are no literal characters."""
    template = [{"literal": "ab"}, {"hole": "{x}"}, {"literal": "cd"}, {"hole": "{y}"}]
    envelope = pattern_envelope(0, "ab(.*?)cd(.*?)")
    envelope["evidence"]["site"]["template"] = template
    index = MatchIndex.build([envelope, pattern_envelope(1, "(?:x|y)+")])
    assert index.runs(0) == ("ab", "cd", "")
    assert index.literal_bounds([0, 1], 50) == [4, 50]
    assert index.literal_bounds([0], 3) == [3]
