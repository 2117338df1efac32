"""The repository as the analyst sees it: every module's facts, and names resolved to them.

Library files and test files are read once each (tests even when the scan left them
out of the catalogue), reduced to facts, and indexed by qualified name so that calls,
base classes and ``pytest.raises(nx.NetworkXError)`` resolve through imports,
re-exports and star imports to the definition they mean.
"""

from __future__ import annotations

import builtins
import logging
import os
from collections.abc import Callable, Iterable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from errdex._gc import gc_paused
from errdex.extract.python import module_name_for
from errdex.source import Checkout, SourceError, iter_source_files
from errdex.source.reading import SourceSkip, read_source

from .expects import HELPER_CALL
from .facts import CallRef, ClassFacts, FuncFacts, ModuleFacts
from .package_twins import Alternative
from .walk import module_facts

log = logging.getLogger(__name__)

__all__ = [
    "TEST_GLOBS",
    "Carried",
    "RepoIndex",
    "Target",
    "build_index",
    "index_files",
    "index_of",
    "read_facts",
]

#: Where tests live: read for evidence even when the scan does not catalogue them.
TEST_GLOBS: tuple[str, ...] = (
    "**/test*/**",
    "**/*_test/**",
    "**/*_tests/**",
    "**/test_*.py",
    "**/*_test.py",
    "**/conftest.py",
)
#: Folders whose tests are other distributions' (pyenv's ``lib/python3.11/site-packages``
#: sits under the standard library's root): never read as the repository's tests.
INSTALLED_DIRS = frozenset({"site-packages", "dist-packages"})

_BUILTIN_NAMES = frozenset(dir(builtins))
_MAX_RESOLVE_DEPTH = 12

TargetKind = Literal["function", "class", "module"]


@dataclass(frozen=True, slots=True)
class Target:
    kind: TargetKind
    qualname: str


@dataclass
class Carried:
    """What an incremental scan carries from the last scan's repository-wide passes into
    this index's (:mod:`errdex.scan_reuse` sets it; each pass says what it may reuse)."""

    #: The paths (as records write them) of the analyst's files changed since the last
    #: scan, when every change stays local (:mod:`errdex.analyze.deps`); None: reuse
    #: nothing, only keep this scan's results for the next.
    changed: frozenset[str] | None = None
    #: The last scan's call-graph edges by file (:data:`~errdex.analyze.callgraph.EdgeTables`).
    last_edges: dict[str, dict[str, dict[str, str]]] | None = None
    #: This scan's, left by :func:`~errdex.analyze.callgraph.build_callgraph`.
    edges: dict[str, dict[str, dict[str, str]]] | None = None
    #: The last scan's exact call targets by file, and this scan's
    #: (:data:`~errdex.analyze.chain_targets.TargetTables`).
    last_targets: dict[str, Any] | None = None
    targets: dict[str, Any] | None = None


