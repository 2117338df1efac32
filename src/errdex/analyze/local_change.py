"""Which functions and classes of a changed library file changed, when nothing else in it
did: a record of another file that reads the file only through functions and classes
that stayed as they were need not be analysed again.

A record's dependencies are kept as files (:mod:`errdex.analyze.deps`): appending one
function to jax's ``lax.py`` would analyse again its 259 records and every record any
of its functions reaches, some 470 in other files. A change is *local to its units*
when, comparing the file's facts from the last scan with this scan's:

- the file is a library file without test expectations, before and after;
- what its module offers and reads as a whole is unchanged (name, imports, star imports,
  ``__all__``, shadowing imports), and a top-level name keeps its meaning or is gone with
  the function or class it named;
- no class has other bases, and no name it defines anew or no more (top-level, a
  function's, a class's) is named by a function or class that stayed (a name it used
  would resolve otherwise, a method of that name would override another, or none would);
- no call-graph edge from its functions is gone or changed precision (so each record's
  callers then are a superset of its callers then, walk for walk): a function gone is
  local only when it called nothing of the repository (the bench's appended raise,
  replaced by the next round's) and nothing that stayed called it.

Its changed *units* are then the functions whose facts differ, new and gone functions,
functions with new edges, and the classes whose facts differ or that are new or gone. A
record is analysed again when one of its callers (its own function among them) or one
of its class's ancestors is a changed unit (:meth:`errdex.analyze.deps.Tracker.dirty`);
a record of the file itself also when it names a name the file added or dropped (or
raises outside a function), and when its input changed (its source window, as for any
record). Other modules that name what it dropped are seen before this
(:func:`errdex.analyze.deps.names_elsewhere`).
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any

from .callgraph import EdgeTables
from .class_links import hook_bindings
from .facts import ClassFacts, ModuleFacts

__all__ = ["LocalChange", "local_changes", "names_any"]


@dataclass(frozen=True, slots=True)
class LocalChange:
    """The functions and classes (qualnames) of one file changed since the last scan."""

    functions: frozenset[str]
    classes: frozenset[str]
    #: The names the file defines now and did not, or did and does not (top-level,
    #: methods, classes): a record of the file that names one reads what it did not
    #: (:func:`names_any`).
    added: frozenset[str] = frozenset()


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
        facts.all_partial,
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
    old_funcs, new_funcs = _by_qualname(old.functions), _by_qualname(new.functions)
    old_classes, new_classes = _by_qualname(old.classes), _by_qualname(new.classes)
    gone_funcs = old_funcs.keys() - new_funcs.keys()
    gone_classes = old_classes.keys() - new_classes.keys()
    gone = gone_funcs | gone_classes
    for name, qualname in old.top.items():
        meant = new.top.get(name)
        if meant != qualname and not (meant is None and qualname in gone):
            return None
    for qualname, units in old_classes.items():
        if qualname in new_classes and [c.bases for c in units] != [
            c.bases for c in new_classes[qualname]
        ]:
            return None
    functions = {q for q, units in new_funcs.items() if old_funcs.get(q) != units} | gone_funcs
    classes = {q for q, units in new_classes.items() if old_classes.get(q) != units}
    classes |= gone_classes
    added = set(new.top.keys() ^ old.top.keys())
    added.update(f.name for q, units in new_funcs.items() if q not in old_funcs for f in units)
    added.update(c.name for q, units in new_classes.items() if q not in old_classes for c in units)
    added.update(f.name for q in gone_funcs for f in old_funcs[q])
    added.update(c.name for q in gone_classes for c in old_classes[q])
    added.update(_bindings_changed(old_classes, new_classes))
    if added:
        stayed = [u for q, units in new_funcs.items() if q not in functions for u in units]
        stayed += [u for q, units in new_classes.items() if q not in classes for u in units]
        if names_any(added, repr(stayed)):
            return None  # a name it used resolves to the new definition now
    for caller, callees in old_edges.items():
        now = new_edges.get(caller, {})
        if any(now.get(callee) != precision for callee, precision in callees.items()):
            return None  # an edge gone or changed: the callers of a record may be fewer
        if now != callees:
            functions.add(caller)
    functions.update(caller for caller in new_edges if caller not in old_edges)
    return LocalChange(frozenset(functions), frozenset(classes), frozenset(added))


def _bindings_changed(
    old: Mapping[str, list[ClassFacts]], new: Mapping[str, list[ClassFacts]]
) -> set[str]:
    """The private names a class body binds now and did not, or did and does not: a
    base's record names its subclasses for them (:mod:`.class_links`), so a record
    naming one reads what changed."""
    out: set[str] = set()
    for qualname in old.keys() | new.keys():
        was = {n for c in old.get(qualname, ()) for n in hook_bindings(c)}
        now = {n for c in new.get(qualname, ()) for n in hook_bindings(c)}
        out |= was ^ now
    return out


def names_any(names: Iterable[str], text: str) -> bool:
    """Whether ``text`` holds one of ``names`` as a whole word (a superset of the uses)."""
    pattern = "|".join(map(re.escape, sorted(names)))
    return bool(pattern) and re.search(rf"(?<!\w)(?:{pattern})(?!\w)", text) is not None
