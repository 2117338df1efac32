"""Every store, SQLite and PostgreSQL alike: roundtrip, upsert across commits, stale
records, versions, stats, atomic scans, analyst updates."""

from __future__ import annotations

import json
from typing import Any

import pytest

from errdex.record import ErrorRecord, envelope
from errdex.store import ScanSummary, Store, StoreError, open_store

from .factories import SHA_A, SHA_B, SHA_C, make_record, make_summary

DV1 = "2026-01-02T03:05:00.000Z"
DV2 = "2026-02-02T03:05:00.000Z"
DV3 = "2026-03-02T03:05:00.000Z"


def pairs(*records: dict[str, Any]) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [(r, {"guards": [], "function": "spin", "line": r["lineNumber"]}) for r in records]


def ids(store: Store, **kwargs: Any) -> list[str]:
    return [env["record"]["id"] for env in store.iter_envelopes(**kwargs)]


def test_envelope_roundtrip_keeps_key_order(db: str) -> None:
    record = make_record()
    evidence = {"zeta": 1, "alpha": {"y": [1, 2], "x": None}, "analyst": "static", "ü": "ß"}
    with open_store(db) as store:
        assert isinstance(store, Store)
        scan_id = store.write_scan(make_summary(), [(record, evidence)], DV1)
        assert scan_id >= 1
        got = store.get(record["id"])
        assert store.get("0" * 16) is None

    assert got == envelope(record, evidence, DV1)
    assert list(got) == ["record", "evidence", "datasetVersion"]
    assert list(got["record"]) == list(ErrorRecord.model_fields)
    assert list(got["evidence"]) == ["zeta", "alpha", "analyst", "ü"]
    assert list(got["evidence"]["alpha"]) == ["y", "x"]
    # Byte-identical JSON, and the record still validates as schema 2.
    assert json.dumps(got) == json.dumps(envelope(record, evidence, DV1))
    ErrorRecord.model_validate(got["record"])

    with open_store(db) as reopened:  # persisted, and reopening an errdex file works
        assert reopened.get(record["id"]) == got


def test_iter_envelopes_orders_by_repo_path_and_numeric_line(db: str) -> None:
    b10 = make_record(message="ten", file_path="b.py", line=10)
    b9 = make_record(message="nine", file_path="b.py", line=9)
    a50 = make_record(message="fifty", file_path="a.py", line=50)
    other = make_record(repo="aaa/first", message="other", file_path="z.py", line=1)
    with open_store(db) as store:
        store.write_scan(make_summary(), pairs(b10, b9, a50), DV1)
        store.write_scan(make_summary(repo="aaa/first"), pairs(other), DV1)
        assert ids(store) == [other["id"], a50["id"], b9["id"], b10["id"]]
        assert ids(store, repo="acme/widgets") == [a50["id"], b9["id"], b10["id"]]
        assert ids(store, repo="nobody/here") == []


def test_rescan_upserts_keeps_versions_and_marks_vanished_stale(db: str) -> None:
    kept_a = make_record(message="kept", line=10, sha=SHA_A)
    gone = make_record(message="gone", line=20, sha=SHA_A)
    kept_b = make_record(message="kept", line=14, sha=SHA_B)  # same id, moved 4 lines
    new_b = make_record(message="new", line=30, sha=SHA_B)
    elsewhere = make_record(repo="other/repo", message="kept", sha=SHA_A)
    assert kept_a["id"] == kept_b["id"]

    with open_store(db) as store:
        scan1 = store.write_scan(make_summary(commit=SHA_A), pairs(kept_a, gone), DV1)
        unrelated = store.write_scan(make_summary("other/repo", SHA_A), pairs(elsewhere), DV1)
        scan2 = store.write_scan(make_summary(commit=SHA_B), pairs(kept_b, new_b), DV2)
        assert scan1 < unrelated < scan2

        # The record is the latest scan's, with that scan's datasetVersion.
        current = store.get(kept_a["id"])
        assert current is not None
        assert current["record"] == kept_b
        assert current["datasetVersion"] == DV2
        assert current["evidence"]["line"] == 14

        status = store.status(kept_a["id"])
        assert status is not None
        assert status["stale"] is False
        assert (status["firstSeenScan"], status["lastSeenScan"]) == (scan1, scan2)
        assert [(v["commit"], v["lineNumber"], v["scanId"]) for v in status["versions"]] == [
            (SHA_A, 10, scan1),
            (SHA_B, 14, scan2),
        ]

        # The vanished record stays reachable, stale, with the scan that last saw it.
        stale = store.get(gone["id"])
        assert stale is not None
        assert stale["record"] == gone
        assert stale["datasetVersion"] == DV1
        gone_status = store.status(gone["id"])
        assert gone_status is not None
        assert gone_status["stale"] is True
        assert gone_status["lastSeenScan"] == scan1

        assert ids(store, repo="acme/widgets") == [kept_b["id"], new_b["id"]]
        assert ids(store, repo="acme/widgets", include_stale=True) == [
            kept_b["id"],
            gone["id"],
            new_b["id"],
        ]
        # Another repository is untouched by this repo's rescan.
        assert ids(store, repo="other/repo") == [elsewhere["id"]]

        stats = store.stats()
        assert stats["records"] == 3
        assert store.stats(include_stale=True)["records"] == 4
        widgets = next(r for r in stats["repos"] if r["repo"] == "acme/widgets")
        assert widgets == {
            "repo": "acme/widgets",
            "commits": [SHA_B, SHA_A],
            "records": 2,
            "stale": 1,
        }

    # A later scan that finds it again revives it; the file survives reopening.
    with open_store(db) as store:
        back = make_record(message="gone", line=21, sha=SHA_C)
        scan3 = store.write_scan(make_summary(commit=SHA_C), pairs(back, new_b), DV3)
        revived = store.status(gone["id"])
        assert revived is not None
        assert revived["stale"] is False
        assert revived["lastSeenScan"] == scan3
        assert [v["commit"] for v in revived["versions"]] == [SHA_A, SHA_C]
        now_stale = store.status(kept_a["id"])
        assert now_stale is not None
        assert now_stale["stale"] is True
        assert now_stale["lastSeenScan"] == scan2