@dataclass
class RepoIndex:
    """Facts of every module, by qualified name."""

    modules: dict[str, ModuleFacts] = field(default_factory=dict)
    functions: dict[str, list[FuncFacts]] = field(default_factory=dict)
    classes: dict[str, ClassFacts] = field(default_factory=dict)
    methods_by_name: dict[str, list[str]] = field(default_factory=dict)
    unreadable: list[str] = field(default_factory=list)
    #: Test modules read: 0 means errdex knows nothing of the tests (an installed copy
    #: ships none, or reading them was turned off), not that none expects an error.
    tests_read: int = 0
    #: The checkout's directory the files were read from ("" where unknown): a rule
    #: that reads a module's whole tree again (:mod:`.file_trees`) finds it there.
    root: str = ""
    #: Set by an incremental scan (None: every pass starts afresh).
    carried: Carried | None = None
    _attr_memo: dict[tuple[str, str], Target | None] = field(default_factory=dict)
    #: Class -> its C3 order (:meth:`method`), emptied whenever a module is added.
    _mro_memo: dict[str, list[str] | None] = field(default_factory=dict)
    #: Modules imported only in a fallback that does not run here (``analyze.twins``).
    twin_memo: dict[str, tuple[str, int, str]] | None = None
    #: Modules imported only in place of a compiled one of their package (``analyze.package_twins``).
    package_memo: dict[str, tuple[Alternative, str]] | None = None
    #: Every library module's file on disk (``analyze.attr_stores.repo_files``).
    files_memo: tuple[str, ...] | None = None

    # -- building ---------------------------------------------------------------------

    def add(self, facts: ModuleFacts) -> None:
        if facts.name in self.modules:
            return
        self.modules[facts.name] = facts
        self._mro_memo.clear()
        # a test file with no test in it (``tests/__init__.py``, ``test_cases.py`` data) is
        # no evidence of the suite: an installed copy often ships only those
        self.tests_read += facts.is_test and (
            any(e.kind != HELPER_CALL for e in facts.expects)
            or any(f.name.startswith("test") for f in facts.functions)
        )
        for func in facts.functions:
            self.functions.setdefault(func.qualname, []).append(func)
            if func.cls is not None and not func.is_test:
                self.methods_by_name.setdefault(func.name, []).append(func.qualname)
        for cls in facts.classes:
            self.classes.setdefault(cls.qualname, cls)

    # -- lookups ----------------------------------------------------------------------

    def function(self, qualname: str, line: int | None = None) -> FuncFacts | None:
        """The definition of ``qualname``; the one spanning ``line`` when it is defined twice."""
        found = self.functions.get(qualname)
        if not found:
            return None
        if line is not None:
            for func in found:
                if func.line <= line <= func.end_line:
                    return func
        return found[0]

    def resolve(
        self, module: str, ref: CallRef, local_imports: dict[str, str] | None = None
    ) -> Target | None:
        """What ``ref`` names inside ``module`` (a function, class or module of the repo)."""
        if not ref or not ref[0] or ref[0] == "super()":
            return None
        facts = self.modules.get(module)
        head, rest = ref[0], ref[1:]
        if local_imports and head in local_imports:
            return self.resolve_qualified(".".join((local_imports[head], *rest)))
        if facts is not None:
            if head in facts.top:
                return self.resolve_qualified(".".join((facts.top[head], *rest)))
            if head in facts.imports:
                if head in facts.fresh_names:  # imported again with its C twin blocked
                    found = self._fallback(facts.imports[head], facts.fresh_names[head], rest)
                    if found is not None:
                        return found
                return self.resolve_qualified(".".join((facts.imports[head], *rest)))
            for star in facts.star:
                target = self._attr(star, head, 0)
                if target is not None:
                    return self._descend(target, rest, 0)
        return None

    def _fallback(self, module: str, blocked: tuple[str, ...], rest: CallRef) -> Target | None:
        """``rest`` in the module ``module`` imports where a blocked C module fails to
        (``decimal`` without ``_decimal``: ``_pydecimal``), if it is there."""
        facts = self.modules.get(module)
        for fallback, c_module, _ in facts.fallbacks if facts is not None else ():
            if c_module in blocked:
                found = self.resolve_qualified(".".join((fallback, *rest)))
                if found is not None:
                    return found
        return None

    def resolve_qualified(self, dotted: str, depth: int = 0) -> Target | None:
        """A dotted name (``networkx.NetworkXError``) to the definition it re-exports."""
        if depth > _MAX_RESOLVE_DEPTH:
            return None
        if dotted in self.functions:
            return Target("function", dotted)
        if dotted in self.classes:
            return Target("class", dotted)
        if dotted in self.modules:
            return Target("module", dotted)
        parts = dotted.split(".")
        for i in range(len(parts) - 1, 0, -1):
            prefix = ".".join(parts[:i])
            if prefix in self.modules:
                target = self._attr(prefix, parts[i], depth + 1)
                return None if target is None else self._descend(target, parts[i + 1 :], depth)
            if prefix in self.classes:
                method = self.method(prefix, parts[i])
                if method is not None and i == len(parts) - 1:
                    return Target("function", method)
                return None
        return None

    def _descend(self, target: Target, rest: Sequence[str], depth: int) -> Target | None:
        if not rest:
            return target
        if target.kind == "class" and len(rest) == 1:
            method = self.method(target.qualname, rest[0])
            return Target("function", method) if method is not None else None
        return self.resolve_qualified(".".join((target.qualname, *rest)), depth + 1)

    def _attr(self, module: str, name: str, depth: int) -> Target | None:
        """``module.name``: a definition, an import, a submodule or a star-imported name."""
        key = (module, name)
        if key in self._attr_memo:
            return self._attr_memo[key]
        self._attr_memo[key] = None  # cycles resolve to nothing
        result = self._attr_uncached(module, name, depth)
        self._attr_memo[key] = result
        return result

    def _attr_uncached(self, module: str, name: str, depth: int) -> Target | None:
        if depth > _MAX_RESOLVE_DEPTH:
            return None
        facts = self.modules.get(module)
        if facts is None:
            return None
        if name in facts.top:
            return self.resolve_qualified(facts.top[name], depth + 1)
        if name in facts.imports:
            return self.resolve_qualified(facts.imports[name], depth + 1)
        sub = f"{module}.{name}"
        if sub in self.modules:
            return Target("module", sub)
        for star in facts.star:
            star_facts = self.modules.get(star)
            if star_facts is None:
                continue
            exported = (
                name in star_facts.all_names
                if star_facts.all_names is not None
                else not name.startswith("_")
            )
            if exported:
                target = self._attr(star, name, depth + 1)
                if target is not None:
                    return target
        return None

    def method(self, cls: str, name: str, depth: int = 0) -> str | None:
        """``cls.name`` looked up along the repository's base classes in C3 order, as
        Python does (``class D(B, C)`` with only ``C`` overriding ``A.m`` runs ``C.m``;
        a depth-first walk found ``A.m`` through ``B``). Classes outside the repository
        are passed over; where C3 cannot order the hierarchy, bases depth-first."""
        from .heir_lookup import mro  # heir_lookup reads the index: imported on use

        if depth:
            return self._method_depth_first(cls, name, depth)
        if cls not in self._mro_memo:
            self._mro_memo[cls] = mro(self, cls)
        order = self._mro_memo[cls]
        if order is None:
            return self._method_depth_first(cls, name, depth)
        for here in order:
            facts = self.classes.get(here)
            if facts is None:
                continue  # outside the repository (``builtins.object`` too)
            qual = f"{here}.{name}"
            if qual in self.functions:
                return qual
            if name in facts.assigned:
                return self._assigned_method(facts, name)
        return None

    def _method_depth_first(self, cls: str, name: str, depth: int) -> str | None:
        qual = f"{cls}.{name}"
        if qual in self.functions:
            return qual
        facts = self.classes.get(cls)
        if facts is not None and name in facts.assigned:
            return self._assigned_method(facts, name)
        if depth > 8:
            return None
        for base in self.bases(cls):
            found = self._method_depth_first(base, name, depth + 1)
            if found is not None:
                return found
        return None

    def _assigned_method(self, facts: ClassFacts, name: str) -> str | None:
        """What ``name``, assigned in the class body, runs: the class's own method it
        names (``__iter__ = keys``), else nothing known; the bases' ``name`` is shadowed
        (``IPv6Network._address_class = IPv6Address`` over ``_BaseNetwork``'s property)."""
        ref = facts.attrs.get(name)
        own = f"{facts.qualname}.{ref[0]}" if ref is not None and len(ref) == 1 else None
        return own if own is not None and own in self.functions else None

    def bases(self, cls: str) -> list[str]:
        """Base classes of a repository class: qualnames, ``builtins.X``, or dotted text."""
        facts = self.classes.get(cls)
        if facts is None:
            return []
        out: list[str] = []
        for ref in facts.bases:
            target = self.resolve(facts.module, ref)
            if target is not None and target.kind == "class":
                out.append(target.qualname)
            elif len(ref) == 1 and ref[0] in _BUILTIN_NAMES:
                out.append(f"builtins.{ref[0]}")
            else:
                owner = self.modules.get(facts.module)
                head = ref[0]
                if owner is not None and head in owner.imports:
                    out.append(".".join((owner.imports[head], *ref[1:])))
                else:
                    out.append(".".join(ref))
        return out

    def canonical_class(self, module: str | None, ref: CallRef, depth: int = 0) -> str:
        """A class expression as a canonical name: repo qualname, ``builtins.X`` or as
        imported; through a module's top-level alias (``dbm.dumb``'s ``error = OSError``:
        ``dumbdbm.error`` is ``builtins.OSError``)."""
        if module is not None:
            target = self.resolve(module, ref)
            if target is not None and target.kind == "class":
                return target.qualname
            aliased = self._aliased(module, ref) if depth < _MAX_RESOLVE_DEPTH else None
            if aliased is not None:
                return self.canonical_class(aliased[0], aliased[1], depth + 1)
        if len(ref) == 1 and ref[0] in _BUILTIN_NAMES:
            return f"builtins.{ref[0]}"
        owner = self.modules.get(module or "")
        if owner is not None and ref and ref[0] in owner.imports:
            return ".".join((owner.imports[ref[0]], *ref[1:]))
        return ".".join(ref)

    def _aliased(self, module: str, ref: CallRef) -> tuple[str, CallRef] | None:
        """(module, dotted name) that ``ref`` in ``module`` stands for when its last part
        is a top-level alias of the module it names (or of ``module`` itself)."""
        owner: str | None = module
        imported = self.modules[module].imports if module in self.modules else {}
        if len(ref) == 1 and ref[0] in imported:  # ``from dbm.dumb import error``
            owner, _, name = imported[ref[0]].rpartition(".")
            ref = (name,)
        elif len(ref) > 1:
            target = self.resolve(module, ref[:-1])
            owner = target.qualname if target is not None and target.kind == "module" else None
        facts = self.modules.get(owner) if owner is not None else None
        if facts is None or facts.name != owner:
            return None
        alias = facts.aliases.get(ref[-1])
        if alias is None or ref[-1] in facts.top or ref[-1] in facts.imports:
            return None
        return owner, alias

    def canonical_qualified(self, qualified: str) -> str:
        """``networkx.NetworkXError`` (as the extractor resolved it) -> the defining class;
        through the module's top-level alias (``asyncio.exceptions.TimeoutError``, bound
        by ``TimeoutError = TimeoutError``, is ``builtins.TimeoutError``: an ``except``
        naming either catches it)."""
        target = self.resolve_qualified(qualified)
        if target is not None and target.kind == "class":
            return target.qualname
        module, _, name = qualified.rpartition(".")
        if module in self.modules and self._aliased(module, (name,)) is not None:
            found = self.canonical_class(module, (name,))
            if found in self.classes or found.startswith("builtins."):
                return found
        return qualified


