"""What the site reads from a PostgreSQL catalogue (as ``_sqlite_site``): the record page,
the raw envelope, repository listings, the sitemap's links."""

from __future__ import annotations

import json
from collections.abc import Iterator
from typing import Any

from ._pg_open import Connection
from ._pg_read import ORDER, grouped
from ._sqlite_site import ERROR_KEYS, join_envelope
from .listing import ErrorFilters, RecordPage, Related, RepoInfo, add_scan, listed

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

_PAGE_SQL = """
WITH target AS (
    SELECT r.id, r.record, r.evidence, r.stale, r.related, s.dataset_version
    FROM records AS r JOIN scans AS s ON s.id = r.scan_id WHERE r.id = %s
)
SELECT 0, t.id, t.record, t.evidence, t.dataset_version, t.stale::int, 0::bigint FROM target AS t
UNION ALL
SELECT 1, rel.id, rel.repo, rel.slug, rel.message, 0, u.ord
FROM target AS t, unnest(t.related) WITH ORDINALITY AS u (rid, ord)
JOIN records AS rel ON rel.id = u.rid
ORDER BY 1, 7
"""

_REPOS_SQL = """
SELECT repo, count(*) FILTER (WHERE NOT stale), count(*) FILTER (WHERE stale),
       count(DISTINCT file_path) FILTER (WHERE NOT stale)
FROM records GROUP BY repo
"""

_SCANS_SQL = """
SELECT repo, commit_sha, ref, version, origin, finished_at, dataset_version
FROM scans ORDER BY id DESC
"""


def raw_envelope(conn: Connection, record_id: str) -> bytes | None:
    row = conn.execute(
        "SELECT r.record, r.evidence, s.dataset_version FROM records AS r "
        "JOIN scans AS s ON s.id = r.scan_id WHERE r.id = %s",
        (record_id,),
    ).fetchone()
    return None if row is None else join_envelope(*row).encode()


def record_page(conn: Connection, record_id: str) -> RecordPage | None:
    rows = conn.execute(_PAGE_SQL, (record_id,)).fetchall()
    if not rows:
        return None
    _, _, record, evidence, version, stale, _ = rows[0]
    return RecordPage(
        record=json.loads(record),
        evidence=json.loads(evidence),
        dataset_version=str(version),
        stale=bool(stale),
        related=[Related(r[1], r[2], r[3], json.loads(r[4]) or "") for r in rows[1:]],
    )


def locate(conn: Connection, record_id: str) -> tuple[str, str] | None:
    row = conn.execute("SELECT repo, slug FROM records WHERE id = %s", (record_id,)).fetchone()
    return None if row is None else (str(row[0]), str(row[1]))


def find_slug(conn: Connection, repo: str, slug: str) -> str | None:
    row = conn.execute(
        "SELECT id FROM records WHERE repo = %s AND slug = %s ORDER BY id LIMIT 1", (repo, slug)
    ).fetchone()
    return None if row is None else str(row[0])


def envelope_lines(conn: Connection, repo: str) -> Iterator[bytes]:
    """A repository's current envelopes as JSON lines, through a server-side cursor."""
    with conn.transaction(), conn.cursor(name="errdex_dataset") as cursor:
        cursor.itersize = 500
        cursor.execute(
            "SELECT r.record, r.evidence, s.dataset_version FROM records AS r "
            "JOIN scans AS s ON s.id = r.scan_id WHERE r.repo = %s AND NOT r.stale "
            f"ORDER BY {ORDER}",
            (repo,),
        )
        while rows := cursor.fetchmany(500):
            yield "".join(join_envelope(*row) + "\n" for row in rows).encode()


def repo_infos(conn: Connection) -> list[RepoInfo]:
    infos = {
        str(repo): RepoInfo(repo=str(repo), records=int(live), stale=int(stale), files=int(files))
        for repo, live, stale, files in conn.execute(_REPOS_SQL)
    }
    for row in conn.execute(_SCANS_SQL):
        info = infos.get(str(row[0]))
        if info is not None:
            add_scan(info, row)
    return listed(infos)


def repo_counts(conn: Connection, repo: str, column: str) -> dict[str, int]:
    return grouped(conn, column, "WHERE repo = %s AND NOT stale", [repo])


def repo_errors(
    conn: Connection, repo: str, filters: ErrorFilters, limit: int, offset: int
) -> tuple[list[dict[str, Any]], int]:
    where, params = filters.sql("%s")
    base = f"FROM records AS r WHERE repo = %s AND NOT stale{where}"
    row = conn.execute(f"SELECT count(*) {base}", [repo, *params]).fetchone()
    total = int(row[0]) if row else 0
    rows = conn.execute(
        "SELECT id, slug, error_class, error_type, severity, file_path, line_number, message "
        f"{base} ORDER BY {ORDER} LIMIT %s OFFSET %s",
        [repo, *params, limit, offset],
    )
    return [
        dict(zip(ERROR_KEYS, (*row[:7], json.loads(row[7])), strict=True)) for row in rows
    ], total


def record_links(conn: Connection, limit: int, offset: int) -> list[tuple[str, str, str]]:
    rows = conn.execute(
        f"SELECT r.repo, r.id, r.slug FROM records AS r WHERE NOT r.stale ORDER BY {ORDER} "
        "LIMIT %s OFFSET %s",
        (limit, offset),
    )
    return [(str(a), str(b), str(c)) for a, b, c in rows]
