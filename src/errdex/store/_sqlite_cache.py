"""The catalogue's side of incremental scans: which inputs its current records came from.

``scan_inputs`` holds, per repository, the fingerprint of every input of the scan that
wrote its current records (:mod:`errdex.scan_reuse`), that scan's id, and the store's
write counter just after it. It is written in the scan's own transaction, so it can
vouch for the records only while the row names the repository's latest scan and no
write (an ``errdex analyze``, a harvest, another scan) came after: then a scan whose
inputs have the same fingerprint would write the same records, and :func:`touch_scan`
records a new scan over them without rewriting one.

The table is created when first written; a catalogue from before it simply has no
fingerprints, so its first scan is a full one. Nothing else of the layout changes.
"""

from __future__ import annotations

import sqlite3

from ._sqlite_open import transaction
from ._sqlite_write import _bump_data_version, _insert_scan, data_version
from .base import ScanSummary
from .errors import StoreError

__all__ = ["CatalogueChanged", "note_inputs", "touch_scan", "vouched_fingerprint"]

_TABLE = """
CREATE TABLE IF NOT EXISTS scan_inputs (
    repo         TEXT PRIMARY KEY,
    scan_id      INTEGER NOT NULL,
    fingerprint  TEXT NOT NULL,
    data_version INTEGER NOT NULL
)
"""


class CatalogueChanged(StoreError):
    """The catalogue no longer vouches for the fingerprint: scan in full."""


def vouched_fingerprint(conn: sqlite3.Connection, repo: str) -> str | None:
    """The fingerprint of the inputs ``repo``'s current records came from, if the
    catalogue can still vouch for it (see the module docstring)."""
    try:
        row = conn.execute(
            "SELECT scan_id, fingerprint, data_version FROM scan_inputs WHERE repo = ?", (repo,)
        ).fetchone()
    except sqlite3.OperationalError:
        return None  # a catalogue from before incremental scans
    if row is None:
        return None
    latest = conn.execute("SELECT max(id) FROM scans WHERE repo = ?", (repo,)).fetchone()[0]
    if row[0] != latest or row[2] != data_version(conn):
        return None
    return str(row[1])


def note_inputs(conn: sqlite3.Connection, repo: str, scan_id: int, fingerprint: str) -> None:
    """Inside the scan's transaction, after its writes: vouch for its records' inputs."""
    conn.execute(_TABLE)
    conn.execute(
        "INSERT INTO scan_inputs (repo, scan_id, fingerprint, data_version) VALUES (?, ?, ?, ?) "
        "ON CONFLICT (repo) DO UPDATE SET scan_id = excluded.scan_id, "
        "fingerprint = excluded.fingerprint, data_version = excluded.data_version",
        (repo, scan_id, fingerprint, data_version(conn)),
    )


def touch_scan(
    conn: sqlite3.Connection,
    path: str,
    summary: ScanSummary,
    dataset_version: str,
    fingerprint: str,
) -> int:
    """Record a scan whose inputs are unchanged: a new scan row over the same records,
    none rewritten; returns its id. Raises :class:`CatalogueChanged` (nothing written)
    when the catalogue stopped vouching for ``fingerprint`` since it was read."""
    try:
        with transaction(conn):
            if vouched_fingerprint(conn, summary.repo) != fingerprint:
                raise CatalogueChanged(
                    f"{path} changed since the scan of {summary.repo} began; scan again"
                )
            previous = conn.execute(
                "SELECT scan_id FROM scan_inputs WHERE repo = ?", (summary.repo,)
            ).fetchone()[0]
            scan_id = _insert_scan(conn, summary, dataset_version)
            cursor = conn.execute(
                "UPDATE records SET scan_id = ? WHERE repo = ? AND stale = 0",
                (scan_id, summary.repo),
            )
            conn.execute("UPDATE scans SET records = ? WHERE id = ?", (cursor.rowcount, scan_id))
            conn.execute(
                "UPDATE record_versions SET scan_id = ? WHERE scan_id = ?", (scan_id, previous)
            )
            _bump_data_version(conn)
            note_inputs(conn, summary.repo, scan_id, fingerprint)
    except sqlite3.Error as exc:
        raise StoreError(f"could not write the scan of {summary.repo} to {path}: {exc}") from exc
    return scan_id
