"""Releases in the store, on both backends: the newest release stays current whatever the
scan order, each version keeps its source window, one release's records come in one page,
and where each repository's source lives is kept for ``errdex analyze``."""

from __future__ import annotations

import sqlite3
from dataclasses import replace
from typing import Any

import psycopg
import pytest

from errdex.store import NotedSource, ScanSummary, open_store

from .factories import make_record, make_summary

REPO = "acme/widgets"


def release(version: str, *, kind: str = "tag") -> ScanSummary:
    """A package scan of release ``version``, pinned to its tag."""
    return replace(
        make_summary(commit=None),
        ref=f"v{version}",
        ref_kind=kind,  # type: ignore[arg-type]
        origin="package",
        version=version,
    )


def both(version: str, kept_line: int, extra: str) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    """A release's records: one kept across releases (at ``kept_line``), one of its own."""
    kept = make_record(message="kept {name}", line=kept_line, sha=None)
    own = make_record(message=f"{extra} {{name}}", line=90, sha=None)
    return [(kept, {"release": version}), (own, {"release": version})]


@pytest.mark.parametrize("order", ["old-then-new", "new-then-old"])
def test_the_newest_release_is_current_whatever_the_scan_order(db: str, order: str) -> None:
    old = ("1.9.0", both("1.9.0", 10, "only in old"))
    new = ("1.10.0", both("1.10.0", 30, "only in new"))  # 1.10 > 1.9 by PEP 440, not by text
    scans = [old, new] if order == "old-then-new" else [new, old]
    with open_store(db) as store:
        ids = {version: store.write_scan(release(version), items, "d") for version, items in scans}
        current = {e["record"]["errorMessage"]: e for e in store.iter_envelopes(REPO)}
        assert set(current) == {"kept {name}", "only in new {name}"}
        kept = current["kept {name}"]
        assert kept["record"]["lineNumber"] == 30 and kept["evidence"] == {"release": "1.10.0"}
        everything = {
            e["record"]["errorMessage"]: e for e in store.iter_envelopes(REPO, include_stale=True)
        }
        gone = everything["only in old {name}"]["record"]["id"]
        gone_status = store.status(gone)
        assert gone_status is not None and gone_status["stale"]
        kept_status = store.status(kept["record"]["id"])
        assert kept_status is not None and not kept_status["stale"]
        places = {v["scanId"]: v["lineNumber"] for v in kept_status["versions"]}
        assert places == {ids["1.9.0"]: 10, ids["1.10.0"]: 30}


def test_a_commit_scan_after_a_release_still_wins(db: str) -> None:
    """A scan without a release (a work tree at a commit) is never called older."""
    with open_store(db) as store:
        store.write_scan(release("2.0"), both("2.0", 30, "only in two"), "d")
        store.write_scan(make_summary(), both("main", 50, "only in main"), "d")
        current = {e["record"]["errorMessage"] for e in store.iter_envelopes(REPO)}
    assert current == {"kept {name}", "only in main {name}"}


def test_each_version_keeps_its_source_window(db: str) -> None:
    with open_store(db) as store:
        new = store.write_scan(release("2.0"), both("2.0", 30, "x"), "d")
        old = store.write_scan(release("1.0"), both("1.0", 10, "x"), "d")
        kept = make_record(message="kept {name}", line=10, sha=None)
        windows = store.version_windows(kept["id"])
    old_record = make_record(message="kept {name}", line=10, sha=None)
    new_record = make_record(message="kept {name}", line=30, sha=None)
    assert windows == {
        old: (old_record["sourceCode"], old_record["sourceCodeStart"]),
        new: (new_record["sourceCode"], new_record["sourceCodeStart"]),
    }
    assert windows[old] != windows[new]


def test_release_rows_are_one_release_in_file_order_with_the_stale_flag(db: str) -> None:
    with open_store(db) as store:
        store.write_scan(release("1.0"), both("1.0", 10, "only in old"), "d")
        store.write_scan(release("2.0"), both("2.0", 30, "only in new"), "d")
        rows = store.release_rows(REPO, ["v1.0"], 10, 0)
        assert [(r["errorMessage"], r["lineNumber"], r["stale"]) for r in rows] == [
            ("kept {name}", 10, False),
            ("only in old {name}", 90, True),
        ]
        assert rows[0]["slug"] == "kept-name" and rows[0]["errorClass"] == "ValueError"
        assert [r["lineNumber"] for r in store.release_rows(REPO, ["v1.0"], 1, 1)] == [90]
        assert store.release_rows(REPO, ["v1.0"], 10, 2) == []
        assert store.release_rows(REPO, ["v9"], 10, 0) == []
        assert [r["lineNumber"] for r in store.release_rows(REPO, ["v2.0"], 10, 0)] == [30, 90]


def test_the_noted_source_is_the_current_releases(db: str) -> None:
    with open_store(db) as store:
        assert store.noted_source(REPO) is None
        new = store.write_scan(release("2.0"), both("2.0", 30, "x"), "d")
        store.note_source(REPO, new, NotedSource('{"root": "/new"}', ["src/*"], []))
        old = store.write_scan(release("1.0"), both("1.0", 10, "x"), "d")
        store.note_source(REPO, old, NotedSource('{"root": "/old"}', [], []))
        assert store.noted_source(REPO) == NotedSource('{"root": "/new"}', ["src/*"], [])
        newer = store.write_scan(release("2.1"), both("2.1", 31, "x"), "d")
        store.note_source(REPO, newer, NotedSource('{"root": "/newer"}', [], ["tests/*"]))
        assert store.noted_source(REPO) == NotedSource('{"root": "/newer"}', [], ["tests/*"])
    with open_store(db) as store:  # kept in the catalogue itself
        assert store.noted_source(REPO) == NotedSource('{"root": "/newer"}', [], ["tests/*"])


def _downgrade_sqlite(path: str) -> None:
    """Turn a new file into what layout 1 was (no windows, maybe a sources table)."""
    conn = sqlite3.connect(path)
    conn.execute("ALTER TABLE record_versions DROP COLUMN source_code")
    conn.execute("ALTER TABLE record_versions DROP COLUMN source_start")
    conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()


def _downgrade_postgres(url: str) -> None:
    with psycopg.connect(url, autocommit=True) as conn:
        conn.execute("ALTER TABLE record_versions DROP COLUMN source_code")
        conn.execute("ALTER TABLE record_versions DROP COLUMN source_start")
        conn.execute("DROP TABLE analysis_sources")
        conn.execute("UPDATE meta SET value = '1' WHERE key = 'schema_version'")


def test_a_layout_1_catalogue_is_upgraded_and_keeps_its_records(db: str) -> None:
    record = make_record()
    with open_store(db) as store:
        first = store.write_scan(make_summary(), [(record, {})], "d")
        store.note_source(REPO, first, NotedSource("{}", [], []))
    if db.startswith("postgresql://"):
        _downgrade_postgres(db)
    else:
        _downgrade_sqlite(db)
    with open_store(db) as store:
        assert store.version_windows(record["id"]) == {}  # written before windows were kept
        got = store.get(record["id"])
        assert got is not None and got["record"] == record
        second = store.write_scan(make_summary(commit="b" * 40), [(record, {})], "d")
        assert store.version_windows(record["id"]) == {
            second: (record["sourceCode"], record["sourceCodeStart"])
        }
        store.note_source(REPO, second, NotedSource('{"root": "/x"}', [], []))
        assert store.noted_source(REPO) == NotedSource('{"root": "/x"}', [], [])
