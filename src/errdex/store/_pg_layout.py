"""The PostgreSQL store's tables and the SQL its parts share.

The layout is SQLite's (``_sqlite_layout``) with PostgreSQL types, plus what search
needs in the records table itself: ``message`` (the errorMessage as JSON text, since
PostgreSQL text cannot hold a NUL), ``pattern`` (the messagePattern, NULs written as
``\\x00``) and ``search`` (a weighted ``tsvector`` under a GIN index), all written in the
same statement as the record, so the search index is as current as the records.
Record and evidence stay JSON *text*, not ``jsonb``: key order is kept byte for byte
and the API joins them into an envelope without re-parsing.
"""

from __future__ import annotations

__all__ = [
    "COPY_INCOMING",
    "INCOMING",
    "INSERT_OLDER",
    "INSERT_SCAN",
    "LAYOUT_VERSION",
    "MIGRATIONS",
    "SCAN_COLUMNS",
    "SCHEMA",
    "SOURCES_TABLE",
    "UPDATE_RECORD",
    "UPSERT_RECORDS",
    "UPSERT_VERSIONS",
]

#: Version of the layout below, kept in ``meta.schema_version``.
LAYOUT_VERSION = 2

#: The weighted document: message A, class B, file C, tags D (as SQLite's BM25 weights).
TSVECTOR = (
    "setweight(to_tsvector('simple', %s), 'A') || setweight(to_tsvector('simple', %s), 'B') "
    "|| setweight(to_tsvector('simple', %s), 'C') || setweight(to_tsvector('simple', %s), 'D')"
)

#: Where each repository's source lives (as SQLite's ``analysis_sources``).
SOURCES_TABLE = """
CREATE TABLE IF NOT EXISTS analysis_sources (
    repo     TEXT PRIMARY KEY,
    scan_id  BIGINT NOT NULL,
    checkout TEXT NOT NULL,
    include  TEXT NOT NULL,
    exclude  TEXT NOT NULL
)"""

#: SQL that upgrades layout ``n`` to ``n + 1``, keyed by ``n``.
MIGRATIONS: dict[int, str] = {
    1: "ALTER TABLE record_versions ADD COLUMN IF NOT EXISTS source_code TEXT; "
    "ALTER TABLE record_versions ADD COLUMN IF NOT EXISTS source_start INTEGER; " + SOURCES_TABLE,
}

SCHEMA = f"""
CREATE TABLE meta (
    key   TEXT PRIMARY KEY,
    value TEXT NOT NULL
);
CREATE TABLE scans (
    id              BIGSERIAL PRIMARY KEY,
    repo            TEXT NOT NULL,
    commit_sha      TEXT,
    ref             TEXT,
    ref_kind        TEXT NOT NULL,
    origin          TEXT NOT NULL,
    version         TEXT,
    started_at      TEXT NOT NULL,
    finished_at     TEXT NOT NULL,
    seconds         DOUBLE PRECISION NOT NULL,
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
    stale         BOOLEAN NOT NULL DEFAULT FALSE,
    first_scan_id BIGINT NOT NULL REFERENCES scans (id),
    scan_id       BIGINT NOT NULL REFERENCES scans (id),
    record        TEXT NOT NULL,
    evidence      TEXT NOT NULL,
    message       TEXT NOT NULL,
    pattern       TEXT NOT NULL,
    related       TEXT[] NOT NULL DEFAULT '{{}}',
    search        TSVECTOR NOT NULL
);
CREATE INDEX records_by_location ON records (repo, file_path COLLATE "C", line_number);
CREATE INDEX records_by_slug ON records (repo, slug);
CREATE INDEX records_by_class ON records (error_class);
CREATE INDEX records_by_type ON records (error_type);
CREATE INDEX records_by_severity ON records (severity);
CREATE INDEX records_by_sha ON records (analyzed_sha);
CREATE INDEX records_by_scan ON records (repo, stale, scan_id);
CREATE INDEX records_search ON records USING GIN (search);
CREATE TABLE record_versions (
    record_id   TEXT NOT NULL REFERENCES records (id),
    pin         TEXT NOT NULL,
    commit_sha  TEXT,
    ref         TEXT,
    scan_id     BIGINT NOT NULL REFERENCES scans (id),
    file_path   TEXT NOT NULL,
    line_number INTEGER NOT NULL,
    source_code TEXT,
    source_start INTEGER,
    PRIMARY KEY (record_id, pin)
);
{SOURCES_TABLE};
CREATE TABLE scan_inputs (
    repo         TEXT PRIMARY KEY,
    scan_id      BIGINT NOT NULL,
    fingerprint  TEXT NOT NULL,
    data_version BIGINT NOT NULL
);
INSERT INTO meta (key, value) VALUES ('application', 'errdex');
INSERT INTO meta (key, value) VALUES ('schema_version', '{LAYOUT_VERSION}');
"""

