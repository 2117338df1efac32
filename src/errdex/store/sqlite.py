"""The embedded store: one SQLite file in WAL mode, stdlib ``sqlite3`` only.

:class:`SqliteStore` is the :class:`~errdex.store.base.Store` over one connection; the
work is split by job: the table layout and shared SQL (``_sqlite_layout``), opening and
migrating a file (``_sqlite_open``), writing (``_sqlite_write``) and reading
(``_sqlite_read``).
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator, Sequence
from pathlib import Path
from typing import Any

from . import _sqlite_cache as _cache
from . import _sqlite_read as read
from . import _sqlite_releases as releases
from . import _sqlite_search as fts
from . import _sqlite_site as site
from . import _sqlite_write as write
from ._sqlite_layout import APPLICATION_ID, LAYOUT_VERSION
from ._sqlite_open import connect, connect_reader
from .base import (
    COUNT_COLUMNS,
    Closing,
    CountColumn,
    NotedSource,
    RecordStatus,
    RecordVersion,
    ReleaseRow,
    ScanInfo,
    ScanSummary,
    StoreStats,
    is_server_url,
    shown_url,
)
from .errors import StoreError
from .listing import ErrorFilters, RecordPage, RepoInfo, SearchHit, SearchQuery

__all__ = ["APPLICATION_ID", "LAYOUT_VERSION", "SqliteStore"]


class SqliteStore(Closing):
    """errdex's embedded store: one SQLite file (or ``":memory:"``) in WAL mode.

    Opening creates the tables in a new or empty file, migrates an older errdex
    layout, and refuses anything else with a :class:`StoreError` rather than
    writing into someone else's database.
    """

    def __init__(self, path: str | Path, *, reader: bool = False) -> None:
        """``reader=True`` opens a query-only connection that any thread may use (one at a
        time) and that never takes the write lock: the site's per-thread readers."""
        if is_server_url(path):
            raise StoreError(
                f"{shown_url(str(path))} is a PostgreSQL URL, and this needs an SQLite file: "
                "give a file path (every verb but verify and build's parts takes either)"
            )
        self.path = str(path)
        self._conn = connect_reader(self.path) if reader else connect(self.path)

    # -- writing -------------------------------------------------------------------

    def write_scan(
        self,
        summary: ScanSummary,
        items: write.Items,
        dataset_version: str,
        inputs: str | None = None,
    ) -> int:
        """Store one scan atomically and return its id.

        Records are upserted by ``id`` (the latest scan wins); each gets a version row, with
        its source window, for this scan's commit (else ref). A scan of an older release
        than one already catalogued (:mod:`errdex.store.releases`) only adds its versions
        and, as stale, the records only it holds. Records of ``summary.repo`` that this scan did not
        see are marked stale, not deleted. The stored ``records`` count is the number of
        items written, since a generator's length is not known up front. All records must
        belong to ``summary.repo`` and ids must be unique within the scan; otherwise
        nothing is written and :class:`StoreError` says which record is at fault.
        ``inputs``, the fingerprint of the scan's inputs, lets a later scan with the same
        inputs skip rewriting them (:meth:`touch_scan`).
        """
        return write.write_scan(self._conn, self.path, summary, items, dataset_version, inputs)

    def vouched_fingerprint(self, repo: str) -> str | None:
        """The inputs fingerprint ``repo``'s current records came from, while nothing has
        written since (see :mod:`errdex.store._sqlite_cache`)."""
        return _cache.vouched_fingerprint(self._conn, repo)

    def touch_scan(self, summary: ScanSummary, dataset_version: str, inputs: str) -> int:
        """A scan with unchanged inputs: a new scan over the same records, none rewritten."""
        return _cache.touch_scan(self._conn, self.path, summary, dataset_version, inputs)

    def update_records(self, items: write.Items) -> int:
        """Replace the record and evidence of existing ids (an analyst's output).

        Location, class and scan bookkeeping stay as the scan wrote them; an id that is
        not in the store is an error and nothing is written. Returns the number updated.
        """
        return write.update_records(self._conn, self.path, items)

    def data_version(self) -> int:
        """A number that grows with every write: derived data (match index, search
        index) compares it to know when to rebuild."""
        return write.data_version(self._conn)

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection, for modules that keep their own tables in the same file
        (search index, model-answer cache). They must not touch the store's tables."""
        return self._conn

    # -- reading -------------------------------------------------------------------

    def get(self, record_id: str) -> dict[str, Any] | None:
        """The envelope of a record, stale or not (pages of vanished errors stay up)."""
        return read.get(self._conn, record_id)

    def status(self, record_id: str) -> RecordStatus | None:
        """Whether the record is current, and the versions it was seen in (oldest first)."""
        return read.status(self._conn, record_id)

    def iter_envelopes(
        self, repo: str | None = None, *, include_stale: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Envelopes ordered by repo, filePath, lineNumber; current records only by default."""
        return read.iter_envelopes(self._conn, self.path, repo, include_stale)

    def stats(self, *, include_stale: bool = False) -> StoreStats:
        """Counts for an overview: per repo, class, type, severity, and the latest scans."""
        return read.stats(self._conn, self.path, include_stale)

    def iter_record_versions(
        self, repo: str | None = None
    ) -> Iterator[tuple[str, str, RecordVersion]]:
        """``(record id, repo, version)`` for every version of every record (see :class:`Store`)."""
        return read.iter_record_versions(self._conn, self.path, repo)

    def scans(self, repo: str | None = None) -> list[ScanInfo]:
        """Stored scans with their summaries, newest first."""
        return read.scans(self._conn, repo)

    def version_windows(self, record_id: str) -> dict[int, tuple[str, int]]:
        """The record's source window per version, by scan id (see :class:`Store`)."""
        return releases.version_windows(self._conn, record_id)

    def release_rows(
        self, repo: str, pins: Sequence[str], limit: int, offset: int
    ) -> list[ReleaseRow]:
        """One page of the records one release holds, at their places there."""
        return releases.release_rows(self._conn, repo, pins, limit, offset)

    def note_source(self, repo: str, scan_id: int, source: NotedSource) -> None:
        """Keep where ``repo`` was scanned from, for ``errdex analyze``."""
        releases.note_source(self._conn, self.path, repo, scan_id, source)

    def noted_source(self, repo: str) -> NotedSource | None:
        return releases.noted_source(self._conn, repo)

    # -- what the site reads -----------------------------------------------------------

    def store_version(self) -> tuple[int, int]:
        """``(latest scan id, write counter)``, which the search index and caches follow."""
        return fts.store_version(self._conn)

    def refresh_search(self) -> bool:
        """Re-index in the FTS5 tables what scans and analysts wrote since the last time."""
        return fts.refresh(self._conn)

    def search(self, query: SearchQuery) -> tuple[list[SearchHit], bool]:
        """FTS5 (BM25) over the index :meth:`refresh_search` keeps."""
        return fts.search(self._conn, query)

    def raw_envelope(self, record_id: str) -> bytes | None:
        return site.raw_envelope(self._conn, record_id)

    def record_page(self, record_id: str) -> RecordPage | None:
        return site.record_page(self._conn, record_id)

    def locate(self, record_id: str) -> tuple[str, str] | None:
        return site.locate(self._conn, record_id)

    def find_slug(self, repo: str, slug: str) -> str | None:
        return site.find_slug(self._conn, repo, slug)

    def envelope_lines(self, repo: str) -> Iterator[bytes]:
        return site.envelope_lines(self._conn, repo)

    def repo_infos(self) -> list[RepoInfo]:
        return site.repo_infos(self._conn)

    def repo_counts(self, repo: str, column: CountColumn) -> dict[str, int]:
        if column not in COUNT_COLUMNS:
            raise ValueError(f"cannot count records by {column!r}")
        return site.repo_counts(self._conn, repo, column)

    def repo_errors(
        self, repo: str, filters: ErrorFilters, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        return site.repo_errors(self._conn, repo, filters, limit, offset)

    def record_links(self, limit: int, offset: int) -> list[tuple[str, str, str]]:
        return site.record_links(self._conn, limit, offset)

    # -- lifetime ------------------------------------------------------------------

    def close(self) -> None:
        """Let SQLite refresh its planner statistics, then release the file."""
        conn = self._conn
        with contextlib.suppress(sqlite3.Error):
            conn.execute("PRAGMA optimize")
        conn.close()

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"
