"""Releases in the SQLite store: a record's source window per version, the records of one
release in one query, and the note of where each repository's source lives."""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterable, Sequence
from typing import Any

from ._sqlite_write import dumps
from .base import NotedSource, ReleaseRow
from .errors import StoreError
from .releases import is_older_scan

__all__ = [
    "note_source",
    "noted_source",
    "release_row",
    "release_rows",
    "version_windows",
    "windows_of",
]


def windows_of(rows: Iterable[Sequence[Any]]) -> dict[int, tuple[str, int]]:
    """``{scan id: (code, first line)}`` from ``(scan_id, source_code, source_start)`` rows
    (either backend's)."""
    return {int(row[0]): (str(row[1]), int(row[2])) for row in rows}


def release_row(row: Sequence[Any], message: str | None) -> ReleaseRow:
    """A release row from ``(id, slug, class, _, stale, file, line)`` (either backend's) and
    the message as the backend reads it."""
    return ReleaseRow(
        id=str(row[0]),
        slug=str(row[1]),
        errorClass=row[2],
        errorMessage=str(message or ""),
        filePath=str(row[5]),
        lineNumber=int(row[6]),
        stale=bool(row[4]),
    )


def version_windows(conn: sqlite3.Connection, record_id: str) -> dict[int, tuple[str, int]]:
    rows = conn.execute(
        "SELECT scan_id, source_code, source_start FROM record_versions "
        "WHERE record_id = ? AND source_code IS NOT NULL AND source_start IS NOT NULL",
        (record_id,),
    )
    return windows_of(rows)


def release_rows(
    conn: sqlite3.Connection, repo: str, pins: Sequence[str], limit: int, offset: int
) -> list[ReleaseRow]:
    """One page of the release's records, the stale flag and message read in the same pass."""
    if not pins:
        return []
    marks = ",".join("?" * len(pins))
    rows = conn.execute(
        "SELECT r.id, r.slug, r.error_class, json_extract(r.record, '$.errorMessage'), r.stale, "
        "v.file_path, v.line_number FROM record_versions AS v "
        "JOIN records AS r ON r.id = v.record_id "
        f"WHERE r.repo = ? AND v.pin IN ({marks}) AND v.scan_id = (SELECT max(w.scan_id) "
        f"FROM record_versions AS w WHERE w.record_id = v.record_id AND w.pin IN ({marks})) "
        "ORDER BY v.file_path, v.line_number, r.id LIMIT ? OFFSET ?",
        (repo, *pins, *pins, limit, offset),
    )
    return [release_row(row, row[3]) for row in rows]


def note_source(
    conn: sqlite3.Connection, path: str, repo: str, scan_id: int, source: NotedSource
) -> None:
    try:
        if _older(conn, repo, scan_id):
            return
        conn.execute(
            "INSERT INTO analysis_sources (repo, scan_id, checkout, include, exclude) "
            "VALUES (?, ?, ?, ?, ?) ON CONFLICT (repo) DO UPDATE SET scan_id = excluded.scan_id, "
            "checkout = excluded.checkout, include = excluded.include, exclude = excluded.exclude",
            (repo, scan_id, source.checkout, dumps(source.include), dumps(source.exclude)),
        )
    except sqlite3.Error as exc:
        raise StoreError(f"could not note the source of {repo} in {path}: {exc}") from exc


def noted_source(conn: sqlite3.Connection, repo: str) -> NotedSource | None:
    row = conn.execute(
        "SELECT checkout, include, exclude FROM analysis_sources WHERE repo = ?", (repo,)
    ).fetchone()
    if row is None:
        return None
    return NotedSource(str(row[0]), list(json.loads(row[1])), list(json.loads(row[2])))


def _older(conn: sqlite3.Connection, repo: str, scan_id: int) -> bool:
    """A scan of an older release than the current one: its source is not the records'."""
    rows = conn.execute(
        "SELECT id, version, ref, ref_kind FROM scans WHERE repo = ?", (repo,)
    ).fetchall()
    return is_older_scan(((int(r[0]), r[1], r[2], r[3]) for r in rows), scan_id)
