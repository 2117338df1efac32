"""What the site reads from an SQLite catalogue: one query per page.

The record page, the API's raw envelope, repository listings and their filtered pages,
the sitemap's links; :mod:`errdex.web.catalogue` calls these through the store.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Iterator
from typing import Any

from ._sqlite_search import json_text
from .listing import NO_CLASS, ErrorFilters, RecordPage, Related, RepoInfo, add_scan, listed

__all__ = [
    "envelope_lines",
    "find_slug",
    "locate",
    "raw_envelope",
    "record_links",
    "record_page",
    "repo_counts",
    "repo_errors",
    "repo_infos",
]

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

SCANS_SQL = """
SELECT repo, commit_sha, ref, version, origin, finished_at, dataset_version
FROM scans ORDER BY id DESC
"""

_LINKS_SQL = (
    "SELECT repo, id, slug FROM records WHERE stale = 0 ORDER BY repo, file_path, line_number, id "
    "LIMIT ? OFFSET ?"
)

#: The keys of :func:`repo_errors` rows, in the order of its columns.
ERROR_KEYS = (
    "id",
    "slug",
    "errorClass",
    "errorType",
    "severity",
    "filePath",
    "lineNumber",
    "errorMessage",
)


def join_envelope(record: str, evidence: str, version: str) -> str:
    """The API envelope from the stored JSON texts, without re-parsing them."""
    return f'{{"record":{record},"evidence":{evidence},"datasetVersion":{json.dumps(version)}}}'


def raw_envelope(conn: sqlite3.Connection, record_id: str) -> bytes | None:
    row = conn.execute(_RAW_SQL, (record_id,)).fetchone()
    return None if row is None else join_envelope(*row).encode()


def record_page(conn: sqlite3.Connection, record_id: str) -> RecordPage | None:
    rows = conn.execute(_PAGE_SQL, (record_id,)).fetchall()
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


def locate(conn: sqlite3.Connection, record_id: str) -> tuple[str, str] | None:
    row = conn.execute("SELECT repo, slug FROM records WHERE id = ?", (record_id,)).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def find_slug(conn: sqlite3.Connection, repo: str, slug: str) -> str | None:
    row = conn.execute(
        "SELECT id FROM records WHERE repo = ? AND slug = ? ORDER BY id LIMIT 1", (repo, slug)
    ).fetchone()
    return None if row is None else str(row[0])


def envelope_lines(conn: sqlite3.Connection, repo: str) -> Iterator[bytes]:
    """A repository's current envelopes as JSON lines, in file order."""
    cursor = conn.execute(
        "SELECT r.record, r.evidence, s.dataset_version FROM records AS r "
        "JOIN scans AS s ON s.id = r.scan_id WHERE r.repo = ? AND r.stale = 0 "
        "ORDER BY r.file_path, r.line_number, r.id",
        (repo,),
    )
    while rows := cursor.fetchmany(500):
        yield "".join(join_envelope(*row) + "\n" for row in rows).encode()


def repo_infos(conn: sqlite3.Connection) -> list[RepoInfo]:
    infos = {
        repo: RepoInfo(repo=repo, records=int(live or 0), stale=int(stale or 0), files=files)
        for repo, live, stale, files in conn.execute(_REPOS_SQL)
    }
    for row in conn.execute(SCANS_SQL):
        info = infos.get(row[0])
        if info is not None:
            add_scan(info, tuple(row))
    return listed(infos)


def repo_counts(conn: sqlite3.Connection, repo: str, column: str) -> dict[str, int]:
    """A repository's current records counted by ``column``, most first."""
    rows = conn.execute(
        f"SELECT {column}, count(*) FROM records WHERE repo = ? AND stale = 0 "
        f"GROUP BY {column} ORDER BY count(*) DESC, {column}",
        (repo,),
    )
    return {NO_CLASS if key is None else str(key): int(count) for key, count in rows}


def repo_errors(
    conn: sqlite3.Connection, repo: str, filters: ErrorFilters, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    where, params = filters.sql()
    base = f"FROM records WHERE repo = ? AND stale = 0{where}"
    total = int(conn.execute(f"SELECT count(*) {base}", [repo, *params]).fetchone()[0])
    rows = conn.execute(
        "SELECT id, slug, error_class, error_type, severity, file_path, line_number, "
        f"{json_text('record', 'errorMessage')} {base} "
        "ORDER BY file_path, line_number, id LIMIT ? OFFSET ?",
        [repo, *params, limit, offset],
    )
    return [dict(zip(ERROR_KEYS, row, strict=True)) for row in rows], total


def record_links(conn: sqlite3.Connection, limit: int, offset: int) -> list[tuple[str, str, str]]:
    """``(repo, id, slug)`` of current records in catalogue order, for the sitemap."""
    return [(str(a), str(b), str(c)) for a, b, c in conn.execute(_LINKS_SQL, (limit, offset))]
