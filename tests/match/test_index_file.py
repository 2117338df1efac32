"""The saved match index: data errdex did not write is never unpickled or executed."""

from __future__ import annotations

import json
import pickle
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from errdex.match import index_file
from errdex.match.api import index_path
from errdex.match.index import INDEX_FORMAT, MatchIndex
from errdex.store import SqliteStore
from errdex.web import create_app

from .conftest import build_catalogue, build_package, line_of

PAYLOAD = "open({marker!r}, 'w').write('ran')"


class _Planted:
    """Unpickling this writes the marker file: what an attacker would plant."""

    def __init__(self, marker: Path) -> None:
        self.marker = marker

    def __reduce__(self) -> tuple[object, tuple[str]]:
        return (exec, (PAYLOAD.format(marker=str(self.marker)),))


def plant(db: Path, marker: Path) -> None:
    """A malicious pickle in every file of the saved index (and in ``columns.pickle``), its
    ``meta.json`` left as errdex wrote it: for the store's version and the current format."""
    directory = index_path(db)
    blob = pickle.dumps(_Planted(marker))
    names = {"columns.pickle"} | {p.name for p in directory.iterdir() if p.name != "meta.json"}
    for name in names:
        (directory / name).write_bytes(blob)
    meta = json.loads((directory / "meta.json").read_text())
    assert meta["format"] == INDEX_FORMAT


@pytest.fixture
def planted(tmp_path: Path) -> tuple[Path, Path]:
    db = build_catalogue(tmp_path)
    marker = tmp_path / "marker"
    with SqliteStore(db) as store:
        MatchIndex.build(store.iter_envelopes(), version=store.data_version()).save(index_path(db))
    plant(db, marker)
    return db, marker


def test_cli_match_never_runs_a_planted_pickle(planted: tuple[Path, Path]) -> None:
    db, marker = planted
    paste = "ValueError: weight must be non-negative, got -2"
    done = subprocess.run(
        [sys.executable, "-m", "errdex.cli", "match", "--db", str(db), "--json", paste],
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert not marker.exists(), "the planted pickle ran"
    assert done.returncode == 0, done.stderr
    found = json.loads(done.stdout)
    assert found[0]["lineNumber"] == line_of("weight must be non-negative")  # rebuilt
    assert MatchIndex.load(index_path(db)) is not None  # and saved again, loadable


def test_web_api_match_never_runs_a_planted_pickle(planted: tuple[Path, Path]) -> None:
    db, marker = planted
    with TestClient(create_app(db, poll_seconds=0.2)) as client:
        paste = "ValueError: weight must be non-negative, got 1"
        response = client.post("/api/match", json={"text": paste})
    assert not marker.exists(), "the planted pickle ran"
    assert response.status_code == 200
    assert response.json()[0]["lineNumber"] == line_of("weight must be non-negative")


def test_load_refuses_every_planted_file(planted: tuple[Path, Path]) -> None:
    db, marker = planted
    assert MatchIndex.load(index_path(db)) is None
    assert not marker.exists()


def test_a_saved_automaton_is_used_only_with_this_users_key(
    catalogue: Path, tmp_path: Path, own_cache: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    with SqliteStore(catalogue) as store:
        index = MatchIndex.build(store.iter_envelopes(), version=store.data_version())
    target = tmp_path / "idx"
    index.save(target)
    state = (target / "automaton.bin").read_bytes()
    key = own_cache / "errdex" / "index.key"
    assert key.stat().st_mode & 0o077 == 0  # the key is the user's alone
    message = "Node 1 is not in the graph."
    expected = index.by_message(message)
    with monkeypatch.context() as patch:  # with the key intact, the saved state is used

        def no_rebuild(anchors: list[str]) -> None:
            raise AssertionError("rebuilt although the MAC verifies")

        patch.setattr(index_file, "_automaton", no_rebuild)
        loaded = MatchIndex.load(target)
        assert loaded is not None and loaded.by_message(message) == expected
    # the state tampered with: its MAC fails, the automaton is rebuilt from the anchors
    (target / "automaton.bin").write_bytes(bytes(len(state)))
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.by_message(message) == expected
    # an index written with another user's key: the same
    (target / "automaton.bin").write_bytes(state)
    key.write_bytes(b"k" * 32)
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.by_message(message) == expected
    # no key at all (a read-only home): still loads, rebuilt
    key.unlink()
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.by_message(message) == expected


def _match_in_a_child(db: Path, paste: str) -> subprocess.CompletedProcess[str]:
    """``errdex match`` in its own process: a crash of the C automaton must not take
    pytest down with it."""
    return subprocess.run(
        [sys.executable, "-m", "errdex.cli", "match", "--db", str(db), "--json", "-"],
        input=paste,
        capture_output=True,
        text=True,
        timeout=300,
    )


def test_a_catalogue_with_no_anchor_saves_and_matches(tmp_path: Path) -> None:
    # no literal run of three characters anywhere: the automaton is empty, its state is ()
    db = build_package(tmp_path, "holes", {"m.py": "def f(x):\n    raise ValueError(x)\n"})
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/holes/m.py", line 2, in f\n'
        "    raise ValueError(x)\n"
        "ValueError: ok\n"
    )
    done = _match_in_a_child(db, paste)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)[0]["filePath"].endswith("holes/m.py")
    assert MatchIndex.load(index_path(db)) is not None


