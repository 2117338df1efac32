"""The embedded store: one SQLite file in WAL mode, stdlib ``sqlite3`` only.

Layout (``meta.schema_version`` = :data:`LAYOUT_VERSION`):

- ``meta(key, value)``: ``application = errdex`` marks the file as ours and
  ``schema_version`` drives migrations.
- ``scans``: one row per :meth:`SqliteStore.write_scan`, its summary and ``dataset_version``.
- ``records``: the current record per ``id`` (the latest scan that saw it wins), its JSON
  exactly as given (key order kept), its evidence, the columns that queries filter on, and
  ``stale``/``scan_id``: a record its repository's latest scan no longer found stays, marked
  stale, with ``scan_id`` the scan that last saw it, so its page keeps its URL.
- ``record_versions``: per record and pinned version (commit, else tag), where it sat and
  which scan saw it there, so evidence can list the versions a record appears in.

SQL stays within what PostgreSQL also accepts (``ON CONFLICT ... DO UPDATE``, snake_case
names, JSON as text) so a PostgreSQL store can share the layout.
"""

from __future__ import annotations

import contextlib
import json
import sqlite3
from collections.abc import Iterable, Iterator
from itertools import islice
from pathlib import Path
from types import TracebackType
from typing import Any, Self, cast

from errdex.record import envelope

from .base import RecordStatus, RecordVersion, RepoStats, ScanInfo, ScanSummary, StoreStats
from .errors import StoreError

__all__ = ["LAYOUT_VERSION", "SqliteStore"]

#: Version of the table layout below; bump it and add to ``_MIGRATIONS`` when it changes.
LAYOUT_VERSION = 1
#: ``PRAGMA application_id`` (the bytes ``errd``), so ``file(1)`` and tools can tell our files.
APPLICATION_ID = 0x65727264
_SQLITE_HEADER = b"SQLite format 3\x00"
#: Rows per ``executemany``: big enough to be fast, small enough to bound memory.
_CHUNK = 5000
_NO_CLASS = "(none)"
#: Page cache per connection; big scans upsert by random ids, which thrashes the 2 MB default.
_CACHE_KIB = 64 * 1024
_RECENT_SCANS = 10

_SCHEMA = f"""
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE scans (
    id              INTEGER PRIMARY KEY AUTOINCREMENT,
    repo            TEXT NOT NULL,
    commit_sha      TEXT,
    ref             TEXT,
    ref_kind        TEXT NOT NULL,
    origin          TEXT NOT NULL,
    version         TEXT,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    seconds         REAL NOT NULL,
    files_read      INTEGER NOT NULL,
    files_excluded  INTEGER NOT NULL,
    sites           INTEGER NOT NULL,
    records         INTEGER NOT NULL,
    skipped         TEXT NOT NULL,
    dataset_version TEXT NOT NULL
);
CREATE INDEX scans_by_repo ON scans (repo, id);
CREATE TABLE records (
    id            TEXT PRIMARY KEY,
    repo          TEXT NOT NULL,
    file_path     TEXT NOT NULL,
    line_number   INTEGER NOT NULL,
    error_class   TEXT,
    error_type    TEXT NOT NULL,
    severity      TEXT NOT NULL,
    slug          TEXT NOT NULL,
    analyzed_sha  TEXT,
    stale         INTEGER NOT NULL DEFAULT 0,
    first_scan_id INTEGER NOT NULL REFERENCES scans (id),
    scan_id       INTEGER NOT NULL REFERENCES scans (id),
    record        TEXT NOT NULL,
    evidence      TEXT NOT NULL
);
CREATE INDEX records_by_location ON records (repo, file_path, line_number);
CREATE INDEX records_by_slug ON records (repo, slug);
CREATE INDEX records_by_class ON records (error_class);
CREATE INDEX records_by_type ON records (error_type);
CREATE INDEX records_by_severity ON records (severity);
CREATE INDEX records_by_sha ON records (analyzed_sha);
CREATE INDEX records_by_scan ON records (repo, stale, scan_id);
CREATE TABLE record_versions (
    record_id   TEXT NOT NULL REFERENCES records (id),
    pin         TEXT NOT NULL,
    commit_sha  TEXT,
    ref         TEXT,
    scan_id     INTEGER NOT NULL REFERENCES scans (id),
    file_path   TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    PRIMARY KEY (record_id, pin)
);
INSERT INTO meta (key, value) VALUES ('application', 'errdex');
INSERT INTO meta (key, value) VALUES ('schema_version', '{LAYOUT_VERSION}');
PRAGMA application_id = {APPLICATION_ID};
"""