INSERT_SCAN = """
INSERT INTO scans (repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
                   seconds, files_read, files_excluded, sites, records, skipped, dataset_version)
VALUES (%s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s, %s)
RETURNING id
"""

#: A scan's records are copied (``COPY``) into this table, then upserted in one statement.
INCOMING = """
CREATE TEMP TABLE IF NOT EXISTS incoming (
    id TEXT, repo TEXT, file_path TEXT, line_number INTEGER, error_class TEXT,
    error_type TEXT, severity TEXT, slug TEXT, analyzed_sha TEXT, record TEXT, evidence TEXT,
    message TEXT, pattern TEXT, related TEXT[], m TEXT, c TEXT, f TEXT, t TEXT,
    source_code TEXT, source_start INTEGER
) ON COMMIT DELETE ROWS
"""

COPY_INCOMING = "COPY incoming FROM STDIN"

_INSERT_RECORDS = f"""
INSERT INTO records (id, repo, file_path, line_number, error_class, error_type, severity, slug,
                     analyzed_sha, stale, first_scan_id, scan_id, record, evidence, message,
                     pattern, related, search)
SELECT id, repo, file_path, line_number, error_class, error_type, severity, slug, analyzed_sha,
       {{stale}}, %(scan)s, %(scan)s, record, evidence, message, pattern, related,
       {TSVECTOR.replace("%s", "{}").format("m", "c", "f", "t")}
FROM incoming ORDER BY id
"""

UPSERT_RECORDS = (
    _INSERT_RECORDS.format(stale="FALSE")
    + """ON CONFLICT (id) DO UPDATE SET
    repo = excluded.repo, file_path = excluded.file_path, line_number = excluded.line_number,
    error_class = excluded.error_class, error_type = excluded.error_type,
    severity = excluded.severity, slug = excluded.slug, analyzed_sha = excluded.analyzed_sha,
    stale = FALSE, scan_id = excluded.scan_id, record = excluded.record,
    evidence = excluded.evidence, message = excluded.message, pattern = excluded.pattern,
    related = excluded.related, search = excluded.search
"""
)

#: An older release's records (see ``errdex.store.releases``): added stale, only where missing.
INSERT_OLDER = _INSERT_RECORDS.format(stale="TRUE") + "ON CONFLICT (id) DO NOTHING\n"

UPDATE_RECORD = f"""
UPDATE records SET record = %s, evidence = %s, message = %s, pattern = %s, related = %s,
    search = {TSVECTOR}
WHERE id = %s
"""

UPSERT_VERSIONS = """
INSERT INTO record_versions (record_id, pin, commit_sha, ref, scan_id, file_path, line_number,
                             source_code, source_start)
SELECT id, %(pin)s, %(commit)s, %(ref)s, %(scan)s, file_path, line_number, source_code,
       source_start FROM incoming ORDER BY id
ON CONFLICT (record_id, pin) DO UPDATE SET
    commit_sha = excluded.commit_sha, ref = excluded.ref, scan_id = excluded.scan_id,
    file_path = excluded.file_path, line_number = excluded.line_number,
    source_code = excluded.source_code, source_start = excluded.source_start
"""

SCAN_COLUMNS = """id, repo, commit_sha, ref, ref_kind, origin, version, started_at, finished_at,
    seconds, files_read, files_excluded, sites, records, skipped, dataset_version"""
