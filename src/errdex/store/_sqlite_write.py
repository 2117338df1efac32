"""Writing to the SQLite store: a scan in one transaction, an analyst's rewrite of records.

Every write bumps ``meta.data_version``, which derived data (the match index, the search
index) compares to know when to rebuild.
"""

from __future__ import annotations

import json
import secrets
import sqlite3
from collections.abc import Iterable
from itertools import islice
from typing import Any

from ._sqlite_layout import CHUNK, INSERT_OLDER, INSERT_SCAN, UPSERT_RECORD, UPSERT_VERSION
from ._sqlite_open import transaction
from .base import ScanSummary
from .errors import StoreError
from .releases import is_older, release_of

__all__ = [
    "Items",
    "data_version",
    "dumps",
    "older_release",
    "update_records",
    "write_scan",
]

Items = Iterable[tuple[dict[str, Any], dict[str, Any]]]

#: Compact JSON that keeps key order and non-ASCII text as written (one encoder, reused).
_dumps_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_dumps_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def dumps(value: Any) -> str:
    """JSON text SQLite can store: lone surrogates (a string literal such as
    ``"\\udc80"`` in scanned code) are not UTF-8, so such values are written escaped."""
    text = _dumps_text(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _dumps_ascii(value)
    return text


def write_scan(
    conn: sqlite3.Connection,
    path: str,
    summary: ScanSummary,
    items: Items,
    dataset_version: str,
    inputs: str | None = None,
) -> int:
    """Store one scan atomically and return its id (see :meth:`SqliteStore.write_scan`);
    ``inputs`` is the fingerprint of the scan's inputs, kept for incremental scans."""
    try:
        with transaction(conn):
            older = older_release(conn, summary)
            scan_id = _insert_scan(conn, summary, dataset_version)
            count = _write_items(conn, scan_id, summary, items, older)
            conn.execute("UPDATE scans SET records = ? WHERE id = ?", (count, scan_id))
            if not older:
                # Scan ids only grow, so "not seen by this scan" is "scan_id < this one".
                conn.execute(
                    "UPDATE records SET stale = 1 WHERE repo = ? AND stale = 0 AND scan_id < ?",
                    (summary.repo, scan_id),
                )
            _bump_data_version(conn)
            if inputs is not None and not older:
                from ._sqlite_cache import note_inputs  # it builds on this module

                note_inputs(conn, summary.repo, scan_id, inputs)
    except sqlite3.Error as exc:
        raise StoreError(f"could not write the scan of {summary.repo} to {path}: {exc}") from exc
    return scan_id


def older_release(conn: sqlite3.Connection, summary: ScanSummary) -> bool:
    """Whether the scan is of an older release than one already catalogued (see
    :mod:`errdex.store.releases`): then it adds versions and leaves the current records."""
    rows = conn.execute(
        "SELECT version, ref, ref_kind FROM scans WHERE repo = ?", (summary.repo,)
    ).fetchall()
    release = release_of(summary.version, summary.ref, summary.ref_kind)
    return is_older(release, (release_of(*row) for row in rows))


def scan_params(summary: ScanSummary, dataset_version: str) -> tuple[Any, ...]:
    """The values of ``INSERT_SCAN`` (either backend's) for one scan."""
    return (
        summary.repo,
        summary.commit,
        summary.ref,
        summary.ref_kind,
        summary.origin,
        summary.version,
        summary.started_at,
        summary.finished_at,
        float(summary.seconds),
        summary.files_read,
        summary.files_excluded,
        summary.sites,
        summary.records,
        dumps([list(pair) for pair in summary.skipped]),
        dataset_version,
    )


def _insert_scan(conn: sqlite3.Connection, summary: ScanSummary, dataset_version: str) -> int:
    cursor = conn.execute(INSERT_SCAN, scan_params(summary, dataset_version))
    assert cursor.lastrowid is not None
    return cursor.lastrowid


def _write_items(
    conn: sqlite3.Connection, scan_id: int, summary: ScanSummary, items: Items, older: bool
) -> int:
    """Write the pairs in chunks with ``executemany``; return how many were written. An
    ``older`` release's records are added only where missing, as stale ones."""
    pin = summary.commit or summary.ref or ""
    seen: dict[str, str] = {}
    iterator = iter(items)
    count = 0
    while chunk := list(islice(iterator, CHUNK)):
        record_rows: list[tuple[Any, ...]] = []
        version_rows: list[tuple[Any, ...]] = []
        for record, evidence in chunk:
            row = _record_row(record, evidence, scan_id, summary.repo, seen)
            record_rows.append(row)
            version_rows.append(
                (
                    row[0],
                    pin,
                    summary.commit,
                    summary.ref,
                    scan_id,
                    row[2],
                    row[3],
                    *window(record),
                )
            )
        conn.executemany(INSERT_OLDER if older else UPSERT_RECORD, record_rows)
        conn.executemany(UPSERT_VERSION, version_rows)
        count += len(chunk)
    return count


def window(record: dict[str, Any]) -> tuple[str | None, int | None]:
    """The record's source window (text, first line), kept per version."""
    code, start = record.get("sourceCode"), record.get("sourceCodeStart")
    return (
        code if isinstance(code, str) else None,
        start if isinstance(start, int) and isinstance(code, str) else None,
    )


def _record_row(
    record: dict[str, Any],
    evidence: dict[str, Any],
    scan_id: int,
    repo: str,
    seen: dict[str, str],
) -> tuple[Any, ...]:
    try:
        record_id = record["id"]
        row = (
            record_id,
            record["repo"],
            record["filePath"],
            record["lineNumber"],
            record["errorClass"],
            record["errorType"],
            record["severity"],
            record["slug"],
            record["analyzedSha"],
            scan_id,
            scan_id,
            dumps(record),
            dumps(evidence),
        )
    except KeyError as exc:
        raise StoreError(
            f"record {record.get('id')!r} has no {exc.args[0]!r} key; the store takes "
            "schema-2 records as produced by ErrorRecord.to_json()"
        ) from None
    except (TypeError, ValueError) as exc:
        raise StoreError(f"record {record.get('id')!r} is not JSON-serialisable: {exc}") from None
    if row[1] != repo:
        raise StoreError(
            f"record {record_id} belongs to {row[1]!r} but the scan is of {repo!r}; "
            "write each repository's records in its own scan"
        )
    if record_id in seen:
        raise StoreError(
            f"record id {record_id} occurs twice in one scan ({seen[record_id]} and "
            f"{row[2]}:{row[3]}); ids must be unique, so nothing was written"
        )
    seen[record_id] = f"{row[2]}:{row[3]}"
    return row


def update_records(conn: sqlite3.Connection, path: str, items: Items) -> int:
    """Replace record and evidence of existing ids (see :meth:`SqliteStore.update_records`)."""
    rows = [(dumps(record), dumps(evidence), record["id"]) for record, evidence in items]
    try:
        with transaction(conn):
            for start in range(0, len(rows), CHUNK):
                chunk = rows[start : start + CHUNK]
                before = conn.total_changes
                conn.executemany("UPDATE records SET record = ?, evidence = ? WHERE id = ?", chunk)
                if conn.total_changes - before != len(chunk):
                    _refuse_unknown(conn, path, [row[2] for row in chunk])
            _bump_data_version(conn)
    except sqlite3.Error as exc:
        raise StoreError(f"could not update records in {path}: {exc}") from exc
    return len(rows)


def _refuse_unknown(conn: sqlite3.Connection, path: str, wanted: list[str]) -> None:
    marks = ",".join("?" * len(wanted))
    known = {r[0] for r in conn.execute(f"SELECT id FROM records WHERE id IN ({marks})", wanted)}
    unknown = [record_id for record_id in wanted if record_id not in known]
    raise StoreError(
        f"cannot update records that are not in {path}: "
        f"{', '.join(unknown[:5])}; scan the repository first"
    )


def _bump_data_version(conn: sqlite3.Connection) -> None:
    """Count a write. The first write starts the count at a random number, so that a
    catalogue removed and built again at the same path never repeats an old one's
    versions (an index saved beside or for the old file would otherwise pass for its)."""
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('data_version', ?) "
        "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1",
        (str(secrets.randbelow(1 << 40) + (1 << 40)),),
    )


def data_version(conn: sqlite3.Connection) -> int:
    """The store's write counter (0 before the first write)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
    return int(row[0]) if row else 0
