"""Every class above a class, nearest first: one walk for what asks about bases.

:func:`.classes.class_info` stores them; :mod:`.call_shapes` looks along them for a
metaclass; :mod:`.hook_holders` and :mod:`.pickle_paths` read what each stores or defines. It imports nothing of the index at run time, so either may use it.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = ["ancestors", "lineage"]

#: The most classes walked above one (a generated hierarchy may be deep).
MAX_ANCESTORS = 64


def ancestors(index: RepoIndex, canonical: str) -> list[str]:
    """Every class above this one, nearest first (breadth-first, each once): the matcher
    relates a pasted base to a site's class through classes no site raises (so no record
    stores their bases)."""
    out: list[str] = []
    queue = index.bases(canonical)
    while queue and len(out) < MAX_ANCESTORS:
        base = queue.pop(0)
        if base in out or base == canonical:
            continue
        out.append(base)
        queue.extend(index.bases(base))
    return out


def lineage(index: RepoIndex, canonical: str) -> list[str]:
    """The class itself, then :func:`ancestors`: what a class and its bases define."""
    return [canonical, *ancestors(index, canonical)]
