"""SqliteStore on real files: roundtrip, upsert across commits, stats, refusing foreign files."""

from __future__ import annotations

import sqlite3
from pathlib import Path
from typing import Any

import pytest

from errdex.store import (
    LAYOUT_VERSION,
    SqliteStore,
    StoreError,
    open_store,
)

from .factories import make_record, make_summary

DV1 = "2026-01-02T03:05:00.000Z"
DV2 = "2026-02-02T03:05:00.000Z"
DV3 = "2026-03-02T03:05:00.000Z"


def pairs(*records: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(r, {"guards": [], "function": "spin", "line": r["lineNumber"]}) for r in records]


def ids(store: SqliteStore, **kwargs: Any) -> list[str]:
    return [env["record"]["id"] for env in store.iter_envelopes(**kwargs)]


# -- roundtrip --------------------------------------------------------------------------


def test_file_is_in_wal_mode_with_layout_version(tmp_path: Path) -> None:
    db = tmp_path / "sub" / "dir" / "errdex.db"  # missing parents are created
    SqliteStore(db).close()
    conn = sqlite3.connect(db)
    try:
        assert conn.execute("PRAGMA journal_mode").fetchone()[0] == "wal"
        meta = dict(conn.execute("SELECT key, value FROM meta").fetchall())
        assert meta == {"application": "errdex", "schema_version": str(LAYOUT_VERSION)}
    finally:
        conn.close()


def test_memory_store_and_open_store(tmp_path: Path) -> None:
    record = make_record()
    with SqliteStore(":memory:") as store:
        store.write_scan(make_summary(), pairs(record), DV1)
        assert store.get(record["id"]) is not None
    with open_store(f"sqlite:///{tmp_path / 'x.db'}") as store:
        assert isinstance(store, SqliteStore)
        assert store.path == str(tmp_path / "x.db")
    # a server URL is PostgreSQL's, never a file name: one that is not there says so
    with pytest.raises(StoreError, match=r"cannot connect .*postgresql://nobody:\*\*\*@"):
        open_store("postgresql://nobody:secret@127.0.0.1:1/errdex")


# -- refusing bad input -------------------------------------------------------------------


def test_foreign_sqlite_file_is_refused_untouched(tmp_path: Path) -> None:
    db = tmp_path / "contacts.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE people (name TEXT)")
    conn.execute("INSERT INTO people VALUES ('ada')")
    conn.commit()
    conn.close()
    before = db.read_bytes()

    with pytest.raises(StoreError) as info:
        SqliteStore(db)
    message = str(info.value)
    assert str(db) in message
    assert "not an errdex store" in message
    assert "people" in message
    assert "new file path" in message
    assert db.read_bytes() == before  # not switched to WAL, no tables added
    assert not (tmp_path / "contacts.db-wal").exists()


def test_foreign_meta_table_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "other.db"
    conn = sqlite3.connect(db)
    conn.execute("CREATE TABLE meta (key TEXT, value TEXT)")
    conn.execute("INSERT INTO meta VALUES ('application', 'something-else')")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match="not an errdex store"):
        SqliteStore(db)


def test_garbage_file_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "notes.db"
    db.write_text("these are my notes, not a database\n" * 200)
    with pytest.raises(StoreError) as info:
        SqliteStore(db)
    assert "not a SQLite file" in str(info.value)
    assert str(db) in str(info.value)
    assert db.read_text().startswith("these are my notes")


def test_corrupt_sqlite_body_is_refused(tmp_path: Path) -> None:
    db = tmp_path / "broken.db"
    db.write_bytes(b"SQLite format 3\x00" + b"\xff" * 4000)
    with pytest.raises(StoreError, match=r"broken\.db"):
        SqliteStore(db)


def test_directory_and_newer_layout_are_refused(tmp_path: Path) -> None:
    with pytest.raises(StoreError, match="is a directory"):
        SqliteStore(tmp_path)

    db = tmp_path / "future.db"
    SqliteStore(db).close()
    conn = sqlite3.connect(db)
    conn.execute("UPDATE meta SET value = '999' WHERE key = 'schema_version'")
    conn.commit()
    conn.close()
    with pytest.raises(StoreError, match=r"newer errdex.*upgrade errdex"):
        SqliteStore(db)


def test_empty_existing_file_becomes_a_store(tmp_path: Path) -> None:
    db = tmp_path / "empty.db"
    db.touch()
    with SqliteStore(db) as store:
        assert store.stats()["records"] == 0


def test_opening_a_current_store_does_not_wait_for_a_writer(tmp_path: Path) -> None:
    db = tmp_path / "busy.db"
    record = make_record()
    with SqliteStore(db) as store:
        store.write_scan(make_summary(), pairs(record), DV1)
    writer = sqlite3.connect(db, isolation_level=None)
    try:
        writer.execute("BEGIN IMMEDIATE")  # a scan in progress holds the write lock
        with SqliteStore(db) as reader:  # a web server starting meanwhile
            assert reader.get(record["id"]) is not None
        writer.execute("ROLLBACK")
    finally:
        writer.close()


def test_a_server_url_is_never_taken_for_a_file_name(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    with pytest.raises(StoreError, match=r"PostgreSQL URL.*needs an SQLite file") as info:
        SqliteStore("postgresql://me:secret@db.internal/errdex")
    assert "secret" not in str(info.value)
    assert list(tmp_path.iterdir()) == []  # no "postgresql:" folder, no file
