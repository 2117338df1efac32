"""OSV-style ranges from a real SQLite store's scans and a record's status."""

from __future__ import annotations

from dataclasses import replace
from pathlib import Path
from typing import Any

from errdex.store import ScanSummary
from errdex.store.sqlite import SqliteStore
from errdex.versions import (
    find_release,
    parse_version,
    release_order,
    releases,
    version_ranges,
)
from tests.store.factories import make_record, make_summary

REPO = "acme/widgets"


def _summary(version: str | None, commit: str) -> ScanSummary:
    return replace(make_summary(REPO, commit), version=version)


def _sha(n: int) -> str:
    return f"{n:x}" * 40 if n < 16 else f"{n:040x}"


def _catalogue(tmp_path: Path, plan: list[tuple[str | None, dict[str, int]]]) -> SqliteStore:
    """Scan ``plan`` in order: (version, {message: line}) per scan, one commit each."""
    store = SqliteStore(tmp_path / "v.db")
    for n, (version, lines) in enumerate(plan, start=1):
        items: list[tuple[dict[str, Any], dict[str, Any]]] = [
            (make_record(REPO, message, line=line, sha=_sha(n)), {})
            for message, line in lines.items()
        ]
        store.write_scan(_summary(version, _sha(n)), items, dataset_version=f"d{n}")
    return store


def _rid(message: str) -> str:
    return str(make_record(REPO, message)["id"])


def test_parse_version_reads_past_tag_prefixes() -> None:
    assert str(parse_version("v1.2")) == "1.2"
    assert str(parse_version("attrs-25.4.0")) == "25.4.0"
    assert str(parse_version("25.4.0")) == "25.4.0"
    assert parse_version("nightly") is None
    assert parse_version(None) is None


def test_release_order_is_pep440_and_keeps_unparsed_after_their_predecessor() -> None:
    labels = ["1.10", "1.9", "abc123def456", "1.2rc1", "1.2"]
    assert [labels[i] for i in release_order(labels)] == [
        "1.2rc1",
        "1.2",
        "1.9",
        "abc123def456",
        "1.10",
    ]
    # nothing parses: scan order
    assert release_order(["b", "a", "c"]) == [0, 1, 2]


def test_ranges_introduced_fixed_and_reintroduced(tmp_path: Path) -> None:
    # scanned out of order on purpose: 2.0 first, then 1.0, 1.1, 3.0, 2.1
    plan: list[tuple[str | None, dict[str, int]]] = [
        ("2.0", {"stays {name}": 12, "comes back {name}": 30}),
        ("1.0", {"stays {name}": 10, "goes {name}": 20, "comes back {name}": 30}),
        ("1.1", {"stays {name}": 11, "goes {name}": 21}),
        ("3.0", {"stays {name}": 14}),
        ("2.1", {"stays {name}": 13}),
    ]
    with _catalogue(tmp_path, plan) as store:
        scans = store.scans(REPO)
        assert [r.label for r in releases(scans)] == ["1.0", "1.1", "2.0", "2.1", "3.0"]

        stays = store.status(_rid("stays {name}"))
        assert stays is not None
        got = version_ranges(scans, stays)
        assert got["ranges"] == [{"introduced": "1.0", "last_affected": "3.0", "fixed": None}]
        assert got["events"] == [{"introduced": "1.0"}]
        assert [(p["version"], p["lineNumber"]) for p in got["places"]] == [
            ("1.0", 10),
            ("1.1", 11),
            ("2.0", 12),
            ("2.1", 13),
            ("3.0", 14),
        ]

        goes = store.status(_rid("goes {name}"))
        assert goes is not None
        got = version_ranges(scans, goes)
        assert got["ranges"] == [{"introduced": "1.0", "last_affected": "1.1", "fixed": "2.0"}]
        assert got["events"] == [{"introduced": "1.0"}, {"fixed": "2.0"}]

        back = store.status(_rid("comes back {name}"))
        assert back is not None
        got = version_ranges(scans, back)
        assert got["ranges"] == [
            {"introduced": "1.0", "last_affected": "1.0", "fixed": "1.1"},
            {"introduced": "2.0", "last_affected": "2.0", "fixed": "2.1"},
        ]
        assert got["events"] == [
            {"introduced": "1.0"},
            {"fixed": "1.1"},
            {"introduced": "2.0"},
            {"fixed": "2.1"},
        ]
        assert got["places"][0]["filePath"] == "widgets/core.py"


def test_commits_without_versions_follow_scan_order(tmp_path: Path) -> None:
    plan: list[tuple[str | None, dict[str, int]]] = [
        (None, {"old {name}": 5}),
        (None, {"old {name}": 6, "new {name}": 9}),
    ]
    with _catalogue(tmp_path, plan) as store:
        scans = store.scans(REPO)
        labels = [r.label for r in releases(scans)]
        assert labels == [_sha(1)[:12], _sha(2)[:12]]
        new = store.status(_rid("new {name}"))
        assert new is not None
        assert version_ranges(scans, new)["ranges"] == [
            {"introduced": labels[1], "last_affected": labels[1], "fixed": None}
        ]


def test_rescanning_a_release_is_one_release(tmp_path: Path) -> None:
    plan: list[tuple[str | None, dict[str, int]]] = [
        ("1.0", {"a {name}": 1}),
        ("1.1", {"a {name}": 2}),
    ]
    with _catalogue(tmp_path, plan) as store:
        store.write_scan(
            _summary("1.0", _sha(1)),
            [(make_record(REPO, "a {name}", line=1, sha=_sha(1)), {})],
            "d3",
        )
        catalogued = releases(store.scans(REPO))
        assert [r.label for r in catalogued] == ["1.0", "1.1"]
        assert len(catalogued[0].scan_ids) == 2
        assert find_release(catalogued, "1.0.0") is catalogued[0]  # equal as PEP 440
        assert find_release(catalogued, "9.9") is None


def test_out_of_order_scans_leave_the_newest_release_current_with_a_window_per_release(
    tmp_path: Path,
) -> None:
    plan: list[tuple[str | None, dict[str, int]]] = [
        ("2.0", {"stays {name}": 12}),
        ("1.0", {"stays {name}": 10, "goes {name}": 20}),
        ("1.1", {"stays {name}": 11}),
    ]
    with _catalogue(tmp_path, plan) as store:
        [current] = list(store.iter_envelopes(REPO))
        assert current["record"]["lineNumber"] == 12  # 2.0's: the newest release
        assert [
            e["record"]["lineNumber"] for e in store.iter_envelopes(REPO, include_stale=True)
        ] == [12, 20]
        record_id = _rid("stays {name}")
        status = store.status(record_id)
        assert status is not None
        got = version_ranges(store.scans(REPO), status, store.version_windows(record_id))
    for place, line in zip(got["places"], (10, 11, 12), strict=True):
        expected = make_record(REPO, "stays {name}", line=line)
        assert place["lineNumber"] == line
        assert (place["sourceCode"], place["sourceCodeStart"]) == (
            expected["sourceCode"],
            expected["sourceCodeStart"],
        )
