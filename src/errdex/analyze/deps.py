"""What each record's analysis read, so that a re-scan re-analyses only what a change reaches.

A record's analysis reads its own site, the facts of the functions that reach it (the
call graph walked backwards: chains, entry points, their docstrings), the classes above
its class, and a few repository-wide results computed over every site (the tests
linked to it, its related errors, how many sites share its class in its function or
behind its entry points). The last are recomputed over every site on each re-scan and
compared record by record (:class:`RecordDeps` ``context``, ``counts``, ``related``);
the rest is kept as a set of files (``files``): a record is re-analysed when one of
them changed, or when one of the changed files reaches it now (a new caller).

What a changed file offers to others by name (its top-level names, imports, classes
and function headers: its *interface*, :func:`interface`) reaches records through
name resolution, which no file set records. So a change of interface is taken as local
only when every name it adds, removes or alters appears nowhere else in the
repository (:func:`names_elsewhere`): a new private helper, say; for a module that is
new or gone, only its own name and its methods' names count (:func:`module_reach`).
Otherwise, and for a star import or ``__all__`` that changed, every record is analysed
again.
"""

from __future__ import annotations

import hashlib
import marshal
from collections.abc import Iterable, Mapping
from collections.abc import Set as AbstractSet
from dataclasses import dataclass, field
from typing import Any

from .callgraph import MAX_VISITED, CallGraph
from .class_links import hook_bindings
from .classes import ClassTree
from .facts import CallRef, ModuleFacts
from .local_change import LocalChange, names_any
from .repo import RepoIndex

__all__ = [
    "ALWAYS",
    "FileShape",
    "Prior",
    "RecordDeps",
    "digest",
    "file_shape",
    "imports_of_a_test",
    "input_digest",
    "interface",
    "interface_change",
    "module_names",
    "module_reach",
    "names_elsewhere",
    "reused_item",
]

Item = tuple[dict[str, Any], dict[str, Any]]

#: An interface key that no file may change locally (a star import, ``__all__``).
ALWAYS = "*"
#: Fields a scan writes afresh on each record (the clock, the commit, the permalink).
_STAMPED = ("analyzedAt", "githubUrl", "analyzedSha")


def digest(value: Any) -> str:
    """A short digest of a value made of str, numbers, None, lists, tuples, dicts and
    dataclasses, by its ``repr``: a pickle would differ between a value just built and
    the same value loaded from the cache (pickles record which parts are shared)."""
    text = repr(value).encode("utf-8", "surrogatepass")
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def input_digest(item: Item) -> str:
    """The analyst's input item without the fields every scan stamps afresh: written by
    ``marshal``'s format 0 (no shared or interned strings, so a value loaded from the
    cache writes as the one just built), which takes half of ``repr``'s time on the
    thousands of records of a re-scan; by :func:`digest` if it holds another type."""
    record, evidence = item
    value = (
        [(k, v) for k, v in record.items() if k not in _STAMPED],
        [(k, v) for k, v in evidence.items() if k != "source"],
    )
    try:
        text = marshal.dumps(value, 0)
    except ValueError:  # not a plain JSON-like value
        return digest(value)
    return hashlib.blake2b(text, digest_size=12).hexdigest()


def reused_item(stored: Item, now: Item) -> Item:
    """A stored analysed item with this scan's stamped fields (from its input ``now``)."""
    record = dict(stored[0])
    for key in _STAMPED:
        record[key] = now[0].get(key)
    evidence = dict(stored[1])
    if "source" in now[1]:
        evidence["source"] = now[1]["source"]
    return record, evidence


@dataclass(frozen=True, slots=True)
class FileShape:
    """One analyst file as the last analysis read it."""

    digest: str | None
    #: Interface element digest -> the name it offers (:func:`interface`).
    interface: dict[str, str]
    #: Every name it defines or refers to (:func:`module_names`).
    names: frozenset[str] = frozenset()
    #: Its imports (alias -> target), and whether it is a test module
    #: (:func:`imports_of_a_test`).
    imports: dict[str, str] = field(default_factory=dict)
    test: bool = False


@dataclass(slots=True)
class RecordDeps:
    """What one record's analysis depended on (see the module docstring)."""

    input: str
    files: frozenset[str]
    context: str
    entries: tuple[str, ...]
    counts: tuple[int, ...]
    related: tuple[str, ...]


@dataclass
class Prior:
    """The last analysis: each record's dependencies and analysed item, by record id, and
    the paths (as records write them) of the analyst's files changed since."""

    records: dict[str, RecordDeps]
    outputs: dict[str, Item]
    changed: frozenset[str]
    #: The last scan's facts of some changed files, by path (:mod:`.local_change`).
    old_facts: dict[str, ModuleFacts] = field(default_factory=dict)
    #: Set by the analyst: records analysed again, and records kept.
    reanalysed: int = 0
    kept: int = 0


def _ref(ref: Iterable[str]) -> tuple[str, ...]:
    return tuple(ref)


