"""OSV-style version ranges: in which catalogued releases a record exists, and where.

A traceback's line numbers belong to the user's release, not to the one catalogued
last, so a record says every release it was found in (its file and line in each) and
sums them up as OSV does, as ranges of ``introduced``/``last_affected``/``fixed``.

This module is pure and store-agnostic: it reads a repository's scans
(:class:`~errdex.store.base.ScanInfo`) and a record's
:class:`~errdex.store.base.RecordStatus`, as any store returns them, and writes plain
JSON-ready dicts. Releases are ordered as PEP 440 orders their versions
(``packaging.version``) where they parse; a release whose name does not parse (a
commit, a tag such as ``nightly``) sits just after the release scanned before it.

``introduced`` is the oldest *catalogued* release holding the record: errdex does
not know about releases it did not scan, so OSV's ``"0"`` (every earlier release)
is never claimed.
"""

from __future__ import annotations

from collections.abc import Iterable, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, TypedDict

from packaging.version import Version

from errdex.store.base import RecordStatus, RecordVersion, ScanInfo
from errdex.store.releases import parse_version

__all__ = [
    "Release",
    "ReleaseRange",
    "VersionPlace",
    "Versions",
    "find_release",
    "parse_version",
    "pin_of",
    "release_order",
    "releases",
    "tag_version",
    "version_ranges",
]


def tag_version(tag: str) -> str:
    """The release a tag names: its PEP 440 version where it has one (``v0.9.1`` ->
    ``0.9.1``), else the tag as written."""
    parsed = parse_version(tag)
    return str(parsed) if parsed is not None else tag


def pin_of(commit: str | None, ref: str | None) -> str:
    """The pin a store keys a version by: the commit, else the ref (tag), else ``""``."""
    return commit or ref or ""


@dataclass(frozen=True)
class Release:
    """One catalogued release of a repository: every scan that read it.

    ``label`` names it: the version the scan recorded, else its tag (``ref``), else
    the commit's first 12 digits. Scans with the same label are the same release
    (a package's tag pin and a git checkout of the tag's commit, say).
    """

    label: str
    version: str | None
    commit: str | None
    ref: str | None
    scan_ids: tuple[int, ...]
    pins: frozenset[str]


def _label(scan: ScanInfo | Mapping[str, Any]) -> str:
    version = scan.get("version")
    if version:
        return str(version)
    commit, ref = scan.get("commit"), scan.get("ref")
    if ref and ref != commit:
        return str(ref)
    return str(commit)[:12] if commit else f"scan-{scan['id']}"


def release_order(labels: Sequence[str]) -> list[int]:
    """Indices of ``labels`` (given in scan order) oldest release first.

    Labels that parse as versions go in PEP 440 order; one that does not follows the
    nearest parsed label before it in scan order (first of all when there is none),
    keeping scan order among such labels.
    """
    keys: list[tuple[int, Version, int, int]] = []
    anchor: Version | None = None
    for index, label in enumerate(labels):
        parsed = parse_version(label)
        if parsed is not None:
            anchor = parsed
            keys.append((1, parsed, 0, index))
        elif anchor is None:
            keys.append((0, Version("0"), 1, index))
        else:
            keys.append((1, anchor, 1, index))
    return [index for *_, index in sorted(keys)]


def releases(scans: Iterable[ScanInfo | Mapping[str, Any]]) -> list[Release]:
    """The distinct releases among ``scans`` (one repository's), oldest first."""
    grouped: dict[str, list[ScanInfo | Mapping[str, Any]]] = {}
    for scan in sorted(scans, key=lambda s: int(s["id"])):
        grouped.setdefault(_label(scan), []).append(scan)
    labels = list(grouped)
    out: list[Release] = []
    for index in release_order(labels):
        group = grouped[labels[index]]
        last = group[-1]
        commits = [s.get("commit") for s in group if s.get("commit")]
        out.append(
            Release(
                label=labels[index],
                version=last.get("version"),
                commit=str(commits[-1]) if commits else None,
                ref=last.get("ref"),
                scan_ids=tuple(int(s["id"]) for s in group),
                pins=frozenset(pin_of(s.get("commit"), s.get("ref")) for s in group),
            )
        )
    return out