def test_rescan_of_same_commit_updates_its_version_row(db: str) -> None:
    first = make_record(message="m", line=5)
    again = make_record(message="m", line=6)
    with open_store(db) as store:
        store.write_scan(make_summary(), pairs(first), DV1)
        second = store.write_scan(make_summary(), pairs(again), DV2)
        status = store.status(first["id"])
        assert status is not None
        assert [(v["scanId"], v["lineNumber"]) for v in status["versions"]] == [(second, 6)]


def test_stats_counts(db: str) -> None:
    widgets = [
        make_record(message="a", error_class="ValueError"),
        make_record(message="b", error_class="ValueError", severity="critical"),
        make_record(message="c", error_class="KeyError"),
        make_record(
            message="d", error_class="DeprecationWarning", error_type="console", severity="warning"
        ),
        make_record(message="e", error_class=None, error_type="panic", severity="critical"),
    ]
    gadgets = [
        make_record(repo="acme/gadgets", message="a", error_class="KeyError"),
        make_record(repo="acme/gadgets", message="b", error_class="KeyError"),
    ]
    with open_store(db) as store:
        empty = store.stats()
        assert empty == {
            "repos": [],
            "records": 0,
            "byClass": {},
            "byType": {},
            "bySeverity": {},
            "scans": [],
        }
        store.write_scan(make_summary(), pairs(*widgets), DV1)
        store.write_scan(make_summary("acme/gadgets", commit=None), pairs(*gadgets), DV1)
        stats = store.stats()

    assert stats["records"] == 7
    assert stats["repos"] == [
        {"repo": "acme/gadgets", "commits": [], "records": 2, "stale": 0},
        {"repo": "acme/widgets", "commits": [SHA_A], "records": 5, "stale": 0},
    ]
    assert stats["byClass"] == {
        "KeyError": 3,
        "ValueError": 2,
        "(none)": 1,
        "DeprecationWarning": 1,
    }
    assert list(stats["byClass"]) == ["KeyError", "ValueError", "(none)", "DeprecationWarning"]
    assert stats["byType"] == {"exception": 5, "console": 1, "panic": 1}
    assert stats["bySeverity"] == {"error": 4, "critical": 2, "warning": 1}
    assert sum(stats["bySeverity"].values()) == 7
    assert [s["repo"] for s in stats["scans"]] == ["acme/gadgets", "acme/widgets"]
    json.dumps(stats)  # serialisable as it stands, for the JSON API


def test_scans_keep_summaries(db: str) -> None:
    skipped = [("bad.py", "SyntaxError: invalid syntax (line 3)"), ("big.py", "too large")]
    summary = make_summary(records=99, skipped=skipped)  # records is recounted on write
    record = make_record()
    with open_store(db) as store:
        first = store.write_scan(summary, pairs(record), DV1)
        second = store.write_scan(make_summary("acme/gadgets"), [], DV2)
        everything = store.scans()
        only = store.scans("acme/widgets")

    assert [s["id"] for s in everything] == [second, first]
    assert len(only) == 1
    info = only[0]
    assert info["id"] == first
    assert info["dataset_version"] == DV1
    assert info["records"] == 1
    assert info["skipped"] == skipped
    expected = summary.as_dict() | {"records": 1}
    assert {k: v for k, v in info.items() if k not in ("id", "dataset_version")} == expected
    assert ScanSummary.from_dict(info) == ScanSummary(**expected)
    assert everything[0]["records"] == 0