def interface(facts: ModuleFacts | None) -> dict[str, str]:
    """What a module offers to others by name: element digest -> the name it is under."""
    if facts is None:
        return {}
    out: dict[str, str] = {}

    def add(name: str, *element: Any) -> None:
        out[digest(element)] = name

    add(facts.name.rpartition(".")[2], "module", facts.name, facts.is_package)
    for alias, target in facts.imports.items():
        add(alias, "import", alias, target)
    for name, qualname in facts.top.items():
        add(name, "top", name, qualname)
    for name, where in facts.shadowed.items():
        add(name, "shadow", name, where)
    for name, rebound in facts.rebound.items():
        add(name, "rebound", name, rebound)
    # whether a module is a fallback twin is decided over every module's imports
    add(ALWAYS, "fallbacks", tuple(facts.fallbacks))
    add(ALWAYS, "alternatives", tuple(facts.alternatives), facts.typing_only)
    add(ALWAYS, "star", tuple(facts.star), facts.all_names, facts.all_partial)
    for cls in facts.classes:
        bases = tuple(_ref(b) for b in cls.bases)
        add(cls.name, "class", cls.qualname, bases, cls.docstring, cls.is_test)
        for name in hook_bindings(cls):  # ``_enc = staticmethod(_noop)``: a base's records
            add(name, "binds", cls.qualname, name)  # name the class (:mod:`.class_links`)
    for func in facts.functions:
        add(
            func.name,
            "function",
            func.qualname,
            func.cls,
            func.parent,
            tuple(_ref(d) for d in func.decorators),
            func.signature,
            func.params,
            func.required,
            func.is_test,
        )
    return out


def file_shape(digest_: str | None, facts: ModuleFacts | None) -> FileShape:
    """One analyst file as this analysis read it."""
    if facts is None:
        return FileShape(digest_, {}, frozenset())
    return FileShape(
        digest_, interface(facts), module_names(facts), dict(facts.imports), facts.is_test
    )


def imports_of_a_test(
    old: FileShape, facts: ModuleFacts, changed: set[str], starred: AbstractSet[str]
) -> set[str]:
    """Of a test module's ``changed`` interface names, those only its imports changed
    (``from pkg.api import bounded`` for a new test): another module reaches them only
    through the test module, so they count only where its name is used too. None for a
    library module, which a package may re-export by a star import, nor for a test
    module one of ``starred`` (the modules something star-imports)."""
    if not (old.test and facts.is_test) or facts.name in starred:
        return set()
    imports = facts.imports
    aliases = {
        a for a in old.imports.keys() | imports.keys() if old.imports.get(a) != imports.get(a)
    }
    if not aliases & changed:
        return set()
    old_kept = {digest(("import", a, t)) for a, t in old.imports.items()}
    new_kept = {digest(("import", a, t)) for a, t in imports.items()}
    now = interface(facts)
    other = interface_change(
        {k: v for k, v in old.interface.items() if k not in old_kept},
        {k: v for k, v in now.items() if k not in new_kept},
    )
    return (aliases & changed) - other


def interface_change(old: Mapping[str, str], new: Mapping[str, str]) -> set[str]:
    """The names whose elements one side has and the other has not."""
    return {old[k] for k in old.keys() - new.keys()} | {new[k] for k in new.keys() - old.keys()}


def module_reach(facts: ModuleFacts | None) -> set[str]:
    """The names through which another module may reach a module that is new (or gone):
    its own name, and its methods' names (a call on a receiver of unknown type resolves
    by the method's name alone, and a private name a class body binds is read as a
    base's hook: :mod:`.class_links`). Its other names are reached only through its name."""
    if facts is None:
        return set()
    methods = {f.name for f in facts.functions if f.cls}
    return (
        {facts.name.rpartition(".")[2]}
        | methods
        | {n for c in facts.classes for n in hook_bindings(c)}
    )


def _refs_names(refs: Iterable[CallRef], into: set[str]) -> None:
    for ref in refs:
        into.update(ref)


def module_names(facts: ModuleFacts | None) -> frozenset[str]:
    """Every name a module defines or refers to (parts of dotted names included)."""
    if facts is None:
        return frozenset()
    names: set[str] = set(facts.name.split("."))
    for alias, target in facts.imports.items():
        names.add(alias)
        names.update(target.split("."))
    for star in facts.star:
        names.update(star.split("."))
    _refs_names(facts.bound_calls.values(), names)
    _refs_names(facts.aliases.values(), names)
    names.update(facts.aliases)
    names.update(facts.all_names or ())
    names.update(facts.top)
    for cls in facts.classes:
        names.add(cls.name)
        _refs_names(cls.bases, names)
    for func in facts.functions:
        names.update(func.qualname.split("."))
        _refs_names(func.calls, names)
        _refs_names(func.decorators, names)
        _refs_names(func.local_calls.values(), names)
        _refs_names([ref for _, ref in func.local_binds.values()], names)
        _refs_names([ref for elements in func.returns for ref in elements if ref], names)
        for alias, target in func.local_imports.items():
            names.add(alias)
            names.update(target.split("."))
    for expect in facts.expects:
        _refs_names(expect.classes, names)
        _refs_names(expect.calls, names)
    return frozenset(names)