def find_release(catalogued: Sequence[Release], version: str) -> Release | None:
    """The release named ``version`` (equal as PEP 440 versions, else as written)."""
    wanted = parse_version(version)
    for release in catalogued:
        if release.label == version or release.version == version:
            return release
    if wanted is None:
        return None
    for release in catalogued:
        if parse_version(release.label) == wanted:
            return release
    return None


class VersionPlace(TypedDict):
    """Where the record sat in one release, and its source window there (``sourceCode``
    from line ``sourceCodeStart``; None where the store kept none)."""

    version: str
    commit: str | None
    ref: str | None
    scanId: int
    filePath: str
    lineNumber: int
    sourceCode: str | None
    sourceCodeStart: int | None


class ReleaseRange(TypedDict):
    """A run of consecutive catalogued releases holding the record.

    ``fixed`` is the first catalogued release after the run without it (None: the run
    reaches the newest catalogued release).
    """

    introduced: str
    last_affected: str
    fixed: str | None


class Versions(TypedDict):
    """``evidence.versions``: releases, ranges, OSV events and the place per release."""

    releases: list[str]
    ranges: list[ReleaseRange]
    events: list[dict[str, str]]
    places: list[VersionPlace]


def _places(
    catalogued: Sequence[Release],
    seen: Sequence[RecordVersion],
    windows: Mapping[int, tuple[str, int]],
) -> dict[str, VersionPlace]:
    """The record's place per release label, from the newest scan of that release's pins."""
    out: dict[str, VersionPlace] = {}
    for release in catalogued:
        rows = [v for v in seen if pin_of(v["commit"], v["ref"]) in release.pins]
        if not rows:
            continue
        row = max(rows, key=lambda v: v["scanId"])
        code, start = windows.get(row["scanId"], (None, None))
        out[release.label] = VersionPlace(
            version=release.label,
            commit=row["commit"],
            ref=row["ref"],
            scanId=row["scanId"],
            filePath=row["filePath"],
            lineNumber=row["lineNumber"],
            sourceCode=code,
            sourceCodeStart=start,
        )
    return out


def version_ranges(
    scans: Iterable[ScanInfo | Mapping[str, Any]],
    status: RecordStatus,
    windows: Mapping[int, tuple[str, int]] | None = None,
) -> Versions:
    """The record's releases as OSV ranges, with its file, line and source in each release.

    ``scans`` are its repository's (any order); ``status`` is what the store says of
    the record, ``windows`` its source window per scan id (``Store.version_windows``). ``events`` is the OSV list (``introduced``, then ``fixed`` where a
    later catalogued release lacks it), one introduced/fixed pair per range.
    """
    catalogued = releases(scans)
    places = _places(catalogued, status["versions"], windows or {})
    ranges: list[ReleaseRange] = []
    start: str | None = None
    previous: str | None = None
    for release in catalogued:
        present = release.label in places
        if present and start is None:
            start = release.label
        elif not present and start is not None and previous is not None:
            ranges.append(
                ReleaseRange(introduced=start, last_affected=previous, fixed=release.label)
            )
            start = None
        previous = release.label if present else previous
    if start is not None and previous is not None:
        ranges.append(ReleaseRange(introduced=start, last_affected=previous, fixed=None))
    events: list[dict[str, str]] = []
    for span in ranges:
        events.append({"introduced": span["introduced"]})
        if span["fixed"] is not None:
            events.append({"fixed": span["fixed"]})
    return Versions(
        releases=[r.label for r in catalogued],
        ranges=ranges,
        events=events,
        places=[places[r.label] for r in catalogued if r.label in places],
    )
