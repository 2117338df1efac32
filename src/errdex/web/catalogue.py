"""What the site reads from the store: one query per page, on one connection per thread.

``sqlite3`` connections may not be shared between threads while in use, and FastAPI
runs sync endpoints on a thread pool, so each thread opens its own reader (query-only,
WAL: readers never block the scanner). The pool ends idle threads and starts new ones
under the next burst, so a reader is closed when its thread ends: kept, one leaked per
thread and memory grew with every burst of load. Aggregates that scan a whole repository
(counts by class, the repository list) are cached until the store's write counter
moves, which the app polls in the background.
"""

from __future__ import annotations

import json
import sqlite3
import threading
import weakref
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field, replace
from typing import Any, TypeVar

from errdex.web.search import json_text, register_functions, store_version

__all__ = ["Catalogue", "ErrorFilters", "RecordPage", "Related", "RepoInfo"]

T = TypeVar("T")

_NO_CLASS = "(none)"

#: The record page in one statement: the record, then the records its evidence relates.
_PAGE_SQL = """
WITH target AS (
    SELECT r.id, r.record, r.evidence, r.stale, s.dataset_version
    FROM records AS r JOIN scans AS s ON s.id = r.scan_id WHERE r.id = ?
)
SELECT 0, id, record, evidence, dataset_version, stale FROM target
UNION ALL
SELECT 1, rel.id, rel.repo, rel.slug, {message}, j.key
FROM target, json_each(target.evidence, '$.related') AS j
JOIN records AS rel ON rel.id = j.value
ORDER BY 1, 6
""".format(message=json_text("rel.record", "errorMessage"))

_RAW_SQL = """
SELECT r.record, r.evidence, s.dataset_version
FROM records AS r JOIN scans AS s ON s.id = r.scan_id WHERE r.id = ?
"""

_REPOS_SQL = """
SELECT r.repo, sum(r.stale = 0), sum(r.stale), count(DISTINCT CASE WHEN r.stale = 0 THEN r.file_path END)
FROM records AS r GROUP BY r.repo ORDER BY r.repo
"""

_SCANS_SQL = """
SELECT repo, commit_sha, ref, version, origin, finished_at, dataset_version
FROM scans ORDER BY id DESC
"""


@dataclass(frozen=True, slots=True)
class Related:
    id: str
    repo: str
    slug: str
    errorMessage: str


@dataclass(frozen=True, slots=True)
class RecordPage:
    """Everything the error page shows, from one query."""

    record: dict[str, Any]
    evidence: dict[str, Any]
    dataset_version: str
    stale: bool
    related: list[Related]


@dataclass(frozen=True, slots=True)
class ErrorFilters:
    """The repository page's filters; ``file`` is a file path or a folder prefix."""

    error_class: str | None = None
    error_type: str | None = None
    severity: str | None = None
    file: str | None = None

    def sql(self) -> tuple[str, list[Any]]:
        clauses: list[str] = []
        params: list[Any] = []
        if self.error_class == _NO_CLASS:
            clauses.append("error_class IS NULL")
        elif self.error_class:
            clauses.append("error_class = ?")
            params.append(self.error_class)
        if self.error_type:
            clauses.append("error_type = ?")
            params.append(self.error_type)
        if self.severity:
            clauses.append("severity = ?")
            params.append(self.severity)
        if self.file:
            folder = self.file.rstrip("/")
            clauses.append("(file_path = ? OR substr(file_path, 1, ?) = ?)")
            params.extend([folder, len(folder) + 1, folder + "/"])
        return "".join(f" AND {c}" for c in clauses), params


@dataclass(slots=True)
class RepoInfo:
    """A repository with its counts and latest scan (``byClass`` etc. for its own page)."""

    repo: str
    records: int
    stale: int
    files: int
    commits: list[str] = field(default_factory=list)
    latest: dict[str, Any] | None = None
    byClass: dict[str, int] = field(default_factory=dict)
    byType: dict[str, int] = field(default_factory=dict)
    bySeverity: dict[str, int] = field(default_factory=dict)


class _Reader:
    """One thread's connection, held only by that thread's locals: when the thread ends
    they go, and the finalizer closes the connection."""

    __slots__ = ("__weakref__", "conn")

    def __init__(self, conn: sqlite3.Connection) -> None:
        self.conn = conn
        weakref.finalize(self, conn.close)


