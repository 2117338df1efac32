"""The files a site's inherited and made ways in were read from, for re-scans.

``Connection.recv`` (:mod:`.heirs`) holds only while ``conn.py`` defines no ``recv``
of its own, and ``make_group()`` (:mod:`.made_ways`) only while ``maker.py`` returns a
new ``_Group``; neither file is the raise's, a caller's or its error class's, so a
re-scan after an edit there kept the claim (review rr5, ``inc3``: an incremental export
still said ``make_group()`` returns a ``_Group`` after it returned a ``dict``).
"""

from __future__ import annotations

from collections.abc import Iterable
from typing import Any

from errdex.evidence import EntryPoint

from .heir_lookup import mro
from .made_ways import MadeWay
from .repo import RepoIndex

Item = tuple[dict[str, Any], dict[str, Any]]

__all__ = ["way_files", "ways_changed"]


def way_files(index: RepoIndex, entries: Iterable[EntryPoint], made: MadeWay | None) -> set[str]:
    """The files of the factory and of every repository class in the MRO of each class
    a way in is named through or made of."""
    classes = _heirs(entries)
    paths: set[str] = set()
    if made is not None:
        paths.add(made.path)
        classes |= _made_classes(made.factory, made.made, made.method)
    return paths | _class_files(index, classes)


def ways_changed(index: RepoIndex, item: Item, changed: frozenset[str]) -> bool:
    """Whether a file a stored record's ways in were read from (:func:`way_files`) has
    changed: the record is analysed again, whatever part of the file changed (an edit
    inside the factory's body is no change its callers see, yet it unmakes the way)."""
    evidence = item[1]
    classes = _heirs(evidence.get("entryPoints") or ())
    paths: set[str] = set()
    made = evidence.get("madeBy")
    if isinstance(made, dict):
        paths.add(str(made.get("path")))
        found = (str(made.get(k, "")) for k in ("qualname", "returns", "method"))
        classes |= _made_classes(*found)
    return not changed.isdisjoint(paths | _class_files(index, classes))


def _heirs(entries: Iterable[EntryPoint]) -> set[str]:
    return {str(e["qualname"]).rpartition(".")[0] for e in entries if e.get("inheritedFrom")}


def _made_classes(factory: str, made: str, method: str) -> set[str]:
    return {made, factory.rpartition(".")[0], method.rpartition(".")[0]}


def _class_files(index: RepoIndex, classes: Iterable[str]) -> set[str]:
    paths: set[str] = set()
    for cls in classes:
        for name in mro(index, cls) or [cls]:
            facts = index.classes.get(name)
            if facts is not None:
                paths.add(facts.path)
    return paths
