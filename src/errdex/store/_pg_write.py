"""Writing to the PostgreSQL store: a scan in one transaction, an analyst's rewrite, the
inputs fingerprint of incremental scans.

Concurrent writers are the point of a shared database, so every write takes, inside its
transaction, the advisory lock of each repository it writes (:func:`repo_lock`): scans
of one repository run one after the other and commit in the order of their scan ids, so
the latest scan wins (an older release's adds versions only: ``errdex.store.releases``)
and marks stale exactly what it did not see; scans of different
repositories proceed side by side and meet only at the write counter, bumped last.
"""

from __future__ import annotations

import json
import re
import secrets
from collections.abc import Iterable
from typing import Any

import psycopg

from ._pg_layout import (
    COPY_INCOMING,
    INCOMING,
    INSERT_OLDER,
    INSERT_SCAN,
    UPDATE_RECORD,
    UPSERT_RECORDS,
    UPSERT_VERSIONS,
)
from ._pg_open import Connection, repo_lock, shown_url
from ._sqlite_cache import CatalogueChanged
from ._sqlite_layout import CHUNK
from ._sqlite_write import _record_row as record_row  # the same checks, one place
from ._sqlite_write import dumps, scan_params, window
from .base import ScanSummary
from .errors import StoreError
from .listing import fold
from .releases import is_older, release_of

__all__ = [
    "Items",
    "data_version",
    "search_columns",
    "touch_scan",
    "update_records",
    "vouched_fingerprint",
    "write_scan",
]

Items = Iterable[tuple[dict[str, Any], dict[str, Any]]]

_WORD = re.compile(r"[^\W_]+")


def _words(*parts: object) -> str:
    """The words of ``parts`` as SQLite's FTS5 tokenizer splits them, space-separated."""
    text = " ".join(part for part in parts if isinstance(part, str))
    return " ".join(_WORD.findall(fold(text)))


def search_columns(record: dict[str, Any], evidence: dict[str, Any]) -> tuple[Any, ...]:
    """``(message, pattern, related, *the four texts of the tsvector)``: what search and
    the record page read without parsing the record. Message and pattern are JSON
    strings, since PostgreSQL text cannot hold the NUL a message may contain."""
    site = evidence.get("site")
    qualified = site.get("qualifiedClass") if isinstance(site, dict) else None
    tags = record.get("tags")
    related = evidence.get("related")
    return (
        json.dumps(record.get("errorMessage") or ""),
        json.dumps(record.get("messagePattern") or ""),
        [r for r in related if isinstance(r, str)] if isinstance(related, list) else [],
        _words(record.get("errorMessage"), record.get("errorCode")),
        _words(record.get("errorClass"), qualified),
        _words(record.get("filePath")),
        _words(*(tags if isinstance(tags, list) else []), record.get("backgroundTag")),
    )


def write_scan(
    conn: Connection,
    url: str,
    summary: ScanSummary,
    items: Items,
    dataset_version: str,
    inputs: str | None = None,
) -> int:
    """Store one scan atomically and return its id (as :meth:`SqliteStore.write_scan`)."""
    try:
        with conn.transaction():
            repo_lock(conn, summary.repo)
            older = _older_release(conn, summary)
            scan_id = _insert_scan(conn, summary, dataset_version)
            count = _write_items(conn, scan_id, summary, items, older)
            conn.execute("UPDATE scans SET records = %s WHERE id = %s", (count, scan_id))
            if not older:
                conn.execute(
                    "UPDATE records SET stale = TRUE "
                    "WHERE repo = %s AND NOT stale AND scan_id < %s",
                    (summary.repo, scan_id),
                )
            _bump_data_version(conn)
            if inputs is not None and not older:
                _note_inputs(conn, summary.repo, scan_id, inputs)
    except (psycopg.Error, UnicodeEncodeError) as exc:
        raise StoreError(
            f"could not write the scan of {summary.repo} to {shown_url(url)}: {exc}"
        ) from exc
    return scan_id


def _older_release(conn: Connection, summary: ScanSummary) -> bool:
    """As ``_sqlite_write.older_release``: a scan of an older release than one catalogued."""
    rows = conn.execute(
        "SELECT version, ref, ref_kind FROM scans WHERE repo = %s", (summary.repo,)
    ).fetchall()
    release = release_of(summary.version, summary.ref, summary.ref_kind)
    return is_older(release, (release_of(*row) for row in rows))


def _pg_window(record: dict[str, Any]) -> tuple[str | None, int | None]:
    """The window as PostgreSQL text can hold it (no NUL)."""
    code, start = window(record)
    return (code.replace("\x00", "\ufffd") if code is not None else None), start


def _insert_scan(conn: Connection, summary: ScanSummary, dataset_version: str) -> int:
    row = conn.execute(INSERT_SCAN, scan_params(summary, dataset_version)).fetchone()
    assert row is not None
    return int(row[0])


