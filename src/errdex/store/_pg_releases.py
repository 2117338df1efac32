"""Releases in the PostgreSQL store (as ``_sqlite_releases``): a record's source window per
version, the records of one release in one query, and where each repository's source lives."""

from __future__ import annotations

import json
from collections.abc import Sequence

from ._pg_open import Connection
from ._sqlite_releases import release_row, windows_of
from ._sqlite_write import dumps
from .base import NotedSource, ReleaseRow
from .releases import is_older_scan

__all__ = ["note_source", "noted_source", "release_rows", "version_windows"]


def version_windows(conn: Connection, record_id: str) -> dict[int, tuple[str, int]]:
    rows = conn.execute(
        "SELECT scan_id, source_code, source_start FROM record_versions "
        "WHERE record_id = %s AND source_code IS NOT NULL AND source_start IS NOT NULL",
        (record_id,),
    )
    return windows_of(rows)


def release_rows(
    conn: Connection, repo: str, pins: Sequence[str], limit: int, offset: int
) -> list[ReleaseRow]:
    """One page of the release's records, the stale flag and message read in the same pass."""
    if not pins:
        return []
    rows = conn.execute(
        "SELECT r.id, r.slug, r.error_class, r.message, r.stale, v.file_path, v.line_number "
        "FROM record_versions AS v JOIN records AS r ON r.id = v.record_id "
        "WHERE r.repo = %(repo)s AND v.pin = ANY(%(pins)s) AND v.scan_id = (SELECT "
        "max(w.scan_id) FROM record_versions AS w WHERE w.record_id = v.record_id "
        "AND w.pin = ANY(%(pins)s)) "
        'ORDER BY v.file_path COLLATE "C", v.line_number, r.id LIMIT %(limit)s OFFSET %(offset)s',
        {"repo": repo, "pins": list(pins), "limit": limit, "offset": offset},
    )
    return [release_row(row, json.loads(row[3])) for row in rows]


def note_source(conn: Connection, repo: str, scan_id: int, source: NotedSource) -> None:
    if _older(conn, repo, scan_id):
        return
    conn.execute(
        "INSERT INTO analysis_sources (repo, scan_id, checkout, include, exclude) "
        "VALUES (%s, %s, %s, %s, %s) ON CONFLICT (repo) DO UPDATE SET "
        "scan_id = excluded.scan_id, checkout = excluded.checkout, "
        "include = excluded.include, exclude = excluded.exclude",
        (repo, scan_id, source.checkout, dumps(source.include), dumps(source.exclude)),
    )


def noted_source(conn: Connection, repo: str) -> NotedSource | None:
    row = conn.execute(
        "SELECT checkout, include, exclude FROM analysis_sources WHERE repo = %s", (repo,)
    ).fetchone()
    if row is None:
        return None
    return NotedSource(str(row[0]), list(json.loads(row[1])), list(json.loads(row[2])))


def _older(conn: Connection, repo: str, scan_id: int) -> bool:
    """A scan of an older release than the current one: its source is not the records'."""
    rows = conn.execute(
        "SELECT id, version, ref, ref_kind FROM scans WHERE repo = %s", (repo,)
    ).fetchall()
    return is_older_scan(((int(r[0]), r[1], r[2], r[3]) for r in rows), scan_id)
