"""The shared store: one PostgreSQL database that many processes read and write at once.

:class:`PostgresStore` is the :class:`~errdex.store.base.Store` over one ``psycopg``
connection, with SQLite's semantics (atomic scans, stale records, versions, the write
counter). The work is split by job as SQLite's is: the layout (``_pg_layout``), opening
(``_pg_open``), writing (``_pg_write``), reading (``_pg_read``), search (``_pg_search``)
and the site's queries (``_pg_site``).
"""

from __future__ import annotations

import contextlib
from collections.abc import Iterator, Sequence
from typing import Any

import psycopg

from . import _pg_read as read
from . import _pg_releases as releases
from . import _pg_search as fts
from . import _pg_site as site
from . import _pg_write as write
from ._pg_open import Connection, connect, shown_url
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
)
from .errors import StoreError
from .listing import ErrorFilters, RecordPage, RepoInfo, SearchHit, SearchQuery

__all__ = ["PostgresStore"]


class PostgresStore(Closing):
    """errdex's store in a PostgreSQL database given by URL (``postgresql://…``).

    Opening creates the tables in an empty database and refuses one holding anything
    else. Each instance holds one connection: use one per thread.
    """

    def __init__(self, url: str, *, reader: bool = False) -> None:
        self.path = url
        self._reader = reader
        self._closed = False
        self._connection = connect(url, reader=reader)

    @property
    def _conn(self) -> Connection:
        """The connection, opened again when the server dropped it (a restart, an
        administrator ending idle sessions): a long-lived server's reader must not stay
        broken. The call that found it dropped has failed with a :class:`StoreError`."""
        if self._connection.closed and not self._closed:
            self._connection = connect(self.path, reader=self._reader)
        return self._connection

    def _guard(self, what: str) -> contextlib.AbstractContextManager[None]:
        return _errors_as_store_errors(f"cannot {what} {shown_url(self.path)}")

    # -- writing -------------------------------------------------------------------

    def write_scan(
        self,
        summary: ScanSummary,
        items: write.Items,
        dataset_version: str,
        inputs: str | None = None,
    ) -> int:
        """Store one scan atomically (see :meth:`SqliteStore.write_scan`); concurrent
        scans of one repository are serialised, of different ones run side by side."""
        return write.write_scan(self._conn, self.path, summary, items, dataset_version, inputs)

    def vouched_fingerprint(self, repo: str) -> str | None:
        with self._guard("read"):
            return write.vouched_fingerprint(self._conn, repo)

    def touch_scan(self, summary: ScanSummary, dataset_version: str, inputs: str) -> int:
        return write.touch_scan(self._conn, self.path, summary, dataset_version, inputs)

    def update_records(self, items: write.Items) -> int:
        return write.update_records(self._conn, self.path, items)

    def data_version(self) -> int:
        with self._guard("read"):
            return write.data_version(self._conn)

    # -- reading -------------------------------------------------------------------

    def get(self, record_id: str) -> dict[str, Any] | None:
        with self._guard("read a record from"):
            return read.get(self._conn, record_id)

    def status(self, record_id: str) -> RecordStatus | None:
        with self._guard("read a record from"):
            return read.status(self._conn, record_id)

    def iter_envelopes(
        self, repo: str | None = None, *, include_stale: bool = False
    ) -> Iterator[dict[str, Any]]:
        return read.iter_envelopes(self._conn, self.path, repo, include_stale)

    def stats(self, *, include_stale: bool = False) -> StoreStats:
        return read.stats(self._conn, self.path, include_stale)

    def iter_record_versions(
        self, repo: str | None = None
    ) -> Iterator[tuple[str, str, RecordVersion]]:
        return read.iter_record_versions(self._conn, self.path, repo)

    def scans(self, repo: str | None = None) -> list[ScanInfo]:
        with self._guard("read scans from"):
            return read.scans(self._conn, repo)

    def version_windows(self, record_id: str) -> dict[int, tuple[str, int]]:
        with self._guard("read a record from"):
            return releases.version_windows(self._conn, record_id)

    def release_rows(
        self, repo: str, pins: Sequence[str], limit: int, offset: int
    ) -> list[ReleaseRow]:
        with self._guard("list records in"):
            return releases.release_rows(self._conn, repo, pins, limit, offset)

    def note_source(self, repo: str, scan_id: int, source: NotedSource) -> None:
        with self._guard("note a source in"):
            releases.note_source(self._conn, repo, scan_id, source)

    def noted_source(self, repo: str) -> NotedSource | None:
        with self._guard("read a source from"):
            return releases.noted_source(self._conn, repo)

    # -- what the site reads -----------------------------------------------------------

    def store_version(self) -> tuple[int, int]:
        with self._guard("read"):
            row = self._conn.execute("SELECT max(id) FROM scans").fetchone()
            return int(row[0] or 0) if row else 0, write.data_version(self._conn)

    def refresh_search(self) -> bool:
        """Nothing to do: the search column is written with each record."""
        return False

    def search(self, query: SearchQuery) -> tuple[list[SearchHit], bool]:
        with self._guard("search"):
            return fts.search(self._conn, query)

    def raw_envelope(self, record_id: str) -> bytes | None:
        with self._guard("read a record from"):
            return site.raw_envelope(self._conn, record_id)

    def record_page(self, record_id: str) -> RecordPage | None:
        with self._guard("read a record from"):
            return site.record_page(self._conn, record_id)

    def locate(self, record_id: str) -> tuple[str, str] | None:
        with self._guard("read a record from"):
            return site.locate(self._conn, record_id)

    def find_slug(self, repo: str, slug: str) -> str | None:
        with self._guard("read a record from"):
            return site.find_slug(self._conn, repo, slug)

    def envelope_lines(self, repo: str) -> Iterator[bytes]:
        return site.envelope_lines(self._conn, repo)

    def repo_infos(self) -> list[RepoInfo]:
        with self._guard("list repositories in"):
            return site.repo_infos(self._conn)

    def repo_counts(self, repo: str, column: CountColumn) -> dict[str, int]:
        if column not in COUNT_COLUMNS:
            raise ValueError(f"cannot count records by {column!r}")
        with self._guard("count records in"):
            return site.repo_counts(self._conn, repo, column)

    def repo_errors(
        self, repo: str, filters: ErrorFilters, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        with self._guard("list records in"):
            return site.repo_errors(self._conn, repo, filters, limit, offset)

    def record_links(self, limit: int, offset: int) -> list[tuple[str, str, str]]:
        with self._guard("list records in"):
            return site.record_links(self._conn, limit, offset)

    # -- lifetime ------------------------------------------------------------------

    def close(self) -> None:
        self._closed = True
        self._connection.close()

    def __repr__(self) -> str:
        return f"PostgresStore({shown_url(self.path)!r})"


@contextlib.contextmanager
def _errors_as_store_errors(prefix: str) -> Iterator[None]:
    try:
        yield
    except psycopg.Error as exc:
        raise StoreError(f"{prefix}: {exc}") from exc
