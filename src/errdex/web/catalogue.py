"""What the site reads from the store: one query per page, on one reader per thread.

The queries live behind the store (``Store.record_page``, ``repo_infos``, ``search``…),
so the site serves an SQLite file and a PostgreSQL database alike. A reader (a
:class:`~errdex.store.Store` opened with ``reader=True``) is used by one thread at a
time, and FastAPI runs sync endpoints on a thread pool, so each thread opens its own
(for SQLite: query-only, WAL, so readers never block the scanner). The pool ends idle
threads and starts new ones under the next burst, so a reader is closed when its thread
ends: kept, one leaked per thread and memory grew with every burst of load. Aggregates
that scan a whole repository (counts by class, the repository list) are cached until
the store's write counters move, which the app polls in the background.
"""

from __future__ import annotations

import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import replace
from typing import Any, TypeVar

from errdex.store import Store, open_store
from errdex.store.base import COUNT_COLUMNS
from errdex.store.listing import ErrorFilters, RecordPage, Related, RepoInfo, SearchHit, SearchQuery

__all__ = ["Catalogue", "ErrorFilters", "RecordPage", "Related", "RepoInfo"]

T = TypeVar("T")


class _Reader:
    """One thread's connection, held only by that thread's locals: when the thread ends
    they go, and the finalizer closes the connection."""

    __slots__ = ("__weakref__", "store")

    def __init__(self, store: Store) -> None:
        self.store = store
        weakref.finalize(self, store.close)


class Catalogue:
    """Read access to one errdex catalogue (an SQLite path or a PostgreSQL URL)."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._readers: weakref.WeakSet[_Reader] = weakref.WeakSet()
        self._streams: set[Store] = set()
        self._lock = threading.Lock()
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._version: tuple[int, int] | None = None

    # -- connections and cache ----------------------------------------------------------

    def reader(self) -> Store:
        """This thread's reader (a reader is used by one thread at a time)."""
        reader: _Reader | None = getattr(self._local, "reader", None)
        if reader is None:
            reader = _Reader(self._connect())
            self._local.reader = reader
            with self._lock:
                self._readers.add(reader)
        return reader.store

    def open_readers(self) -> int:
        """How many thread readers are open (they close as their threads end)."""
        with self._lock:
            return len(self._readers)

    def _connect(self) -> Store:
        return open_store(self.path, reader=True)

    def note_version(self) -> bool:
        """Re-read the store's write counters; drop cached aggregates if they moved."""
        version = self.reader().store_version()
        if version == self._version:
            return False
        with self._lock:
            self._version = version
            self._cache.clear()
        return True

    def _cached(self, key: tuple[Any, ...], compute: Callable[[], T]) -> T:
        if self._version is None:
            self.note_version()
        try:
            return self._cache[key]  # type: ignore[no-any-return]
        except KeyError:
            value = compute()
            with self._lock:
                self._cache[key] = value
            return value

    def close(self) -> None:
        """Close every reader; only when no request is running (app shutdown)."""
        with self._lock:
            opened = [reader.store for reader in self._readers] + list(self._streams)
            self._readers = weakref.WeakSet()
            self._streams = set()
        for store in opened:
            store.close()
        self._local = threading.local()

    # -- records ------------------------------------------------------------------------

    def raw_envelope(self, record_id: str) -> bytes | None:
        """The API envelope as JSON bytes, joined from the stored JSON without re-parsing it."""
        return self.reader().raw_envelope(record_id)

    def page(self, record_id: str) -> RecordPage | None:
        return self.reader().record_page(record_id)

    def locate(self, record_id: str) -> tuple[str, str] | None:
        """``(repo, slug)`` of a record, to redirect short links to its canonical page."""
        return self.reader().locate(record_id)

    def find_slug(self, repo: str, slug: str) -> str | None:
        """The id of ``repo``'s record with ``slug``."""
        return self.reader().find_slug(repo, slug)

    def search(self, query: SearchQuery) -> tuple[list[SearchHit], bool]:
        """One page of search hits (the index is kept current by the app's poller)."""
        return self.reader().search(query)

    def record_links(self, limit: int, offset: int) -> list[tuple[str, str, str]]:
        """``(repo, id, slug)`` of current records in catalogue order (the sitemap)."""
        return self.reader().record_links(limit, offset)

    def dataset_lines(self, repo: str) -> Iterator[bytes]:
        """A repository's current envelopes as JSON lines, on a reader of its own.

        A streamed response is pulled from whichever pool thread is free, so this
        generator cannot use a thread's reader.
        """
        store = self._connect()
        with self._lock:
            self._streams.add(store)
        try:
            yield from store.envelope_lines(repo)
        finally:
            with self._lock:
                self._streams.discard(store)
            store.close()

    # -- repositories -------------------------------------------------------------------

    def repos(self) -> list[RepoInfo]:
        """Every repository with current records, with counts and its latest scan,
        by name ignoring case (``HypothesisWorks`` among the h's, not before ``acme``)."""
        return self._cached(("repos",), lambda: self.reader().repo_infos())

    def repo(self, name: str) -> RepoInfo | None:
        """One repository with its counts by class, type and severity."""
        return self._cached(("repo", name), lambda: self._repo(name))

    def _repo(self, name: str) -> RepoInfo | None:
        found = next((r for r in self.repos() if r.repo == name), None)
        if found is None:
            return None
        reader = self.reader()
        by_class, by_type, by_severity = (reader.repo_counts(name, c) for c in COUNT_COLUMNS)
        return replace(found, byClass=by_class, byType=by_type, bySeverity=by_severity)

    def repo_errors(
        self, repo: str, filters: ErrorFilters, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of a repository's current errors in file order, and how many match."""
        return self.reader().repo_errors(repo, filters, limit, offset)
