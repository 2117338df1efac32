"""Which functions and classes of a changed library file changed, when nothing else in it
did: a record of another file that reads the file only through functions and classes
that stayed as they were need not be analysed again.

A record's dependencies are kept as files (:mod:`errdex.analyze.deps`): appending one
function to jax's ``lax.py`` would analyse again every record any function of ``lax.py``
reaches, some 470 records in other files. A change is *local to its units* when,
comparing the file's facts from the last scan with this scan's:

- the file is a library file without test expectations, before and after;
- what its module offers and reads as a whole is unchanged (name, imports, star imports,
  ``__all__``, shadowing imports), and its top-level names only grew;
- no function or class is gone, no class has other bases, and a new top-level name is
  not named by any function or class that stayed (its names would resolve otherwise);
- no call-graph edge from its functions is gone or changed precision (so each record's
  callers then are a superset of its callers then, walk for walk).

Its changed *units* are then the functions whose facts differ, new functions, functions
with new edges, and the classes whose facts differ or that are new. A record elsewhere is
analysed again when one of its callers or one of its class's ancestors is a changed unit
(:meth:`errdex.analyze.deps.Tracker.dirty`); a record of the file itself always is.
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from dataclasses import dataclass
from typing import Any

from .callgraph import EdgeTables
from .facts import ModuleFacts

__all__ = ["LocalChange", "local_changes"]


@dataclass(frozen=True, slots=True)
class LocalChange:
    """The functions and classes (qualnames) of one file changed since the last scan."""

    functions: frozenset[str]
    classes: frozenset[str]


def local_changes(
    modules: Mapping[str, ModuleFacts],
    old_facts: Mapping[str, ModuleFacts],
    last_edges: EdgeTables | None,
    edges: EdgeTables | None,
) -> dict[str, LocalChange]:
    """Path -> its changed units, for each changed file (``old_facts``: its facts from the
    last scan, by path) whose change is local to its units; ``modules``: this scan's."""
    if not old_facts or last_edges is None or edges is None:
        return {}
    by_path = {m.path: m for m in modules.values()}
    out: dict[str, LocalChange] = {}
    for path, old in old_facts.items():
        found = _local_change(old, by_path.get(path), last_edges.get(path), edges.get(path))
        if found is not None:
            out[path] = found
    return out


def _whole(facts: ModuleFacts) -> tuple[Any, ...]:
    return (
        facts.name,
        facts.path,
        facts.is_package,
        facts.imports,
        facts.star,
        facts.all_names,
        facts.shadowed,
    )


def _by_qualname(units: list[Any]) -> dict[str, list[Any]]:
    out: dict[str, list[Any]] = {}
    for unit in units:
        out.setdefault(unit.qualname, []).append(unit)
    return out


def _local_change(
    old: ModuleFacts,
    new: ModuleFacts | None,
    old_edges: dict[str, dict[str, str]] | None,
    new_edges: dict[str, dict[str, str]] | None,
) -> LocalChange | None:
    if new is None or old_edges is None or new_edges is None:
        return None
    if old.is_test or new.is_test or old.expects or new.expects or _whole(old) != _whole(new):
        return None
    if any(new.top.get(name) != qualname for name, qualname in old.top.items()):
        return None
    old_funcs, new_funcs = _by_qualname(old.functions), _by_qualname(new.functions)
    old_classes, new_classes = _by_qualname(old.classes), _by_qualname(new.classes)
    if old_funcs.keys() - new_funcs.keys() or old_classes.keys() - new_classes.keys():
        return None
    for qualname, units in old_classes.items():
        if [c.bases for c in units] != [c.bases for c in new_classes[qualname]]:
            return None
    functions = {q for q, units in new_funcs.items() if old_funcs.get(q) != units}
    classes = {q for q, units in new_classes.items() if old_classes.get(q) != units}
    added = new.top.keys() - old.top.keys()
    if added:
        stayed = [u for q, units in new_funcs.items() if q not in functions for u in units]
        stayed += [u for q, units in new_classes.items() if q not in classes for u in units]
        named = re.compile(r"(?<![\w])(?:" + "|".join(map(re.escape, sorted(added))) + r")(?![\w])")
        if named.search(repr(stayed)):
            return None
    for caller, callees in old_edges.items():
        now = new_edges.get(caller, {})
        if any(now.get(callee) != precision for callee, precision in callees.items()):
            return None  # an edge gone or changed: the callers of a record may be fewer
        if now != callees:
            functions.add(caller)
    functions.update(caller for caller in new_edges if caller not in old_edges)
    return LocalChange(frozenset(functions), frozenset(classes))
