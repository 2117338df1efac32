"""What the site says about releases: a record's versions, and the records of one release.

The ranges themselves are :mod:`errdex.versions`' (pure); this module only reads the
scans and a record's per-version places from the catalogue's connection, and answers
the OSV-like query "which records does package NAME at version V hold".

A package is found by the name users know it by: a repository ``owner/name`` as
written, the repository errdex's tag table gives for a distribution name
(``attrs`` -> ``python-attrs/attrs``), else every repository whose own name is the
package's (PEP 503-normalised: ``PyYAML`` finds ``yaml/pyyaml``).
"""

from __future__ import annotations

import sqlite3
from dataclasses import dataclass
from typing import Any

from errdex.source.tags import load_schemes, normalize_name
from errdex.store.base import RecordStatus, RecordVersion
from errdex.versions import Release, Versions, find_release, releases, version_ranges
from errdex.web.search import json_text

__all__ = ["ReleaseRecords", "package_repos", "record_versions", "release_records"]

_SCANS = "SELECT id, commit_sha, ref, version FROM scans WHERE repo = ? ORDER BY id"
_PLACES = (
    "SELECT scan_id, commit_sha, ref, file_path, line_number FROM record_versions "
    "WHERE record_id = ? ORDER BY scan_id"
)
_RELEASE_RECORDS = """
SELECT r.id, r.slug, r.error_class, {message}, v.file_path, v.line_number, r.stale
FROM record_versions AS v JOIN records AS r ON r.id = v.record_id
WHERE r.repo = ? AND v.pin IN ({pins})
ORDER BY v.file_path, v.line_number, r.id
"""


def _scans(conn: sqlite3.Connection, repo: str) -> list[dict[str, Any]]:
    return [
        {"id": row[0], "commit": row[1], "ref": row[2], "version": row[3]}
        for row in conn.execute(_SCANS, (repo,))
    ]


def record_versions(conn: sqlite3.Connection, record_id: str) -> Versions | None:
    """``record_id``'s releases, ranges and place per release; None if there is no such record."""
    row = conn.execute(
        "SELECT repo, stale, first_scan_id, scan_id FROM records WHERE id = ?", (record_id,)
    ).fetchone()
    if row is None:
        return None
    status = RecordStatus(
        id=record_id,
        stale=bool(row[1]),
        firstSeenScan=int(row[2]),
        lastSeenScan=int(row[3]),
        versions=[
            RecordVersion(scanId=v[0], commit=v[1], ref=v[2], filePath=v[3], lineNumber=v[4])
            for v in conn.execute(_PLACES, (record_id,))
        ],
    )
    return version_ranges(_scans(conn, str(row[0])), status)


def package_repos(conn: sqlite3.Connection, package: str) -> list[str]:
    """The catalogued repositories ``package`` names (see the module's docstring)."""
    known = [str(r[0]) for r in conn.execute("SELECT DISTINCT repo FROM scans ORDER BY repo")]
    wanted = package.strip().strip("/")
    exact = [repo for repo in known if repo.lower() == wanted.lower()]
    if exact or "/" in wanted:
        return exact
    scheme = load_schemes().get(normalize_name(wanted))
    if scheme is not None and scheme.repo in known:
        return [scheme.repo]
    name = normalize_name(wanted)
    return [repo for repo in known if normalize_name(repo.rsplit("/", 1)[-1]) == name]


@dataclass(frozen=True, slots=True)
class ReleaseRecords:
    """The records one catalogued release of ``repo`` holds, each at its line there."""

    repo: str
    release: Release
    records: list[dict[str, Any]]


def _find(catalogued: list[Release], version: str | None, commit: str | None) -> Release | None:
    if commit:
        wanted = commit.strip().lower()
        for release in catalogued:
            if release.commit and len(wanted) >= 7 and release.commit.startswith(wanted):
                return release
        return None
    return find_release(catalogued, version or "")


def release_records(
    conn: sqlite3.Connection, repo: str, version: str | None, commit: str | None = None
) -> ReleaseRecords | list[str]:
    """The records of ``repo`` at ``version`` (or ``commit``); the catalogued releases'
    names instead when none is that one."""
    catalogued = releases(_scans(conn, repo))
    release = _find(catalogued, version, commit)
    if release is None:
        return [r.label for r in catalogued]
    pins = sorted(release.pins)
    sql = _RELEASE_RECORDS.format(
        message=json_text("r.record", "errorMessage"), pins=",".join("?" * len(pins))
    )
    rows = conn.execute(sql, (repo, *pins)).fetchall()
    seen: set[str] = set()
    records: list[dict[str, Any]] = []
    for rid, slug, error_class, message, path, line, stale in rows:
        if rid in seen:  # one release under two pins (a tag and its commit)
            continue
        seen.add(rid)
        records.append(
            {
                "id": rid,
                "slug": slug,
                "errorClass": error_class,
                "errorMessage": str(message),
                "filePath": path,
                "lineNumber": line,
                "stale": bool(stale),
            }
        )
    return ReleaseRecords(repo, release, records)
