"""Related errors: the same function first, then the same file by distance, then the
same entry point, then the same class in the same package (its subpackage first); at most
five record ids, closest first. The same class elsewhere in the repository is no relation:
``pprint``'s "indent must be >= 0" was followed by ``_aix_support``'s ValueErrors, the
first of the standard library's by path.

Each group is ordered once and every site walks outwards from its own line, stopping
at five ids: a function with n sites costs O(n log n), not a sort per site. Ties go by
record id, so the order does not depend on the order the records came in (a scan's
file order, a store's row order).
"""

from __future__ import annotations

from bisect import bisect_left
from collections import defaultdict
from collections.abc import Iterable, Iterator

from errdex.evidence import EntryPoint

from .sites import SiteView

__all__ = ["MAX_RELATED", "related_ids"]

MAX_RELATED = 5


class _ByLine:
    """A group's sites bucketed by line (each bucket in site order), lines sorted."""

    __slots__ = ("buckets", "lines")

    def __init__(self) -> None:
        self.buckets: dict[int, list[SiteView]] = defaultdict(list)
        self.lines: list[int] = []

    def add(self, site: SiteView) -> None:
        self.buckets[site.line].append(site)

    def freeze(self) -> None:
        self.lines = sorted(self.buckets)
        for bucket in self.buckets.values():  # sites on one line: by id, not input order
            bucket.sort(key=lambda s: s.record["id"])

    def near(self, line: int) -> Iterator[SiteView]:
        """Sites by distance from ``line``; at equal distance the lower line first."""
        lines = self.lines
        right = bisect_left(lines, line)
        left = right - 1
        while left >= 0 or right < len(lines):
            if right >= len(lines) or (left >= 0 and line - lines[left] <= lines[right] - line):
                yield from self.buckets[lines[left]]
                left -= 1
            else:
                yield from self.buckets[lines[right]]
                right += 1


def related_ids(
    sites: list[SiteView], entries: dict[int, list[EntryPoint]]
) -> dict[int, list[str]]:
    """For each site index, the ids of up to five related records."""
    by_function: dict[str, _ByLine] = defaultdict(_ByLine)
    by_file: dict[str, _ByLine] = defaultdict(_ByLine)
    by_entry: dict[str, list[SiteView]] = defaultdict(list)
    by_class: dict[tuple[str, str], list[SiteView]] = defaultdict(list)
    for site in sites:
        if site.function:
            by_function[site.function].add(site)
        by_file[site.path].add(site)
        for entry in entries.get(site.index, []):
            by_entry[entry["qualname"]].append(site)
        for package in _packages(site.module) if site.canonical_class else ():
            by_class[site.canonical_class or "", package].append(site)
    for by_line in (*by_function.values(), *by_file.values()):
        by_line.freeze()
    for group in by_entry.values():
        group.sort(key=lambda s: (s.path, s.line, s.record["id"]))
    for group in by_class.values():  # a package's own modules before its subpackages'
        group.sort(key=lambda s: (s.path.count("/"), s.path, s.line, s.record["id"]))
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

        done = bool(site.function) and take(by_function[site.function or ""].near(site.line))
        done = done or take(by_file[site.path].near(site.line))
        for entry in entries.get(site.index, []):
            if done:
                break
            done = take(by_entry[entry["qualname"]])
        for package in _packages(site.module) if site.canonical_class else ():
            if done:
                break
            done = take(by_class[site.canonical_class or "", package])
        out[site.index] = picked
    return out


def _packages(module: str) -> list[str]:
    """The packages a module is in, nearest first: ``jax._src.lax.lax`` is in
    ``jax._src.lax`` and ``jax``; a top-level module (``pprint``) is in none of its own
    beyond its file, which the file's group already covers."""
    parts = module.split(".")
    if len(parts) < 2:
        return []
    return [".".join(parts[:-1])] + ([parts[0]] if len(parts) > 2 else [])