def test_a_message_literal_of_half_a_megabyte_saves_and_matches(tmp_path: Path) -> None:
    # its whole literal run became one anchor: a trie that deep overflowed the C stack
    # when the automaton's state was saved (exit -11)
    literal = "(" * 500_000
    code = f"def f():\n    raise ValueError('{literal}')\n"
    db = build_package(tmp_path, "deep", {"m.py": code})
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/venv/lib/python3.11/site-packages/deep/m.py", line 2, in f\n'
        f"ValueError: {literal}\n"
    )
    done = _match_in_a_child(db, paste)
    assert done.returncode == 0, (done.returncode, done.stderr[-2000:])
    assert json.loads(done.stdout)[0]["filePath"].endswith("deep/m.py")
    assert MatchIndex.load(index_path(db)) is not None


def _saved(catalogue: Path, target: Path) -> MatchIndex:
    with SqliteStore(catalogue) as store:
        index = MatchIndex.build(store.iter_envelopes(), version=store.data_version())
    index.save(target)
    return index


def test_a_loaded_index_is_views_of_its_files_not_objects_per_entry(
    catalogue: Path, tmp_path: Path
) -> None:
    """Loading builds no Python object per entry: the integer columns are views of the
    file's bytes and the text columns one string each, so a fresh process (errdex's
    excepthook) reads 100k records in milliseconds."""
    index = _saved(catalogue, tmp_path / "idx")
    data, _automaton = index_file.read_index(tmp_path / "idx")
    for name in ("repos", "paths", "lines", "classes", "postings", "posting_offsets"):
        assert isinstance(data[name], memoryview), name
    assert isinstance(data["ids"], str) and isinstance(data["runs_blob"], str)
    assert isinstance(data["by_path"], index_file.Groups)
    loaded = MatchIndex(data, _automaton)
    assert [loaded.entry(i) for i in range(len(loaded))] == [
        index.entry(i) for i in range(len(index))
    ]
    frame = "/venv/lib/python3.11/site-packages/tinygraph/graph.py"
    assert loaded.by_frame(frame, 30) == index.by_frame(frame, 30)
    assert loaded.by_empty_message("NetworkXError") == index.by_empty_message("NetworkXError")


def _column(directory: Path, name: str) -> tuple[int, int]:
    meta = json.loads((directory / "meta.json").read_text())
    (row,) = [row for row in meta["arrays"] if row[0] == name]
    return row[4], row[2]