#: SQL that upgrades layout ``n`` to ``n + 1``, keyed by ``n``.
_MIGRATIONS: dict[int, str] = {}

_INSERT_SCAN = """
INSERT INTO scans (repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
                   seconds, files_read, files_excluded, sites, records, skipped, dataset_version)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

_UPSERT_RECORD = """
INSERT INTO records (id, repo, file_path, line_number, error_class, error_type, severity, slug,
                     analyzed_sha, stale, first_scan_id, scan_id, record, evidence)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    repo = excluded.repo, file_path = excluded.file_path, line_number = excluded.line_number,
    error_class = excluded.error_class, error_type = excluded.error_type,
    severity = excluded.severity, slug = excluded.slug, analyzed_sha = excluded.analyzed_sha,
    stale = 0, scan_id = excluded.scan_id, record = excluded.record, evidence = excluded.evidence
"""

_UPSERT_VERSION = """
INSERT INTO record_versions (record_id, pin, commit_sha, ref, scan_id, file_path, line_number)
VALUES (?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (record_id, pin) DO UPDATE SET
    commit_sha = excluded.commit_sha, ref = excluded.ref, scan_id = excluded.scan_id,
    file_path = excluded.file_path, line_number = excluded.line_number
"""

_SCAN_COLUMNS = """id, repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
    seconds, files_read, files_excluded, sites, records, skipped, dataset_version"""

_ENVELOPE_SELECT = """
SELECT r.record, r.evidence, s.dataset_version
FROM records AS r JOIN scans AS s ON s.id = r.scan_id
"""


#: Compact JSON that keeps key order and non-ASCII text as written (one encoder, reused).
_dumps_text = json.JSONEncoder(ensure_ascii=False, separators=(",", ":")).encode
_dumps_ascii = json.JSONEncoder(ensure_ascii=True, separators=(",", ":")).encode


def _dumps(value: Any) -> str:
    """JSON text SQLite can store: lone surrogates (a string literal such as
    ``"\\udc80"`` in scanned code) are not UTF-8, so such values are written escaped."""
    text = _dumps_text(value)
    try:
        text.encode("utf-8")
    except UnicodeEncodeError:
        return _dumps_ascii(value)
    return text


def _scan_info(row: sqlite3.Row) -> ScanInfo:
    skipped = [(str(path), str(reason)) for path, reason in json.loads(row["skipped"])]
    return ScanInfo(
        id=row["id"],
        repo=row["repo"],
        commit=row["commit_sha"],
        ref=row["ref"],
        ref_kind=row["ref_kind"],
        origin=row["origin"],
        version=row["version"],
        started_at=row["started_at"],
        finished_at=row["finished_at"],
        seconds=row["seconds"],
        files_read=row["files_read"],
        files_excluded=row["files_excluded"],
        sites=row["sites"],
        records=row["records"],
        skipped=skipped,
        dataset_version=row["dataset_version"],
    )


class SqliteStore:
    """errdex's embedded store: one SQLite file (or ``":memory:"``) in WAL mode.

    Opening creates the tables in a new or empty file, migrates an older errdex
    layout, and refuses anything else with a :class:`StoreError` rather than
    writing into someone else's database.
    """

    def __init__(self, path: str | Path) -> None:
        self.path = str(path)
        memory = self.path == ":memory:"
        if not memory:
            _check_file(Path(path))
        try:
            self._conn = sqlite3.connect(self.path, timeout=30.0, isolation_level=None)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot open errdex database {self.path}: {exc}") from exc
        self._conn.row_factory = sqlite3.Row
        try:
            self._open(memory)
        except BaseException as exc:
            self._conn.close()
            if isinstance(exc, sqlite3.DatabaseError) and not isinstance(
                exc, sqlite3.OperationalError
            ):
                raise StoreError(
                    f"{self.path} cannot be used as an errdex database: {exc}; "
                    "give errdex a new file path or remove this file"
                ) from exc
            if isinstance(exc, sqlite3.Error):
                raise StoreError(f"cannot open errdex database {self.path}: {exc}") from exc
            raise

    # -- opening -------------------------------------------------------------------

    def _open(self, memory: bool) -> None:
        """Recognise, create or migrate the layout; only then switch the file to WAL.

        A current errdex file is opened without taking the write lock, so a read-only
        copy (a published dataset) can still be served.
        """
        conn = self._conn
        version = self._check_identity() if self._tables() else None
        conn.execute(f"PRAGMA cache_size = -{_CACHE_KIB}")
        if not memory:
            if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
                conn.execute("PRAGMA journal_mode = WAL")
            conn.execute("PRAGMA synchronous = NORMAL")
        if version == LAYOUT_VERSION:
            return
        conn.execute("BEGIN IMMEDIATE")
        try:
            # Check again under the write lock: another process may have done it meanwhile.
            if not self._tables():
                _run_script(conn, _SCHEMA)
            else:
                version = self._check_identity()
                while version < LAYOUT_VERSION:
                    _run_script(conn, _MIGRATIONS[version])
                    version += 1
                    conn.execute(
                        "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),)
                    )
            conn.execute("COMMIT")
        except BaseException:
            if conn.in_transaction:
                conn.execute("ROLLBACK")
            raise

    def _tables(self) -> list[str]:
        rows = self._conn.execute(
            "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
            "ORDER BY name"
        )
        return [str(row[0]) for row in rows]

    def _check_identity(self) -> int:
        """Return the layout version of an errdex file; refuse foreign or newer files."""
        tables = self._tables()
        meta: dict[str, str] = {}
        if "meta" in tables:
            with contextlib.suppress(sqlite3.Error):
                meta = {
                    str(k): str(v) for k, v in self._conn.execute("SELECT key, value FROM meta")
                }
        if meta.get("application") != "errdex":
            shown = ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "")
            raise StoreError(
                f"{self.path} is a SQLite database but not an errdex store (it has the tables "
                f"{shown}); errdex will not write into it: give a new file path instead"
            )
        try:
            version = int(meta["schema_version"])
        except (KeyError, ValueError):
            raise StoreError(
                f"{self.path} is an errdex store without a valid schema_version in its meta "
                "table; it is damaged: rescan into a new file"
            ) from None
        if version > LAYOUT_VERSION:
            raise StoreError(
                f"{self.path} was written by a newer errdex (database layout {version}; this "
                f"errdex reads up to layout {LAYOUT_VERSION}): upgrade errdex to use it"
            )
        if version < LAYOUT_VERSION and any(
            v not in _MIGRATIONS for v in range(version, LAYOUT_VERSION)
        ):
            raise StoreError(
                f"{self.path} has database layout {version}, which this errdex cannot migrate "
                f"to layout {LAYOUT_VERSION}: rescan into a new file"
            )
        return version

    # -- writing -------------------------------------------------------------------

    def write_scan(
        self,
        summary: ScanSummary,
        items: Iterable[tuple[dict[str, Any], dict[str, Any]]],
        dataset_version: str,
    ) -> int:
        """Store one scan atomically and return its id.

        Records are upserted by ``id`` (the latest scan wins); each gets a version row for
        this scan's commit (else ref). Records of ``summary.repo`` that this scan did not
        see are marked stale, not deleted. The stored ``records`` count is the number of
        items written, since a generator's length is not known up front. All records must
        belong to ``summary.repo`` and ids must be unique within the scan; otherwise
        nothing is written and :class:`StoreError` says which record is at fault.
        """
        conn = self._conn
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                scan_id = self._insert_scan(summary, dataset_version)
                count = self._write_items(scan_id, summary, items)
                conn.execute("UPDATE scans SET records = ? WHERE id = ?", (count, scan_id))
                # Scan ids only grow, so "not seen by this scan" is "scan_id < this one".
                conn.execute(
                    "UPDATE records SET stale = 1 WHERE repo = ? AND stale = 0 AND scan_id < ?",
                    (summary.repo, scan_id),
                )
                self._bump_data_version()
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(
                f"could not write the scan of {summary.repo} to {self.path}: {exc}"
            ) from exc
        return scan_id

    def _insert_scan(self, summary: ScanSummary, dataset_version: str) -> int:
        cursor = self._conn.execute(
            _INSERT_SCAN,
            (
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
                _dumps([list(pair) for pair in summary.skipped]),
                dataset_version,
            ),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def _write_items(
        self,
        scan_id: int,
        summary: ScanSummary,
        items: Iterable[tuple[dict[str, Any], dict[str, Any]]],
    ) -> int:
        """Write the pairs in chunks with ``executemany``; return how many were written."""
        pin = summary.commit or summary.ref or ""
        seen: dict[str, str] = {}
        iterator = iter(items)
        count = 0
        while chunk := list(islice(iterator, _CHUNK)):
            record_rows: list[tuple[Any, ...]] = []
            version_rows: list[tuple[Any, ...]] = []
            for record, evidence in chunk:
                row = self._record_row(record, evidence, scan_id, summary.repo, seen)
                record_rows.append(row)
                version_rows.append(
                    (row[0], pin, summary.commit, summary.ref, scan_id, row[2], row[3])
                )
            self._conn.executemany(_UPSERT_RECORD, record_rows)
            self._conn.executemany(_UPSERT_VERSION, version_rows)
            count += len(chunk)
        return count

    @staticmethod
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
                _dumps(record),
                _dumps(evidence),
            )
        except KeyError as exc:
            raise StoreError(
                f"record {record.get('id')!r} has no {exc.args[0]!r} key; the store takes "
                "schema-2 records as produced by ErrorRecord.to_json()"
            ) from None
        except (TypeError, ValueError) as exc:
            raise StoreError(
                f"record {record.get('id')!r} is not JSON-serialisable: {exc}"
            ) from None
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

    def update_records(self, items: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> int:
        """Replace the record and evidence of existing ids (an analyst's output).

        Location, class and scan bookkeeping stay as the scan wrote them; an id that is
        not in the store is an error and nothing is written. Returns the number updated.
        """
        conn = self._conn
        rows = [(_dumps(record), _dumps(evidence), record["id"]) for record, evidence in items]
        try:
            conn.execute("BEGIN IMMEDIATE")
            try:
                for start in range(0, len(rows), _CHUNK):
                    chunk = rows[start : start + _CHUNK]
                    before = conn.total_changes
                    conn.executemany(
                        "UPDATE records SET record = ?, evidence = ? WHERE id = ?", chunk
                    )
                    if conn.total_changes - before != len(chunk):
                        known = {
                            r[0]
                            for r in conn.execute(
                                f"SELECT id FROM records WHERE id IN ({','.join('?' * len(chunk))})",
                                [row[2] for row in chunk],
                            )
                        }
                        unknown = [row[2] for row in chunk if row[2] not in known]
                        raise StoreError(
                            f"cannot update records that are not in {self.path}: "
                            f"{', '.join(unknown[:5])}; scan the repository first"
                        )
                self._bump_data_version()
                conn.execute("COMMIT")
            except BaseException:
                if conn.in_transaction:
                    conn.execute("ROLLBACK")
                raise
        except sqlite3.Error as exc:
            raise StoreError(f"could not update records in {self.path}: {exc}") from exc
        return len(rows)

    def _bump_data_version(self) -> None:
        self._conn.execute(
            "INSERT INTO meta (key, value) VALUES ('data_version', '1') "
            "ON CONFLICT (key) DO UPDATE SET value = CAST(value AS INTEGER) + 1"
        )

    def data_version(self) -> int:
        """A number that grows with every write: derived data (match index, search
        index) compares it to know when to rebuild."""
        row = self._conn.execute("SELECT value FROM meta WHERE key = 'data_version'").fetchone()
        return int(row[0]) if row else 0

    @property
    def connection(self) -> sqlite3.Connection:
        """The open connection, for modules that keep their own tables in the same file
        (search index, model-answer cache). They must not touch the tables above."""
        return self._conn

    # -- reading -------------------------------------------------------------------

    def get(self, record_id: str) -> dict[str, Any] | None:
        """The envelope of a record, stale or not (pages of vanished errors stay up)."""
        row = self._conn.execute(_ENVELOPE_SELECT + "WHERE r.id = ?", (record_id,)).fetchone()
        return None if row is None else _envelope(row)

    def status(self, record_id: str) -> RecordStatus | None:
        """Whether the record is current, and the versions it was seen in (oldest first)."""
        row = self._conn.execute(
            "SELECT stale, first_scan_id, scan_id FROM records WHERE id = ?", (record_id,)
        ).fetchone()
        if row is None:
            return None
        versions = [
            RecordVersion(
                scanId=v["scan_id"],
                commit=v["commit_sha"],
                ref=v["ref"],
                filePath=v["file_path"],
                lineNumber=v["line_number"],
            )
            for v in self._conn.execute(
                "SELECT scan_id, commit_sha, ref, file_path, line_number FROM record_versions "
                "WHERE record_id = ? ORDER BY scan_id",
                (record_id,),
            )
        ]
        return RecordStatus(
            id=record_id,
            stale=bool(row["stale"]),
            firstSeenScan=row["first_scan_id"],
            lastSeenScan=row["scan_id"],
            versions=versions,
        )

    def iter_envelopes(
        self, repo: str | None = None, *, include_stale: bool = False
    ) -> Iterator[dict[str, Any]]:
        """Envelopes ordered by repo, filePath, lineNumber; current records only by default."""
        where, params = _filters(repo, include_stale, prefix="r.")
        sql = _ENVELOPE_SELECT + where + " ORDER BY r.repo, r.file_path, r.line_number, r.id"
        try:
            cursor = self._conn.execute(sql, params)
            try:
                while rows := cursor.fetchmany(1000):
                    for row in rows:
                        yield _envelope(row)
            finally:
                cursor.close()
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read records from {self.path}: {exc}") from exc

    def stats(self, *, include_stale: bool = False) -> StoreStats:
        """Counts for an overview: per repo, class, type, severity, and the latest scans."""
        try:
            return self._stats(include_stale)
        except sqlite3.Error as exc:
            raise StoreError(f"cannot read statistics from {self.path}: {exc}") from exc

    def _stats(self, include_stale: bool) -> StoreStats:
        where, params = _filters(None, include_stale)
        conn = self._conn

        def grouped(column: str) -> dict[str, int]:
            rows = conn.execute(
                f"SELECT {column}, COUNT(*) FROM records {where} "
                f"GROUP BY {column} ORDER BY COUNT(*) DESC, {column}",
                params,
            )
            return {_NO_CLASS if key is None else str(key): int(n) for key, n in rows}

        counted = dict(grouped("repo"))
        stale = {
            str(repo): int(n)
            for repo, n in conn.execute(
                "SELECT repo, COUNT(*) FROM records WHERE stale = 1 GROUP BY repo"
            )
        }
        commits: dict[str, list[str]] = {}
        for repo, pin in conn.execute(
            "SELECT repo, COALESCE(commit_sha, ref) AS pin FROM scans "
            "WHERE COALESCE(commit_sha, ref) IS NOT NULL "
            "GROUP BY repo, pin ORDER BY repo, MAX(id) DESC"
        ):
            commits.setdefault(str(repo), []).append(str(pin))
        names = sorted(
            {str(r) for (r,) in conn.execute("SELECT DISTINCT repo FROM scans")} | set(counted)
        )
        repos = [
            RepoStats(
                repo=name,
                commits=commits.get(name, []),
                records=counted.get(name, 0),
                stale=stale.get(name, 0),
            )
            for name in names
        ]
        recent = conn.execute(
            f"SELECT {_SCAN_COLUMNS} FROM scans ORDER BY id DESC LIMIT ?", (_RECENT_SCANS,)
        )
        return StoreStats(
            repos=repos,
            records=sum(counted.values()),
            byClass=grouped("error_class"),
            byType=grouped("error_type"),
            bySeverity=grouped("severity"),
            scans=[_scan_info(row) for row in recent],
        )

    def scans(self, repo: str | None = None) -> list[ScanInfo]:
        """Stored scans with their summaries, newest first."""
        if repo is None:
            rows = self._conn.execute(f"SELECT {_SCAN_COLUMNS} FROM scans ORDER BY id DESC")
        else:
            rows = self._conn.execute(
                f"SELECT {_SCAN_COLUMNS} FROM scans WHERE repo = ? ORDER BY id DESC", (repo,)
            )
        return [_scan_info(row) for row in rows]

    # -- lifetime ------------------------------------------------------------------

    def close(self) -> None:
        """Let SQLite refresh its planner statistics, then release the file."""
        conn = self._conn
        with contextlib.suppress(sqlite3.Error):
            conn.execute("PRAGMA optimize")
        conn.close()

    def __enter__(self) -> Self:
        return self

    def __exit__(
        self,
        exc_type: type[BaseException] | None,
        exc: BaseException | None,
        tb: TracebackType | None,
    ) -> None:
        self.close()

    def __repr__(self) -> str:
        return f"SqliteStore({self.path!r})"


def _check_file(path: Path) -> None:
    """Refuse directories and non-SQLite files before SQLite touches them."""
    if path.is_dir():
        raise StoreError(
            f"{path} is a directory; give errdex a file path for its database "
            f"(for example {path / 'errdex.db'})"
        )
    if path.exists() and path.stat().st_size > 0:
        try:
            with path.open("rb") as fh:
                head = fh.read(len(_SQLITE_HEADER))
        except OSError as exc:
            raise StoreError(f"cannot read {path}: {exc.strerror or exc}") from exc
        if head != _SQLITE_HEADER:
            raise StoreError(
                f"{path} is not an errdex database: it is not a SQLite file at all. "
                "Give errdex a new file path (it creates the database) or remove this file"
            )
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the directory for {path}: {exc.strerror or exc}") from exc


def _run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated DDL inside the open transaction (``executescript`` would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)


def _filters(repo: str | None, include_stale: bool, prefix: str = "") -> tuple[str, list[Any]]:
    clauses: list[str] = []
    params: list[Any] = []
    if not include_stale:
        clauses.append(f"{prefix}stale = 0")
    if repo is not None:
        clauses.append(f"{prefix}repo = ?")
        params.append(repo)
    return (" WHERE " + " AND ".join(clauses) if clauses else ""), params


def _envelope(row: sqlite3.Row) -> dict[str, Any]:
    record = cast(dict[str, Any], json.loads(row[0]))
    evidence = cast(dict[str, Any], json.loads(row[1]))
    return envelope(record, evidence, str(row[2]))
