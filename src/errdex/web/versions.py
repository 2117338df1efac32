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
from errdex.versions import Release, Versions, find_release, releases, version_ranges

__all__ = [
    "MAX_PAGE",
    "ReleaseRecords",
    "package_repos",
    "record_versions",
    "release_records",
]

#: Most records one page of ``/api/query`` holds (OSV pages its answers, too).
MAX_PAGE = 1000


def _scans(store: Store, repo: str) -> list[dict[str, Any]]:
    """The repository's scans, oldest first, as :func:`errdex.versions.releases` reads them."""
    return [
        {"id": s["id"], "commit": s["commit"], "ref": s["ref"], "version": s["version"]}
        for s in sorted(store.scans(repo), key=lambda s: s["id"])
    ]


def record_versions(store: Store, record_id: str, repo: str | None = None) -> Versions | None:
    """``record_id``'s releases, ranges and place (and source) per release; None if there is no such
    record. ``repo`` saves reading the record when the caller knows it."""
    status = store.status(record_id)
    if status is None:
        return None
    if repo is None:
        located = store.locate(record_id)  # (repo, slug): not the whole envelope
        if located is None:
            return None
        repo = located[0]
    return version_ranges(_scans(store, repo), status, store.version_windows(record_id))


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
    """One page of the records one catalogued release of ``repo`` holds, each at its
    line there; ``more`` when records follow the page."""

    repo: str
    release: Release
    records: list[dict[str, Any]]
    more: bool = False


def _find(catalogued: list[Release], version: str | None, commit: str | None) -> Release | None:
    if commit:
        wanted = commit.strip().lower()
        for release in catalogued:
            if release.commit and len(wanted) >= 7 and release.commit.startswith(wanted):
                return release
        return None
    return find_release(catalogued, version or "")


def release_records(
    store: Store,
    repo: str,
    version: str | None,
    commit: str | None = None,
    *,
    limit: int = MAX_PAGE,
    offset: int = 0,
) -> ReleaseRecords | list[str]:
    """One page (``limit`` from ``offset``, in file order) of the records of ``repo`` at
    ``version`` (or ``commit``), read in one query; the catalogued releases' names
    instead when none is that one."""
    catalogued = releases(_scans(store, repo))
    release = _find(catalogued, version, commit)
    if release is None:
        return [r.label for r in catalogued]
    rows = store.release_rows(repo, sorted(release.pins), limit + 1, offset)
    records: list[dict[str, Any]] = [dict(row) for row in rows[:limit]]
    return ReleaseRecords(repo, release, records, more=len(rows) > limit)
