"""The catalogue's scan_inputs (SQLite and PostgreSQL): when it vouches for its records,
and a scan over them."""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from errdex.store import SqliteStore, Store, open_store
from errdex.store._sqlite_cache import CatalogueChanged

from .factories import make_record, make_summary

REPO = "acme/widgets"


def _store_with_scan(db: str, inputs: str | None = "fp-1") -> Store:
    store = open_store(db)
    items = [(make_record(line=n, message=f"widget {n} is broken"), {"n": n}) for n in (10, 20)]
    store.write_scan(make_summary(records=2), items, "2026-01-02T03:04:07.500Z", inputs=inputs)
    return store


def test_a_scan_written_with_its_inputs_is_vouched_for(db: str) -> None:
    with _store_with_scan(db) as store:
        assert store.vouched_fingerprint(REPO) == "fp-1"
        assert store.vouched_fingerprint("other/repo") is None


def test_a_scan_without_inputs_is_not(db: str) -> None:
    with _store_with_scan(db, inputs=None) as store:
        assert store.vouched_fingerprint(REPO) is None


def test_any_write_after_the_scan_ends_the_vouching(db: str) -> None:
    with _store_with_scan(db) as store:
        record = make_record(line=10, message="widget 10 is broken")
        record["documentation"] = "Written by a model."
        store.update_records([(record, {"analysis": "llm"})])
        assert store.vouched_fingerprint(REPO) is None


def test_a_later_scan_of_the_repository_without_inputs_ends_it(db: str) -> None:
    with _store_with_scan(db) as store:
        store.write_scan(make_summary(records=0), [], "2026-01-03T00:00:00.000Z")
        assert store.vouched_fingerprint(REPO) is None


def test_touch_scan_keeps_every_record_as_stored_under_a_new_scan(db: str) -> None:
    with _store_with_scan(db) as store:
        before = list(store.iter_envelopes(REPO))
        version = store.data_version()
        scan_id = store.touch_scan(make_summary(records=2), "2026-01-05T00:00:00.000Z", "fp-1")
        after = list(store.iter_envelopes(REPO))
        assert [e["record"] for e in after] == [e["record"] for e in before]
        assert [e["evidence"] for e in after] == [e["evidence"] for e in before]
        assert {e["datasetVersion"] for e in after} == {"2026-01-05T00:00:00.000Z"}
        assert store.data_version() > version
        assert store.scans(REPO)[0]["id"] == scan_id
        assert store.scans(REPO)[0]["records"] == 2
        status = store.status(before[0]["record"]["id"])
        assert status is not None and not status["stale"]
        assert status["lastSeenScan"] == scan_id
        assert [v["scanId"] for v in status["versions"]] == [scan_id]
        assert store.vouched_fingerprint(REPO) == "fp-1"  # and it still vouches


def test_touch_scan_refuses_a_fingerprint_the_catalogue_does_not_vouch_for(db: str) -> None:
    with _store_with_scan(db) as store:
        scans = len(store.scans(REPO))
        with pytest.raises(CatalogueChanged):
            store.touch_scan(make_summary(records=2), "2026-01-05T00:00:00.000Z", "fp-2")
        assert len(store.scans(REPO)) == scans


def test_a_catalogue_from_before_incremental_scans_vouches_for_nothing(tmp_path: Path) -> None:
    with SqliteStore(tmp_path / "c.db") as store:
        store.write_scan(make_summary(records=0), [], "2026-01-02T03:04:07.500Z")
        tables = {r[0] for r in store.connection.execute("SELECT name FROM sqlite_master")}
        assert "scan_inputs" not in tables  # created by the first scan that writes one
        assert store.vouched_fingerprint(REPO) is None
    # and opening it again with this errdex works and then records inputs
    with SqliteStore(tmp_path / "c.db") as store:
        store.write_scan(make_summary(records=0), [], "2026-01-03T00:00:00.000Z", inputs="fp")
        assert store.vouched_fingerprint(REPO) == "fp"
    assert sqlite3.connect(tmp_path / "c.db").execute("PRAGMA integrity_check").fetchone() == (
        "ok",
    )
