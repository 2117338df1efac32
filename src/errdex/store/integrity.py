"""Checks a scan must pass before it is stored: one record per raise site.

A site is a (repo, commit, file, line, class, message); two ids for one site would
give one error two pages and split its matches. That is an errdex bug, never bad
input, so the check fails loudly instead of storing a catalogue that lies.
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from .errors import StoreError

__all__ = ["DuplicateSiteError", "check_one_record_per_site"]

SiteKey = tuple[str, str | None, str, int, str | None, str]


class DuplicateSiteError(StoreError):
    """Two record ids for one raise site."""


def site_key(record: dict[str, Any]) -> SiteKey:
    return (
        record["repo"],
        record.get("analyzedSha"),
        record["filePath"],
        record["lineNumber"],
        record.get("errorClass"),
        record["errorMessage"],
    )


def check_one_record_per_site(items: Iterable[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    """Raise :class:`DuplicateSiteError` naming every site that has more than one id."""
    ids: dict[SiteKey, set[str]] = {}
    for record, _ in items:
        ids.setdefault(site_key(record), set()).add(record["id"])
    doubled = [(key, sorted(found)) for key, found in ids.items() if len(found) > 1]
    if doubled:
        shown = "; ".join(
            f"{path}:{line} {cls or '-'}: {message!r} has ids {', '.join(found)}"
            for (_, _, path, line, cls, message), found in doubled[:5]
        )
        more = f" and {len(doubled) - 5} more" if len(doubled) > 5 else ""
        raise DuplicateSiteError(
            f"{len(doubled)} raise site(s) would be stored under two ids, an errdex bug: "
            f"{shown}{more}"
        )