def _write_items(
    conn: Connection, scan_id: int, summary: ScanSummary, items: Items, older: bool
) -> int:
    """``COPY`` the pairs into the session's ``incoming`` table, then upsert them all in
    one statement, in id order (so writers lock rows in one order); return how many. An
    ``older`` release's records are added only where missing, as stale ones."""
    seen: dict[str, str] = {}
    count = 0
    conn.execute(INCOMING)
    with conn.cursor() as cursor:
        with cursor.copy(COPY_INCOMING) as copy:
            for record, evidence in items:
                row = record_row(record, evidence, scan_id, summary.repo, seen)
                copy.write_row(
                    (*row[:9], *row[11:], *search_columns(record, evidence), *_pg_window(record))
                )
                count += 1
        if count:
            cursor.execute(INSERT_OLDER if older else UPSERT_RECORDS, {"scan": scan_id})
            pin = summary.commit or summary.ref or ""
            keys = {"pin": pin, "commit": summary.commit, "ref": summary.ref, "scan": scan_id}
            cursor.execute(UPSERT_VERSIONS, keys)
        cursor.execute("DELETE FROM incoming")
    return count


def update_records(conn: Connection, url: str, items: Items) -> int:
    """Replace record and evidence of existing ids (as :meth:`SqliteStore.update_records`)."""
    pairs = sorted(items, key=lambda pair: str(pair[0]["id"]))
    rows = [
        (dumps(record), dumps(evidence), *search_columns(record, evidence), record["id"])
        for record, evidence in pairs
    ]
    try:
        with conn.transaction():
            wanted = [row[-1] for row in rows]
            found = conn.execute(
                "SELECT id, repo FROM records WHERE id = ANY(%s)", (wanted,)
            ).fetchall()
            known = {str(i): str(repo) for i, repo in found}
            unknown = [record_id for record_id in wanted if record_id not in known]
            if unknown:
                raise StoreError(
                    f"cannot update records that are not in {shown_url(url)}: "
                    f"{', '.join(unknown[:5])}; scan the repository first"
                )
            for repo in sorted(set(known.values())):
                repo_lock(conn, repo)
            with conn.cursor() as cursor:
                for start in range(0, len(rows), CHUNK):
                    cursor.executemany(UPDATE_RECORD, rows[start : start + CHUNK])
            _bump_data_version(conn)
    except (psycopg.Error, UnicodeEncodeError) as exc:
        raise StoreError(f"could not update records in {shown_url(url)}: {exc}") from exc
    return len(rows)


def _bump_data_version(conn: Connection) -> None:
    """Count a write, starting at a random number (see ``_sqlite_write._bump_data_version``)."""
    conn.execute(
        "INSERT INTO meta (key, value) VALUES ('data_version', %s) "
        "ON CONFLICT (key) DO UPDATE SET value = (meta.value::bigint + 1)::text",
        (str(secrets.randbelow(1 << 40) + (1 << 40)),),
    )


def data_version(conn: Connection) -> int:
    """The store's write counter (0 before the first write)."""
    row = conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
    return int(str(row[0])) if row else 0


# -- incremental scans (as ``_sqlite_cache``) --------------------------------------------


def _note_inputs(conn: Connection, repo: str, scan_id: int, fingerprint: str) -> None:
    conn.execute(
        "INSERT INTO scan_inputs (repo, scan_id, fingerprint, data_version) "
        "VALUES (%s, %s, %s, %s) ON CONFLICT (repo) DO UPDATE SET scan_id = excluded.scan_id, "
        "fingerprint = excluded.fingerprint, data_version = excluded.data_version",
        (repo, scan_id, fingerprint, data_version(conn)),
    )


def vouched_fingerprint(conn: Connection, repo: str) -> str | None:
    """The fingerprint of the inputs ``repo``'s current records came from, while the
    repository's latest scan wrote it and nothing wrote since."""
    row = conn.execute(
        "SELECT i.scan_id, i.fingerprint, i.data_version, "
        "(SELECT max(id) FROM scans WHERE repo = i.repo) FROM scan_inputs AS i WHERE i.repo = %s",
        (repo,),
    ).fetchone()
    if row is None or row[0] != row[3] or row[2] != data_version(conn):
        return None
    return str(row[1])


def touch_scan(
    conn: Connection, url: str, summary: ScanSummary, dataset_version: str, fingerprint: str
) -> int:
    """A new scan over the same records, none rewritten (as ``_sqlite_cache.touch_scan``)."""
    try:
        with conn.transaction():
            repo_lock(conn, summary.repo)
            if vouched_fingerprint(conn, summary.repo) != fingerprint:
                raise CatalogueChanged(
                    f"{shown_url(url)} changed since the scan of {summary.repo} began; scan again"
                )
            row = conn.execute(
                "SELECT scan_id FROM scan_inputs WHERE repo = %s", (summary.repo,)
            ).fetchone()
            assert row is not None
            scan_id = _insert_scan(conn, summary, dataset_version)
            cursor = conn.execute(
                "UPDATE records SET scan_id = %s WHERE repo = %s AND NOT stale",
                (scan_id, summary.repo),
            )
            conn.execute("UPDATE scans SET records = %s WHERE id = %s", (cursor.rowcount, scan_id))
            conn.execute(
                "UPDATE record_versions SET scan_id = %s WHERE scan_id = %s", (scan_id, row[0])
            )
            _bump_data_version(conn)
            _note_inputs(conn, summary.repo, scan_id, fingerprint)
    except psycopg.Error as exc:
        raise StoreError(
            f"could not write the scan of {summary.repo} to {shown_url(url)}: {exc}"
        ) from exc
    return scan_id