def test_a_column_out_of_range_is_refused_unless_this_users_errdex_wrote_it(
    catalogue: Path, tmp_path: Path
) -> None:
    """Values are range-checked one by one only when the MAC does not verify: a column
    changed by anyone without this user's key fails the MAC, and its bad value is found."""
    target = tmp_path / "idx"
    _saved(catalogue, target)
    at, size = _column(target, "paths")
    blob = bytearray((target / "arrays.bin").read_bytes())
    blob[at : at + size] = (2**31).to_bytes(size, "little")  # no such string
    (target / "arrays.bin").write_bytes(bytes(blob))
    with pytest.raises(index_file.BadIndex, match="string that is not there"):
        index_file.read_index(target)
    assert MatchIndex.load(target) is None


def test_a_prefetched_index_is_the_one_read_and_a_replaced_one_is_read_again(
    catalogue: Path, tmp_path: Path
) -> None:
    target = tmp_path / "idx"
    index = _saved(catalogue, target)
    index_file.prefetch(target)
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.by_message("Node 1 is not in the graph.") == (
        index.by_message("Node 1 is not in the graph.")
    )
    # read ahead, then replaced by a newer index before it is loaded: the newer one wins
    index_file.prefetch(target)
    with SqliteStore(catalogue) as store:
        newer = MatchIndex.build(store.iter_envelopes(), version=store.data_version() + 7)
    newer.save(target)
    loaded = MatchIndex.load(target)
    assert loaded is not None and loaded.version == newer.version
    index_file.prefetch(tmp_path / "nothing here")  # no index: nothing started, no error
    assert MatchIndex.load(tmp_path / "nothing here") is None


def test_an_index_read_for_one_answer_defers_its_automaton(
    catalogue: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Read for one answer (errdex's excepthook), a trusted index's automaton is not built
    for a short message: each anchor is tried against it, finding exactly what the
    automaton finds. A message too long for that builds it from the saved state, whose
    own MAC is checked then; a state changed meanwhile is not used (rebuilt from anchors)."""
    target = tmp_path / "idx"
    index = _saved(catalogue, target)
    messages = ["Node 1 is not in the graph.", "weight must be non-negative, got -2", "no"]

    def deferred_load() -> MatchIndex:
        index_file.prefetch(target, one_answer=True)
        loaded = MatchIndex.load(target)
        assert loaded is not None and isinstance(loaded._automaton, index_file.Deferred)
        return loaded

    loaded = deferred_load()
    with monkeypatch.context() as patch:

        def no_build(*args: object) -> None:
            raise AssertionError("built for a short message")

        patch.setattr(index_file, "_saved_automaton", no_build)
        patch.setattr(index_file, "_automaton", no_build)
        for message in messages:
            assert loaded.by_message(message) == index.by_message(message), message
    monkeypatch.setattr(index_file, "SCAN_BUDGET", 1)  # every message is "long" now
    loaded = deferred_load()
    assert loaded.by_message(messages[0]) == index.by_message(messages[0])
    assert not isinstance(loaded._automaton, index_file.Deferred)  # built, from its state
    loaded = deferred_load()
    state = (target / "automaton.bin").read_bytes()
    (target / "automaton.bin").write_bytes(bytes(len(state)))  # after the columns were read
    assert loaded.by_message(messages[1]) == index.by_message(messages[1])


@pytest.mark.parametrize(
    "items",
    [[], [""], ["a"], ["", ""], ["Lib/json/decoder.py", "", "x"], ["a\x1fb", ""], ["\x1f"]],
)
def test_a_list_region_reads_back_whatever_its_items_hold(items: list[str]) -> None:
    """Lists (interned strings, map keys, anchors) are joined by a separator and split in
    one call; an item that holds the separator (an observed message might) is still read
    back by the offsets."""
    from errdex.match.index_write import _joined

    text, chars = _joined(items)
    assert index_file._split(text, memoryview(bytes(chars)).cast("Q")) == items