#: Files per worker task when reading in parallel.
CHUNK = 32


def build_index(
    checkout: Checkout,
    *,
    library_files: Iterable[str] | None = None,
    test_globs: Sequence[str] = TEST_GLOBS,
    read: Callable[[str], str | None] | None = None,
    jobs: int = 1,
) -> RepoIndex:
    """Read and reduce every library and test file of ``checkout`` once.

    ``library_files`` defaults to what a scan with default rules lists; test files are
    found with ``test_globs`` whatever the scan admitted. ``read`` replaces reading
    from disk (``rel`` -> text, or None when unreadable). With ``jobs > 1`` files are
    parsed in worker processes and only their facts come back.
    """
    wanted = index_files(checkout, library_files=library_files, test_globs=test_globs)
    index = index_of(read_facts(checkout, wanted, read=read, jobs=jobs))
    index.root = str(checkout.root) if read is None else ""
    return index


def index_files(
    checkout: Checkout,
    *,
    library_files: Iterable[str] | None = None,
    test_globs: Sequence[str] = TEST_GLOBS,
) -> list[tuple[str, bool]]:
    """The files :func:`build_index` reads, in its order, each with whether it is a test
    (an incremental scan reuses the facts of those that did not change)."""
    if library_files is None:
        library_files = iter_source_files(checkout).files
    try:
        tests = iter_source_files(checkout, include=list(test_globs)).files if test_globs else []
    except SourceError:
        tests = []
    tests = [rel for rel in tests if not INSTALLED_DIRS.intersection(rel.split("/")[:-1])]
    test_set = set(tests)
    wanted: list[tuple[str, bool]] = []
    seen: set[str] = set()
    for rel in [*library_files, *tests]:
        if rel not in seen and rel.endswith(".py"):
            seen.add(rel)
            wanted.append((rel, rel in test_set))
    return wanted