@pytest.mark.parametrize(
    ("bad", "match"),
    [
        ("duplicate", "occurs twice"),
        ("wrong_repo", "belongs to 'else/where'"),
        ("missing_key", "has no 'severity' key"),
        ("not_json", "not JSON-serialisable"),
    ],
)
def test_bad_items_write_nothing(db: str, bad: str, match: str) -> None:
    good = make_record(message="good")
    other = make_record(message="other")
    items = pairs(good, other)
    if bad == "duplicate":
        items.append((dict(good), {}))
    elif bad == "wrong_repo":
        items.append((make_record(repo="else/where"), {}))
    elif bad == "missing_key":
        broken = dict(other)
        del broken["severity"]
        items[1] = (broken, {})
    else:
        items[1] = (other, {"when": object()})
    with open_store(db) as store:
        previous = store.write_scan(make_summary(commit=SHA_A), pairs(other), DV1)
        with pytest.raises(StoreError, match=match):
            store.write_scan(make_summary(commit=SHA_B), items, DV2)
        # Rolled back: no new scan, no new record, nothing marked stale.
        assert [s["id"] for s in store.scans()] == [previous]
        assert store.get(good["id"]) is None
        assert ids(store) == [other["id"]]
        assert store.get(other["id"]) == envelope(other, pairs(other)[0][1], DV1)


def test_update_records_replaces_analysis_and_refuses_unknown_ids(db: str) -> None:
    record = make_record()
    with open_store(db) as store:
        store.write_scan(make_summary(), pairs(record), DV1)
        analysed = {**record, "documentation": "Raised when the spinner has no frames."}
        evidence = {"provenance": {"documentation": {"analyst": "static"}}}
        assert store.update_records([(analysed, evidence)]) == 1
        got = store.get(record["id"])
        assert got is not None
        assert got["record"]["documentation"] == "Raised when the spinner has no frames."
        assert got["evidence"] == evidence
        assert list(got["record"]) == list(ErrorRecord.model_fields)
        ghost = {**record, "id": "f" * 16}
        with pytest.raises(StoreError, match=r"not in .*ffffffffffffffff"):
            store.update_records([(analysed, {}), (ghost, {})])
        # nothing of the failed batch was written
        again = store.get(record["id"])
        assert again is not None and again["evidence"] == evidence


def test_lone_surrogates_from_scanned_literals_are_stored(db: str) -> None:
    record = make_record()
    record = {**record, "errorMessage": "invalid byte \udc80 in name"}
    with open_store(db) as store:
        store.write_scan(make_summary(), [(record, {"template": [{"literal": "\udc80"}]})], DV1)
        got = store.get(record["id"])
    assert got is not None
    assert got["record"]["errorMessage"] == "invalid byte \udc80 in name"
    assert got["evidence"] == {"template": [{"literal": "\udc80"}]}


def test_iter_record_versions_lists_every_version_of_every_record(db: str) -> None:
    from errdex.store.base import RecordVersion

    with open_store(db) as store:
        kept = make_record(message="kept {name}", line=5, sha=SHA_A)
        gone = make_record(message="gone {name}", line=9, sha=SHA_A)
        first = store.write_scan(make_summary(commit=SHA_A), [(kept, {}), (gone, {})], "d1")
        moved = make_record(message="kept {name}", line=7, sha=SHA_B)
        second = store.write_scan(make_summary(commit=SHA_B), [(moved, {})], "d2")
        other = make_record(repo="acme/other", message="x {name}", line=1, sha=SHA_C)
        store.write_scan(make_summary("acme/other", SHA_C), [(other, {})], "d3")
        rows = list(store.iter_record_versions("acme/widgets"))
        expected = [
            (kept["id"], "acme/widgets", RecordVersion(
                scanId=first, commit=SHA_A, ref=SHA_A, filePath="widgets/core.py", lineNumber=5)),
            (kept["id"], "acme/widgets", RecordVersion(
                scanId=second, commit=SHA_B, ref=SHA_B, filePath="widgets/core.py", lineNumber=7)),
            (gone["id"], "acme/widgets", RecordVersion(
                scanId=first, commit=SHA_A, ref=SHA_A, filePath="widgets/core.py", lineNumber=9)),
        ]  # fmt: skip
        assert rows == sorted(expected, key=lambda row: (row[0], row[2]["scanId"]))
        assert {repo for _, repo, _ in store.iter_record_versions()} == {
            "acme/widgets",
            "acme/other",
        }
        # the same rows status() gives, record by record
        status = store.status(kept["id"])
        assert status is not None
        assert [v for rid, _, v in rows if rid == kept["id"]] == status["versions"]
