"""Which release of a repository is current: the newest by PEP 440, not the latest scanned.

A catalogue may be filled out of order (a newer release first, then an older one that a
user still runs). The records a repository shows as current must stay those of its
newest release, so a store asks here whether a scan is of an *older* release than one
already catalogued; such a scan adds its versions (lines and source windows) and the
records only it holds (as stale), and rewrites nothing current.

Releases are compared as PEP 440 versions (``packaging.version``), reading past a tag's
prefix (``v1.2``, ``attrs-25.4.0``). A scan whose release does not parse (a commit, a
branch, a tag such as ``nightly``) is never called older: it wins as the latest scan
did before.
"""

from __future__ import annotations

import re
from collections.abc import Iterable

from packaging.version import InvalidVersion, Version

__all__ = ["current_scan", "is_older", "is_older_scan", "parse_version", "release_of"]

_FIRST_DIGIT = re.compile(r"\d")


def parse_version(text: str | None) -> Version | None:
    """``text`` as a PEP 440 version, reading past a tag's prefix (``v1.2``, ``attrs-25.4.0``)."""
    if not text:
        return None
    try:
        return Version(text)
    except InvalidVersion:
        pass
    digit = _FIRST_DIGIT.search(text)
    if digit is None or digit.start() == 0:
        return None
    try:
        return Version(text[digit.start() :])
    except InvalidVersion:
        return None


def release_of(version: str | None, ref: str | None, ref_kind: str | None) -> Version | None:
    """The release a scan read: its recorded version, else the tag it was pinned to."""
    return parse_version(version or (ref if ref_kind == "tag" else None))


def is_older(release: Version | None, catalogued: Iterable[Version | None]) -> bool:
    """Whether ``release`` is older than some release already catalogued."""
    return release is not None and any(
        known is not None and known > release for known in catalogued
    )


def is_older_scan(
    scans: Iterable[tuple[int, str | None, str | None, str | None]], scan_id: int
) -> bool:
    """Whether scan ``scan_id`` among a repository's ``(id, version, ref, ref_kind)`` rows
    read an older release than another of them did."""
    rows = list(scans)
    mine = [release_of(*row[1:]) for row in rows if row[0] == scan_id]
    others = (release_of(*row[1:]) for row in rows if row[0] != scan_id)
    return bool(mine) and is_older(mine[0], others)


def current_scan(scans: Iterable[tuple[int, str | None, str | None, str | None]]) -> int | None:
    """The id of the scan whose records are a repository's current ones, from its
    ``(id, version, ref, ref_kind)`` rows: the stores' rule replayed in scan order (each
    scan wins unless it read an older release than one scanned before it)."""
    current: int | None = None
    seen: list[Version | None] = []
    for scan_id, version, ref, ref_kind in sorted(scans):
        release = release_of(version, ref, ref_kind)
        if not is_older(release, seen):
            current = scan_id
        seen.append(release)
    return current
