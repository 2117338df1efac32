"""Related errors: the same function first, then the same file by distance, then the
same entry point, then the same class; at most five record ids, closest first."""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable

from errdex.evidence import EntryPoint

from .sites import SiteView

__all__ = ["MAX_RELATED", "related_ids"]

MAX_RELATED = 5


def related_ids(
    sites: list[SiteView], entries: dict[int, list[EntryPoint]]
) -> dict[int, list[str]]:
    """For each site index, the ids of up to five related records."""
    by_function: dict[str, list[SiteView]] = defaultdict(list)
    by_file: dict[str, list[SiteView]] = defaultdict(list)
    by_entry: dict[str, list[SiteView]] = defaultdict(list)
    by_class: dict[str, list[SiteView]] = defaultdict(list)
    for site in sites:
        if site.function:
            by_function[site.function].append(site)
        by_file[site.path].append(site)
        for entry in entries.get(site.index, []):
            by_entry[entry["qualname"]].append(site)
        if site.canonical_class:
            by_class[site.canonical_class].append(site)
    for group in (*by_entry.values(), *by_class.values()):
        group.sort(key=lambda s: (s.path, s.line))
    out: dict[int, list[str]] = {}
    for site in sites:
        picked: list[str] = []
        own = site.record["id"]

        def take(
            candidates: Iterable[SiteView], picked: list[str] = picked, own: str = own
        ) -> bool:
            for other in candidates:
                rid = other.record["id"]
                if rid != own and rid not in picked:
                    picked.append(rid)
                    if len(picked) >= MAX_RELATED:
                        return True
            return False

        def near(group: list[SiteView], site: SiteView = site) -> list[SiteView]:
            return sorted(group, key=lambda s: (abs(s.line - site.line), s.line))

        done = bool(site.function) and take(near(by_function[site.function or ""]))
        done = done or take(near(by_file[site.path]))
        for entry in entries.get(site.index, []):
            if done:
                break
            done = take(by_entry[entry["qualname"]])
        if not done and site.canonical_class:
            take(by_class[site.canonical_class])
        out[site.index] = picked
    return out
