from __future__ import annotations

from pathlib import Path

from errdex.build.manifest import Manifest


def test_outcomes_survive_a_restart_and_a_torn_last_line(tmp_path: Path) -> None:
    part = tmp_path / "a.sqlite"
    part.write_bytes(b"")
    path = tmp_path / "manifest.jsonl"
    first = Manifest(path)
    first.record({"spec": "a", "status": "done", "part": str(part)})
    first.record({"spec": "b", "status": "failed", "cause": "fetch"})
    first.record({"spec": "a", "merged": 7})
    with path.open("a", encoding="utf-8") as handle:
        handle.write('{"spec": "c", "stat')  # killed mid-write
    again = Manifest(path)
    assert again.unreadable == 1
    assert again.done() == {"a"}
    assert again.outcomes["a"]["merged"] == 7
    assert again.unmerged(["a", "b"]) == []


def test_a_new_attempt_replaces_the_old_outcome_and_its_merge_note(tmp_path: Path) -> None:
    part = tmp_path / "a.sqlite"
    part.write_bytes(b"")
    manifest = Manifest(tmp_path / "m.jsonl")
    manifest.record({"spec": "a", "status": "done", "part": str(part)})
    manifest.record({"spec": "a", "merged": 1})
    manifest.record({"spec": "a", "status": "done", "part": str(part), "records": 3})
    assert [o["records"] for o in manifest.unmerged(["a"])] == [3]


def test_a_built_part_that_was_deleted_is_built_again(tmp_path: Path) -> None:
    manifest = Manifest(tmp_path / "m.jsonl")
    manifest.record({"spec": "a", "status": "done", "part": str(tmp_path / "gone.sqlite")})
    assert manifest.done() == set()
