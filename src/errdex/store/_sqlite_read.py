"""Reading the SQLite store: envelopes, a record's versions, counts and scan summaries."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Callable, Iterable, Iterator, Sequence
from typing import Any, cast

from ._sqlite_layout import ENVELOPE_SELECT, NO_CLASS, RECENT_SCANS, SCAN_COLUMNS
from .base import RecordStatus, RecordVersion, RepoStats, ScanInfo, StoreStats
from .errors import StoreError

__all__ = [
    "assemble_stats",
    "get",
    "iter_envelopes",
    "iter_record_versions",
    "scan_info",
    "scans",
    "stats",
    "status",
]


def get(conn: sqlite3.Connection, record_id: str) -> dict[str, Any] | None:
    row = conn.execute(ENVELOPE_SELECT + "WHERE r.id = ?", (record_id,)).fetchone()
    return None if row is None else _envelope(row)


def status(conn: sqlite3.Connection, record_id: str) -> RecordStatus | None:
    row = conn.execute(
        "SELECT stale, first_scan_id, scan_id FROM records WHERE id = ?", (record_id,)
    ).fetchone()
    if row is None:
        return None
    versions = [
        RecordVersion(
            scanId=v["scan_id"],
            commit=v["commit_sha"],
            ref=v["ref"],
            filePath=v["file_path"],
            lineNumber=v["line_number"],
        )
        for v in conn.execute(
            "SELECT scan_id, commit_sha, ref, file_path, line_number FROM record_versions "
            "WHERE record_id = ? ORDER BY scan_id",
            (record_id,),
        )
    ]
    return RecordStatus(
        id=record_id,
        stale=bool(row["stale"]),
        firstSeenScan=row["first_scan_id"],
        lastSeenScan=row["scan_id"],
        versions=versions,
    )


def iter_envelopes(
    conn: sqlite3.Connection, path: str, repo: str | None, include_stale: bool
) -> Iterator[dict[str, Any]]:
    where, params = _filters(repo, include_stale, prefix="r.")
    sql = ENVELOPE_SELECT + where + " ORDER BY r.repo, r.file_path, r.line_number, r.id"
    try:
        cursor = conn.execute(sql, params)
        try:
            while rows := cursor.fetchmany(1000):
                for row in rows:
                    yield _envelope(row)
        finally:
            cursor.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read records from {path}: {exc}") from exc


def iter_record_versions(
    conn: sqlite3.Connection, path: str, repo: str | None
) -> Iterator[tuple[str, str, RecordVersion]]:
    sql = (
        "SELECT v.record_id, r.repo, v.scan_id, v.commit_sha, v.ref, v.file_path, "
        "v.line_number FROM record_versions AS v JOIN records AS r ON r.id = v.record_id"
    )
    params: tuple[str, ...] = ()
    if repo is not None:
        sql += " WHERE r.repo = ?"
        params = (repo,)
    try:
        cursor = conn.execute(sql + " ORDER BY v.record_id, v.scan_id", params)
        try:
            while rows := cursor.fetchmany(1000):
                for row in rows:
                    yield (
                        row[0],
                        row[1],
                        RecordVersion(
                            scanId=row[2],
                            commit=row[3],
                            ref=row[4],
                            filePath=row[5],
                            lineNumber=row[6],
                        ),
                    )
        finally:
            cursor.close()
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read record versions from {path}: {exc}") from exc


def stats(conn: sqlite3.Connection, path: str, include_stale: bool) -> StoreStats:
    try:
        return _stats(conn, include_stale)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot read statistics from {path}: {exc}") from exc


def _stats(conn: sqlite3.Connection, include_stale: bool) -> StoreStats:
    where, params = _filters(None, include_stale)

    def grouped(column: str) -> dict[str, int]:
        rows = conn.execute(
            f"SELECT {column}, COUNT(*) FROM records {where} "
            f"GROUP BY {column} ORDER BY COUNT(*) DESC, {column}",
            params,
        )
        return {NO_CLASS if key is None else str(key): int(n) for key, n in rows}

    return assemble_stats(conn.execute, grouped, "stale = 1", "?")


#: ``execute(sql, params)`` of either backend's connection, rows as sequences.
Execute = Callable[[str, Sequence[Any]], Iterable[Sequence[Any]]]


def assemble_stats(
    execute: Execute, grouped: Callable[[str], dict[str, int]], stale_sql: str, mark: str
) -> StoreStats:
    """:class:`StoreStats` from the queries every backend answers alike; ``grouped``
    counts current (or all) records by a column, ``stale_sql`` is the dialect's
    "is stale" and ``mark`` its parameter marker."""
    counted = dict(grouped("repo"))
    stale = {
        str(repo): int(n)
        for repo, n in execute(
            f"SELECT repo, COUNT(*) FROM records WHERE {stale_sql} GROUP BY repo", ()
        )
    }
    commits: dict[str, list[str]] = {}
    for repo, pin in execute(
        "SELECT repo, COALESCE(commit_sha, ref) AS pin FROM scans "
        "WHERE COALESCE(commit_sha, ref) IS NOT NULL "
        "GROUP BY repo, pin ORDER BY repo, MAX(id) DESC",
        (),
    ):
        commits.setdefault(str(repo), []).append(str(pin))
    names = sorted(
        {str(r) for (r,) in execute("SELECT DISTINCT repo FROM scans", ())} | set(counted)
    )
    repos = [
        RepoStats(
            repo=name,
            commits=commits.get(name, []),
            records=counted.get(name, 0),
            stale=stale.get(name, 0),
        )
        for name in names
    ]
    recent = execute(
        f"SELECT {SCAN_COLUMNS} FROM scans ORDER BY id DESC LIMIT {mark}", (RECENT_SCANS,)
    )
    return StoreStats(
        repos=repos,
        records=sum(counted.values()),
        byClass=grouped("error_class"),
        byType=grouped("error_type"),
        bySeverity=grouped("severity"),
        scans=[scan_info(row) for row in recent],
    )


def scans(conn: sqlite3.Connection, repo: str | None) -> list[ScanInfo]:
    if repo is None:
        rows = conn.execute(f"SELECT {SCAN_COLUMNS} FROM scans ORDER BY id DESC")
    else:
        rows = conn.execute(
            f"SELECT {SCAN_COLUMNS} FROM scans WHERE repo = ? ORDER BY id DESC", (repo,)
        )
    return [scan_info(row) for row in rows]


def scan_info(row: Sequence[Any]) -> ScanInfo:
    """A scans row, its columns in ``SCAN_COLUMNS`` order (the same in both backends)."""
    skipped = [(str(path), str(reason)) for path, reason in json.loads(row[14])]
    return ScanInfo(
        id=int(row[0]),
        repo=row[1],
        commit=row[2],
        ref=row[3],
        ref_kind=row[4],
        origin=row[5],
        version=row[6],
        started_at=row[7],
        finished_at=row[8],
        seconds=float(row[9]),
        files_read=row[10],
        files_excluded=row[11],
        sites=row[12],
        records=row[13],
        skipped=skipped,
        dataset_version=row[15],
    )


def _filters(repo: str | None, include_stale: bool, prefix: str = "") -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if not include_stale:
        clauses.append(f"{prefix}stale = 0")
    if repo is not None:
        clauses.append(f"{prefix}repo = ?")
        params.append(repo)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _envelope(row: sqlite3.Row | tuple[Any, ...]) -> dict[str, Any]:
    record = cast(dict[str, Any], json.loads(row[0]))
    evidence = cast(dict[str, Any], json.loads(row[1]))
    # errdex.record.envelope's shape, without importing the record model (pydantic): a
    # reader such as errdex's excepthook must start fast.
    return {"record": record, "evidence": evidence, "datasetVersion": str(row[2])}