def names_elsewhere(others: Iterable[AbstractSet[str]], names: set[str]) -> bool:
    """Whether one of the other modules' name sets (:func:`module_names`) holds one of
    ``names``."""
    return ALWAYS in names or any(not names.isdisjoint(used) for used in others)


@dataclass
class Tracker:
    """Files each site's analysis reads, from the structures the analyst builds anyway."""

    index: RepoIndex
    graph: CallGraph
    tree: ClassTree
    #: Changed files whose change stays in some of their functions and classes, by path
    #: (:mod:`errdex.analyze.local_change`).
    local: Mapping[str, LocalChange] = field(default_factory=dict)
    _reach_files: dict[str, frozenset[str]] = field(default_factory=dict)
    _reach_units: dict[str, bool] = field(default_factory=dict)
    _changed_quals: dict[frozenset[str], frozenset[str]] = field(default_factory=dict)

    def _function_files(self, qualnames: Iterable[str]) -> set[str]:
        files: set[str] = set()
        for qualname in qualnames:
            for func in self.index.functions.get(qualname, ()):
                files.add(func.path)
        return files

    def reach_files(self, function: str | None) -> frozenset[str]:
        """Files of the functions reaching ``function`` (as far as the walk went: see
        :meth:`cut`)."""
        if function is None:
            return frozenset()
        found = self._reach_files.get(function)
        if found is None:
            found = frozenset(self._function_files(self.graph.reach(function)))
            self._reach_files[function] = found
        return found

    def cut(self, function: str | None) -> bool:
        """Whether the walk to ``function``'s callers stopped at :data:`MAX_VISITED`: its
        reach is then not known whole, and a change of any file may add to it."""
        return function is not None and len(self.graph.reach(function)) >= MAX_VISITED

    def class_files(self, canonical: str | None) -> set[str]:
        if not canonical:
            return set()
        out = set()
        for name in self.tree.ancestors(canonical):
            cls = self.index.classes.get(name)
            if cls is not None:
                out.add(cls.path)
        return out

    def files(
        self, path: str, function: str | None, canonical: str | None, read: Iterable[str]
    ) -> frozenset[str]:
        """Every file one site's analysis read: its own, its callers', its classes', and
        ``read`` (tests, entry points and hops named in its evidence)."""
        reach = self.reach_files(function)
        return frozenset({path, *reach, *self.class_files(canonical), *read})

    def dirty(
        self,
        deps: RecordDeps | None,
        path: str,
        function: str | None,
        changed: frozenset[str],
        canonical: str | None = None,
        item: Item | None = None,
    ) -> bool:
        """Whether a record (``item``, its input) must be analysed again before its
        context is compared: it is in a changed file, or it read one (a caller's, its
        class's), unless every changed file it read changed locally (:attr:`local`) in
        none of its callers (its own function among them) and classes, and names none of
        the names its own file added."""
        if deps is None:
            return True
        if path in changed:
            change = self.local.get(path)
            if change is None or function is None or item is None:
                return True
            if change.added and names_any(change.added, repr(item)):
                return True
        if self.cut(function):  # a caller beyond the cut may be in any changed file
            read = changed
        else:
            read = (deps.files & changed) | self._changed_reach(function, changed)
            if not read:
                return False
        if not all(p in self.local for p in read):
            return True
        return self._reaches_units(function) or self._class_units(canonical)

    def _changed_reach(self, function: str | None, changed: frozenset[str]) -> set[str]:
        """``reach_files(function) & changed``, from the functions defined in a changed
        file (found once): most records' callers are in none, and their files are then
        not gathered at all (6,000 records of jax a re-scan, each with its callers)."""
        if function is None or not changed:
            return set()
        quals = self._changed_quals.get(changed)
        if quals is None:
            quals = frozenset(
                q
                for q, defs in self.index.functions.items()
                if any(f.path in changed for f in defs)
            )
            self._changed_quals[changed] = quals
        reach = self.graph.reach(function)
        if quals.isdisjoint(reach):
            return set()
        return self._function_files(q for q in reach if q in quals) & changed

    def _reaches_units(self, function: str | None) -> bool:
        """Whether a changed function of a local change reaches ``function``."""
        if function is None:
            return False
        found = self._reach_units.get(function)
        if found is None:
            reach = self.graph.reach(function)
            units = (q for change in self.local.values() for q in change.functions)
            found = self._reach_units[function] = any(q in reach for q in units)
        return found

    def _class_units(self, canonical: str | None) -> bool:
        """Whether a changed class of a local change is ``canonical`` or above it."""
        if not canonical:
            return False
        ancestors = self.tree.ancestors(canonical)
        return any(not ancestors.isdisjoint(c.classes) for c in self.local.values())