def read_facts(
    checkout: Checkout,
    wanted: list[tuple[str, bool]],
    *,
    read: Callable[[str], str | None] | None = None,
    jobs: int = 1,
) -> list[tuple[str, ModuleFacts | None]]:
    """The facts of ``wanted`` files (as :func:`index_files` lists them), in order."""
    if jobs > 1 and read is None and len(wanted) > 2 * CHUNK:
        workers = min(jobs, os.cpu_count() or jobs)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            chunks = [wanted[i : i + CHUNK] for i in range(0, len(wanted), CHUNK)]
            futures = [
                pool.submit(_read_chunk, checkout.root, checkout.path_prefix, c) for c in chunks
            ]
            return [pair for f in futures for pair in f.result()]
    return _read_chunk(checkout.root, checkout.path_prefix, wanted, read)


def index_of(facts: Iterable[tuple[str, ModuleFacts | None]]) -> RepoIndex:
    """An index of files' facts, in order (the first module of a name wins)."""
    index = RepoIndex()
    for rel, module in facts:
        if module is None:
            index.unreadable.append(rel)
        else:
            index.add(module)
    return index


def _read_chunk(
    root: Path,
    prefix: str,
    files: list[tuple[str, bool]],
    read: Callable[[str], str | None] | None = None,
) -> list[tuple[str, ModuleFacts | None]]:
    """Facts of some files (a worker task); None for a file that cannot be read or parsed."""
    reader = read or _disk_reader(root)
    out: list[tuple[str, ModuleFacts | None]] = []
    with gc_paused():  # as in the scan: the collector's passes over AST nodes cost more
        for rel, is_test in files:
            text = reader(rel)
            facts = _facts_or_none(text, rel, prefix, is_test) if text is not None else None
            out.append((rel, facts))
    return out


def _facts_or_none(text: str, rel: str, prefix: str, is_test: bool) -> ModuleFacts | None:
    """One file's facts; a file the reader fails on is left out like one that does not
    parse (counted as unreadable), and the rest of the analysis goes on: an unread
    ``with pytest.raises(...)`` form of pandas' tests once sank its whole analysis."""
    try:
        return module_facts(text, rel, prefix + rel, module_name_for(rel), is_test=is_test)
    except RecursionError:
        return None
    except Exception as exc:  # one file's oddity must not cost every record its analysis
        log.warning("facts of %s not read (%s: %s): left out", rel, type(exc).__name__, exc)
        return None


def _disk_reader(root: Path) -> Callable[[str], str | None]:
    def read(rel: str) -> str | None:
        try:
            return read_source(root / rel)
        except SourceSkip:
            return None

    return read
