"""What the site says about releases: a record's versions, and the records of one release.

The ranges themselves are :mod:`errdex.versions`' (pure); this module only reads the
scans and a record's per-version places through the :class:`~errdex.store.Store`
(SQLite or PostgreSQL alike), and answers
the OSV-like query "which records does package NAME at version V hold".

A package is found by the name users know it by: a repository ``owner/name`` as
written, the repository errdex's tag table gives for a distribution name
(``attrs`` -> ``python-attrs/attrs``), else every repository whose own name is the
package's (PEP 503-normalised: ``PyYAML`` finds ``yaml/pyyaml``).
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from errdex.source.tags import load_schemes, normalize_name
from errdex.store.base import Store
from errdex.versions import Release, Versions, find_release, pin_of, releases, version_ranges

__all__ = ["ReleaseRecords", "package_repos", "record_versions", "release_records"]


def _scans(store: Store, repo: str) -> list[dict[str, Any]]:
    """The repository's scans, oldest first, as :func:`errdex.versions.releases` reads them."""
    return [
        {"id": s["id"], "commit": s["commit"], "ref": s["ref"], "version": s["version"]}
        for s in sorted(store.scans(repo), key=lambda s: s["id"])
    ]


def record_versions(store: Store, record_id: str, repo: str | None = None) -> Versions | None:
    """``record_id``'s releases, ranges and place per release; None if there is no such
    record. ``repo`` saves reading the record when the caller knows it."""
    status = store.status(record_id)
    if status is None:
        return None
    if repo is None:
        envelope = store.get(record_id)
        if envelope is None:
            return None
        repo = str(envelope["record"]["repo"])
    return version_ranges(_scans(store, repo), status)


def package_repos(store: Store, package: str) -> list[str]:
    """The catalogued repositories ``package`` names (see the module's docstring)."""
    known = sorted({s["repo"] for s in store.scans()})
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
    store: Store, repo: str, version: str | None, commit: str | None = None
) -> ReleaseRecords | list[str]:
    """The records of ``repo`` at ``version`` (or ``commit``); the catalogued releases'
    names instead when none is that one."""
    catalogued = releases(_scans(store, repo))
    release = _find(catalogued, version, commit)
    if release is None:
        return [r.label for r in catalogued]
    places: dict[str, tuple[str, int]] = {}
    for record_id, _repo, place in store.iter_record_versions(repo):
        if pin_of(place["commit"], place["ref"]) in release.pins:
            places.setdefault(record_id, (place["filePath"], place["lineNumber"]))
    records: list[dict[str, Any]] = []
    for envelope in store.iter_envelopes(repo, include_stale=True):
        record = envelope["record"]
        found = places.get(record["id"])
        if found is None:
            continue
        current = store.status(record["id"])
        records.append(
            {
                "id": record["id"],
                "slug": record["slug"],
                "errorClass": record.get("errorClass"),
                "errorMessage": str(record.get("errorMessage") or ""),
                "filePath": found[0],
                "lineNumber": found[1],
                "stale": bool(current and current["stale"]),
            }
        )
    records.sort(key=lambda r: (r["filePath"], r["lineNumber"], r["id"]))
    return ReleaseRecords(repo, release, records)
