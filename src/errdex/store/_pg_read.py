"""Reading the PostgreSQL store: envelopes, a record's versions, counts, scan summaries.

Text is ordered ``COLLATE "C"`` (by code point), as SQLite orders it, whatever the
database's locale; a missing class sorts first, as SQLite sorts NULL.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Any

import psycopg

from ._pg_layout import SCAN_COLUMNS
from ._pg_open import Connection, shown_url
from ._sqlite_layout import NO_CLASS
from ._sqlite_read import _envelope, assemble_stats, scan_info
from .base import RecordStatus, RecordVersion, ScanInfo, StoreStats
from .errors import StoreError

__all__ = ["ORDER", "get", "iter_envelopes", "iter_record_versions", "scans", "stats", "status"]

#: Catalogue order: repo, file, line, id (byte order, as SQLite).
ORDER = 'r.repo COLLATE "C", r.file_path COLLATE "C", r.line_number, r.id COLLATE "C"'

_ENVELOPE_SELECT = """
SELECT r.record, r.evidence, s.dataset_version
FROM records AS r JOIN scans AS s ON s.id = r.scan_id
"""


def get(conn: Connection, record_id: str) -> dict[str, Any] | None:
    row = conn.execute(_ENVELOPE_SELECT + "WHERE r.id = %s", (record_id,)).fetchone()
    return None if row is None else _envelope(row)


def status(conn: Connection, record_id: str) -> RecordStatus | None:
    row = conn.execute(
        "SELECT stale, first_scan_id, scan_id FROM records WHERE id = %s", (record_id,)
    ).fetchone()
    if row is None:
        return None
    versions = [
        RecordVersion(
            scanId=int(v[0]),
            commit=v[1],
            ref=v[2],
            filePath=str(v[3]),
            lineNumber=int(v[4]),
        )
        for v in conn.execute(
            "SELECT scan_id, commit_sha, ref, file_path, line_number FROM record_versions "
            "WHERE record_id = %s ORDER BY scan_id",
            (record_id,),
        )
    ]
    return RecordStatus(
        id=record_id,
        stale=bool(row[0]),
        firstSeenScan=int(row[1]),
        lastSeenScan=int(row[2]),
        versions=versions,
    )


def iter_record_versions(
    conn: Connection, url: str, repo: str | None
) -> Iterator[tuple[str, str, RecordVersion]]:
    """Every version of every record (of ``repo``), by record then scan, streamed."""
    sql = (
        "SELECT v.record_id, r.repo, v.scan_id, v.commit_sha, v.ref, v.file_path, "
        "v.line_number FROM record_versions AS v JOIN records AS r ON r.id = v.record_id"
    )
    params: tuple[str, ...] = ()
    if repo is not None:
        sql += " WHERE r.repo = %s"
        params = (repo,)
    try:
        with conn.transaction(), conn.cursor(name="errdex_versions") as cursor:
            cursor.itersize = 1000
            cursor.execute(sql + " ORDER BY v.record_id, v.scan_id", params)
            for row in cursor:
                version = RecordVersion(
                    scanId=int(row[2]),
                    commit=row[3],
                    ref=row[4],
                    filePath=str(row[5]),
                    lineNumber=int(row[6]),
                )
                yield str(row[0]), str(row[1]), version
    except psycopg.Error as exc:
        raise StoreError(f"cannot read record versions from {shown_url(url)}: {exc}") from exc


def iter_envelopes(
    conn: Connection, url: str, repo: str | None, include_stale: bool
) -> Iterator[dict[str, Any]]:
    """Envelopes in catalogue order, through a server-side cursor (memory stays flat)."""
    where, params = _filters(repo, include_stale, prefix="r.")
    sql = _ENVELOPE_SELECT + where + " ORDER BY " + ORDER
    try:
        with conn.transaction(), conn.cursor(name="errdex_envelopes") as cursor:
            cursor.itersize = 1000
            cursor.execute(sql, params)
            for row in cursor:
                yield _envelope(row)
    except psycopg.Error as exc:
        raise StoreError(f"cannot read records from {shown_url(url)}: {exc}") from exc


def stats(conn: Connection, url: str, include_stale: bool) -> StoreStats:
    try:
        return _stats(conn, include_stale)
    except psycopg.Error as exc:
        raise StoreError(f"cannot read statistics from {shown_url(url)}: {exc}") from exc


def grouped(conn: Connection, column: str, where: str, params: list[Any]) -> dict[str, int]:
    """Records counted by ``column`` (a column name of ours), most first."""
    rows = conn.execute(
        f"SELECT {column}, count(*) FROM records {where} "
        f'GROUP BY {column} ORDER BY count(*) DESC, {column} COLLATE "C" NULLS FIRST',
        params,
    )
    return {NO_CLASS if key is None else str(key): int(n) for key, n in rows}


def _stats(conn: Connection, include_stale: bool) -> StoreStats:
    where, params = _filters(None, include_stale)
    return assemble_stats(
        conn.execute, lambda column: grouped(conn, column, where, params), "stale", "%s"
    )


def scans(conn: Connection, repo: str | None) -> list[ScanInfo]:
    sql = f"SELECT {SCAN_COLUMNS} FROM scans"
    if repo is None:
        rows = conn.execute(sql + " ORDER BY id DESC")
    else:
        rows = conn.execute(sql + " WHERE repo = %s ORDER BY id DESC", (repo,))
    return [scan_info(row) for row in rows]


def _filters(repo: str | None, include_stale: bool, prefix: str = "") -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if not include_stale:
        clauses.append(f"NOT {prefix}stale")
    if repo is not None:
        clauses.append(f"{prefix}repo = %s")
        params.append(repo)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params
