"""The SQLite store's table layout and the SQL every part of it shares.

Layout (``meta.schema_version`` = :data:`LAYOUT_VERSION`):

- ``meta(key, value)``: ``application = errdex`` marks the file as ours and
  ``schema_version`` drives migrations.
- ``scans``: one row per :meth:`SqliteStore.write_scan`, its summary and ``dataset_version``.
- ``records``: the current record per ``id`` (the latest scan that saw it wins, unless it
  read an older release than one catalogued: :mod:`errdex.store.releases`), its JSON
  exactly as given (key order kept), its evidence, the columns that queries filter on, and
  ``stale``/``scan_id``: a record its repository's latest scan no longer found stays, marked
  stale, with ``scan_id`` the scan that last saw it, so its page keeps its URL.
- ``record_versions``: per record and pinned version (commit, else tag), where it sat, its
  source window there (``source_code`` from line ``source_start``) and which scan saw it
  there, so evidence can list the versions a record appears in and show its code in each.
- ``analysis_sources``: per repository, the checkout its current records were scanned from
  (JSON, as :mod:`errdex.analyze.sources` writes it), so ``errdex analyze`` can read the
  files again.

SQL stays within what PostgreSQL also accepts (``ON CONFLICT ... DO UPDATE``, snake_case
names, JSON as text) so a PostgreSQL store can share the layout.
"""

from __future__ import annotations

__all__ = [
    "APPLICATION_ID",
    "CACHE_KIB",
    "CHUNK",
    "ENVELOPE_SELECT",
    "INSERT_OLDER",
    "INSERT_SCAN",
    "LAYOUT_VERSION",
    "MIGRATIONS",
    "NO_CLASS",
    "RECENT_SCANS",
    "SCAN_COLUMNS",
    "SCHEMA",
    "SOURCES_TABLE",
    "SQLITE_HEADER",
    "UPSERT_RECORD",
    "UPSERT_VERSION",
]

#: Version of the table layout below; bump it and add to ``MIGRATIONS`` when it changes.
LAYOUT_VERSION = 2
#: ``PRAGMA application_id`` (the bytes ``errd``), so ``file(1)`` and tools can tell our files.
APPLICATION_ID = 0x65727264
SQLITE_HEADER = b"SQLite format 3\x00"
#: Rows per ``executemany``: big enough to be fast, small enough to bound memory.
CHUNK = 5000
NO_CLASS = "(none)"
#: Page cache per connection; big scans upsert by random ids, which thrashes the 2 MB default.
CACHE_KIB = 64 * 1024
RECENT_SCANS = 10

#: Created by ``errdex scan`` before layout 2 (so ``IF NOT EXISTS`` when migrating).
SOURCES_TABLE = """
CREATE TABLE IF NOT EXISTS analysis_sources (
    repo     TEXT PRIMARY KEY,
    scan_id  INTEGER NOT NULL,
    checkout TEXT NOT NULL,
    include  TEXT NOT NULL,
    exclude  TEXT NOT NULL
)"""

SCHEMA = f"""
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
    source_code TEXT,
    source_start INTEGER,
    PRIMARY KEY (record_id, pin)
);
{SOURCES_TABLE};
INSERT INTO meta (key, value) VALUES ('application', 'errdex');
INSERT INTO meta (key, value) VALUES ('schema_version', '{LAYOUT_VERSION}');
PRAGMA application_id = {APPLICATION_ID};
"""

#: SQL that upgrades layout ``n`` to ``n + 1``, keyed by ``n``.
MIGRATIONS: dict[int, str] = {
    1: "ALTER TABLE record_versions ADD COLUMN source_code TEXT; "
    "ALTER TABLE record_versions ADD COLUMN source_start INTEGER; " + SOURCES_TABLE,
}

INSERT_SCAN = """
INSERT INTO scans (repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
                   seconds, files_read, files_excluded, sites, records, skipped, dataset_version)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)
"""

UPSERT_RECORD = """
INSERT INTO records (id, repo, file_path, line_number, error_class, error_type, severity, slug,
                     analyzed_sha, stale, first_scan_id, scan_id, record, evidence)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 0, ?, ?, ?, ?)
ON CONFLICT (id) DO UPDATE SET
    repo = excluded.repo, file_path = excluded.file_path, line_number = excluded.line_number,
    error_class = excluded.error_class, error_type = excluded.error_type,
    severity = excluded.severity, slug = excluded.slug, analyzed_sha = excluded.analyzed_sha,
    stale = 0, scan_id = excluded.scan_id, record = excluded.record, evidence = excluded.evidence
"""

#: A record of an older release than the current one: added, stale, only where missing.
INSERT_OLDER = """
INSERT INTO records (id, repo, file_path, line_number, error_class, error_type, severity, slug,
                     analyzed_sha, stale, first_scan_id, scan_id, record, evidence)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, 1, ?, ?, ?, ?)
ON CONFLICT (id) DO NOTHING
"""

UPSERT_VERSION = """
INSERT INTO record_versions (record_id, pin, commit_sha, ref, scan_id, file_path, line_number,
                             source_code, source_start)
VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)
ON CONFLICT (record_id, pin) DO UPDATE SET
    commit_sha = excluded.commit_sha, ref = excluded.ref, scan_id = excluded.scan_id,
    file_path = excluded.file_path, line_number = excluded.line_number,
    source_code = excluded.source_code, source_start = excluded.source_start
"""

SCAN_COLUMNS = """id, repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
    seconds, files_read, files_excluded, sites, records, skipped, dataset_version"""

ENVELOPE_SELECT = """
SELECT r.record, r.evidence, s.dataset_version
FROM records AS r JOIN scans AS s ON s.id = r.scan_id
"""