class Catalogue:
    """Read access to one errdex SQLite file for the web app."""

    def __init__(self, path: str) -> None:
        self.path = path
        self._local = threading.local()
        self._readers: weakref.WeakSet[_Reader] = weakref.WeakSet()
        self._streams: set[sqlite3.Connection] = set()
        self._lock = threading.Lock()
        self._cache: dict[tuple[Any, ...], Any] = {}
        self._version: tuple[int, int] | None = None

    # -- connections and cache ----------------------------------------------------------

    def conn(self) -> sqlite3.Connection:
        """This thread's reader (connections are used by one thread at a time)."""
        reader: _Reader | None = getattr(self._local, "reader", None)
        if reader is None:
            reader = _Reader(self._connect())
            self._local.reader = reader
            with self._lock:
                self._readers.add(reader)
        return reader.conn

    def open_readers(self) -> int:
        """How many thread readers are open (they close as their threads end)."""
        with self._lock:
            return len(self._readers)

    def _connect(self) -> sqlite3.Connection:
        conn = sqlite3.connect(
            self.path, timeout=30.0, isolation_level=None, check_same_thread=False
        )
        conn.execute("PRAGMA query_only = 1")
        register_functions(conn)
        return conn

    def note_version(self) -> bool:
        """Re-read the store's write counters; drop cached aggregates if they moved."""
        version = store_version(self.conn())
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
            opened = [reader.conn for reader in self._readers] + list(self._streams)
            self._readers = weakref.WeakSet()
            self._streams = set()
        for conn in opened:
            conn.close()
        self._local = threading.local()

    # -- records ------------------------------------------------------------------------

    def raw_envelope(self, record_id: str) -> bytes | None:
        """The API envelope as JSON bytes, joined from the stored JSON without re-parsing it."""
        row = self.conn().execute(_RAW_SQL, (record_id,)).fetchone()
        if row is None:
            return None
        record, evidence, version = row
        return (
            f'{{"record":{record},"evidence":{evidence},"datasetVersion":{json.dumps(version)}}}'
        ).encode()

    def page(self, record_id: str) -> RecordPage | None:
        rows = self.conn().execute(_PAGE_SQL, (record_id,)).fetchall()
        if not rows:
            return None
        _, _, record, evidence, version, stale = rows[0]
        return RecordPage(
            record=json.loads(record),
            evidence=json.loads(evidence),
            dataset_version=str(version),
            stale=bool(stale),
            related=[Related(r[1], r[2], r[3], r[4] or "") for r in rows[1:]],
        )

    def locate(self, record_id: str) -> tuple[str, str] | None:
        """``(repo, slug)`` of a record, to redirect short links to its canonical page."""
        row = (
            self.conn()
            .execute("SELECT repo, slug FROM records WHERE id = ?", (record_id,))
            .fetchone()
        )
        return None if row is None else (str(row[0]), str(row[1]))

    def dataset_lines(self, repo: str) -> Iterator[bytes]:
        """A repository's current envelopes as JSON lines, on a connection of its own.

        A streamed response is pulled from whichever pool thread is free, so this
        generator cannot use a thread's reader.
        """
        conn = self._connect()
        with self._lock:
            self._streams.add(conn)
        try:
            cursor = conn.execute(
                "SELECT r.record, r.evidence, s.dataset_version FROM records AS r "
                "JOIN scans AS s ON s.id = r.scan_id WHERE r.repo = ? AND r.stale = 0 "
                "ORDER BY r.file_path, r.line_number, r.id",
                (repo,),
            )
            while rows := cursor.fetchmany(500):
                yield "".join(
                    f'{{"record":{rec},"evidence":{ev},"datasetVersion":{json.dumps(dv)}}}\n'
                    for rec, ev, dv in rows
                ).encode()
        finally:
            with self._lock:
                self._streams.discard(conn)
            conn.close()

    # -- repositories -------------------------------------------------------------------

    def repos(self) -> list[RepoInfo]:
        """Every repository with current records, with counts and its latest scan,
        by name ignoring case (``HypothesisWorks`` among the h's, not before ``acme``)."""
        return self._cached(("repos",), self._repos)

    def _repos(self) -> list[RepoInfo]:
        conn = self.conn()
        infos = {
            repo: RepoInfo(repo=repo, records=int(live or 0), stale=int(stale or 0), files=files)
            for repo, live, stale, files in conn.execute(_REPOS_SQL)
        }
        for repo, commit, ref, version, origin, finished, dataset in conn.execute(_SCANS_SQL):
            info = infos.get(repo)
            if info is None:
                continue
            pin = commit or ref
            if pin and pin not in info.commits:
                info.commits.append(pin)
            if info.latest is None:
                info.latest = {
                    "commit": commit,
                    "ref": ref,
                    "version": version,
                    "origin": origin,
                    "scannedAt": finished,
                    "datasetVersion": dataset,
                }
        listed = [info for info in infos.values() if info.records]
        return sorted(listed, key=lambda info: (info.repo.casefold(), info.repo))

    def repo(self, name: str) -> RepoInfo | None:
        """One repository with its counts by class, type and severity."""
        return self._cached(("repo", name), lambda: self._repo(name))

    def _repo(self, name: str) -> RepoInfo | None:
        found = next((r for r in self.repos() if r.repo == name), None)
        if found is None:
            return None
        info = replace(found, byClass={}, byType={}, bySeverity={})
        conn = self.conn()
        for column, target in (
            ("error_class", info.byClass),
            ("error_type", info.byType),
            ("severity", info.bySeverity),
        ):
            for key, count in conn.execute(
                f"SELECT {column}, count(*) FROM records WHERE repo = ? AND stale = 0 "
                f"GROUP BY {column} ORDER BY count(*) DESC, {column}",
                (name,),
            ):
                target[_NO_CLASS if key is None else str(key)] = int(count)
        return info

    def repo_errors(
        self, repo: str, filters: ErrorFilters, limit: int, offset: int
    ) -> tuple[list[dict[str, Any]], int]:
        """One page of a repository's current errors in file order, and how many match."""
        where, params = filters.sql()
        conn = self.conn()
        base = f"FROM records WHERE repo = ? AND stale = 0{where}"
        total = int(conn.execute(f"SELECT count(*) {base}", [repo, *params]).fetchone()[0])
        rows = conn.execute(
            "SELECT id, slug, error_class, error_type, severity, file_path, line_number, "
            f"{json_text('record', 'errorMessage')} {base} "
            "ORDER BY file_path, line_number, id LIMIT ? OFFSET ?",
            [repo, *params, limit, offset],
        )
        keys = (
            "id",
            "slug",
            "errorClass",
            "errorType",
            "severity",
            "filePath",
            "lineNumber",
            "errorMessage",
        )
        return [dict(zip(keys, row, strict=True)) for row in rows], total
