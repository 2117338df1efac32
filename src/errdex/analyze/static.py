"""The static analyst: evidence for every site from the repository itself, then the fields.

``analyze_items`` takes the scan's ``(record, evidence)`` pairs and returns them
enriched. The repository is read once (library and test files), reduced to facts,
and every finder works on those facts: the enclosing function and its docstring,
the exception class, the public entry points through the call graph, the tests
that trigger each site, and related errors. The fields are then written from that
evidence alone (:mod:`errdex.analyze.fields`); a record with no evidence beyond the
site keeps the extractor's prose (:mod:`errdex.analyze.baseline`).
"""

from __future__ import annotations

import os
from collections import Counter
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass, field
from typing import Any

from errdex.evidence import CaughtBy, EntryPoint, Provenance, RaisesDoc, TestEvidence
from errdex.record import escaped_item
from errdex.source import Checkout

from .attr_stores import repo_files
from .background import background_tag
from .budget import FileBudget
from .callgraph import CallGraph, ReachCounts, build_callgraph
from .caught_words import caught_docs
from .chains import Chains
from .class_links import class_links
from .classes import ClassTree, class_info
from .conversions import caller_conversion, own_conversion, own_surfaces
from .deps import Prior, RecordDeps, Tracker, digest, input_digest, reused_item
from .direct_raises import direct_counts
from .docstrings import DocEntry, names_class, parse_raises
from .entrypoints import PublicApi, caught_by, entry_points, heir_rank
from .facts import FuncFacts, ModuleFacts
from .fields import ANALYST, write_fields
from .gathered import Gathered, function_info
from .guard_subject import Subject, guards_subject
from .guards import CONDITION_KINDS
from .hook_callers import hook_callers
from .hook_methods import HookMethods
from .import_lines import import_lines
from .init_only import init_reads
from .key_families import read_as_attribute
from .lazy_chain import chain_states
from .local_change import local_changes
from .made_ways import MadeWay, MadeWays
from .message_advice import FOLLOWED, RESTATED
from .outer_catch import outer_calls
from .outer_entries import ModuleOwn, outer_entry_points
from .pickle_paths import PICKLING_METHODS, run_by
from .quoting import NO_FIX
from .related import related_ids
from .repo import TEST_GLOBS, RepoIndex, build_index
from .roles import Raisers, raisers_of, site_role
from .sites import SiteView, site_views
from .test_choice import best_tests
from .tests_evidence import link_tests
from .tests_memo import ChoiceMemo, Choices
from .twins import dead_here, shadow_of, shadowed_by
from .way_ends import WayEnd, way_end
from .way_files import way_files, ways_changed

__all__ = ["PROSE_FIELDS", "Analysis", "analyze", "analyze_items", "analyze_with_index"]

Item = tuple[dict[str, Any], dict[str, Any]]

#: Written by the extractor's baseline when a record has no evidence beyond its site.
PROSE_FIELDS = ("documentation", "triggerScenarios", "commonSituations", "solutions")
#: Raises entries kept per site (own docstring first, then entry points').
MAX_RAISES_DOCS = 5


@dataclass
class Analysis:
    """The analysed items, in input order, and the files whose analysis was cut."""

    items: list[Item]
    #: ``(filePath, reason)`` for each file that ran out of budget: its records are
    #: returned as they came in (the extractor's account), counted like a skipped file.
    cut: list[tuple[str, str]] = field(default_factory=list)
    #: Record id -> what its analysis read (:mod:`errdex.analyze.deps`), for the records
    #: analysed (or kept) whole; a record missing here is analysed again next time.
    deps: dict[str, RecordDeps] = field(default_factory=dict)
    #: Which site each test expectation chose (:mod:`errdex.analyze.tests_memo`).
    choices: Choices = field(default_factory=dict)


#: How the extractor's baseline restates the raising function's condition ("Make sure
#: `not self._eof` holds when `f` reaches line 3"): the condition in the raise's own
#: terms, which a caller cannot act on; the static analyst's solution says less, truly.
_RESTATED = "Make sure "
#: How the extractor's solutions that quote the message begin (:mod:`.message_advice`).
_ADVICE = (RESTATED, FOLLOWED)


def _restates_guard(key: str, record: dict[str, Any], value: Any = None) -> bool:
    """The extractor's solution restates the guard, or says it has no fix, or only
    quotes the message's advice (which the analyst quotes too), where the analyst has
    more (a requirement over the raising method's own parameters)."""
    if key != "solutions":
        return False
    old = record.get("solutions") or []
    if old == [NO_FIX] and value and value != [NO_FIX]:
        return True
    if old and value and value != old and all(str(s).startswith(_ADVICE) for s in old):
        return True
    return any(str(s).startswith(_RESTATED) for s in old)


def analyze(
    checkout: Checkout,
    items: Sequence[Item],
    *,
    test_globs: Sequence[str] = TEST_GLOBS,
    library_files: Iterable[str] | None = None,
    jobs: int = 1,
    budget: float | None = None,
) -> Analysis:
    """The items with evidence gathered and analysis fields written; inputs are not changed.

    ``jobs > 1`` parses files in that many worker processes; ``budget`` is the CPU
    seconds one file's sites may take (None: :mod:`errdex.analyze.budget`'s default or
    ``ERRDEX_ANALYSIS_BUDGET``; ``math.inf``: no limit).
    """
    if not items:
        return Analysis([])
    index = build_index(checkout, library_files=library_files, test_globs=test_globs, jobs=jobs)
    return analyze_with_index(index, checkout.path_prefix, items, budget=budget)


def analyze_items(checkout: Checkout, items: Sequence[Item], **options: Any) -> list[Item]:
    """:func:`analyze`'s items only (the same options)."""
    return analyze(checkout, items, **options).items


class _Docs:
    """Raises entries per function, parsed once."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._memo: dict[str, list[DocEntry]] = {}

    def of(self, func: FuncFacts) -> list[DocEntry]:
        key = f"{func.path}:{func.line}"
        found = self._memo.get(key)
        if found is None:
            found = parse_raises(func.docstring, func.doc_line)
            if func.name == "__init__" and func.cls is not None:
                cls = self.index.classes.get(func.cls)
                if cls is not None:
                    found = found + parse_raises(cls.docstring, cls.doc_line)
            self._memo[key] = found
        return found

    def naming(self, func: FuncFacts, error_class: str) -> list[RaisesDoc]:
        return [
            RaisesDoc(
                style=entry.style,
                errorClass=next(n for n in entry.classes if n.split(".")[-1] == error_class),
                text=entry.text,
                path=func.path,
                line=entry.line,
            )
            for entry in self.of(func)
            if names_class(entry, error_class)
        ]


def _gather(
    site: SiteView,
    index: RepoIndex,
    graph: CallGraph,
    api: PublicApi,
    tree: ClassTree,
    docs: _Docs,
    imports: dict[str, dict[str, str]],
    entries: Callable[
        [SiteView, str], tuple[list[EntryPoint], list[CaughtBy], dict[str, Any] | None]
    ],
    reached_by: ReachCounts,
    raised_in: dict[str, Raisers],
    direct: Counter[tuple[str, str]] | None = None,
) -> Gathered:
    g = Gathered(site=site, observed=list(site.evidence.get("observed") or []))
    cls_key = site.canonical_class or site.error_class or ""
    func = index.function(site.function, site.line) if site.function else None
    g.func = func
    if func is not None and site.error_class:
        g.raises_own = docs.naming(func, site.error_class)
        if direct is not None:  # its own sites of the class and its direct callees'
            g.same_class_reached = direct[(func.qualname, cls_key)]
        if func.cls is not None and func.name in PICKLING_METHODS:
            g.pickled_by = run_by(index, func.cls, func.name)
    if site.canonical_class:
        g.class_info = class_info(index, site.canonical_class)
    g.shadow = shadow_of(index, site.module, site.function, site.path, site.rel)
    if func is not None and not dead_here(g.shadow):
        g.own_hook = api.hooks is not None and api.hooks(func.qualname)
        g.entry_points, g.caught_by, g.conversion = entries(site, func.qualname)
        for entry in g.entry_points:
            entry_func = index.function(entry["qualname"], entry.get("line"))
            entry_func = entry_func or api.function(entry["qualname"])  # inherited (.heirs)
            if entry_func is not None:
                g.entry_funcs[entry["qualname"]] = entry_func
                # an entry point's Raises entry is about this site only if it reaches no other
                if (
                    entry.get("depth", 0) > 0
                    and site.error_class
                    and reached_by[(entry["qualname"], cls_key)] == 1
                ):
                    g.raises_entry.extend(docs.naming(entry_func, site.error_class))
        g.raises_entry = g.raises_entry[: max(0, MAX_RAISES_DOCS - len(g.raises_own))]
        g.lazy = chain_states(index, func, g.entry_points, g.entry_funcs)
        for hooked in (func, *g.entry_funcs.values()):
            found = hook_callers(index, graph, api, hooked)
            if found is not None:
                g.hooks[hooked.qualname] = found
    if site.module not in imports:
        imports[site.module] = import_lines(index, site.module)
    g.import_lines = imports[site.module]
    module = index.modules.get(site.module)
    if module is not None:
        g.constants = module.platform_names
        g.import_flags = module.import_flags
        g.patterns = module.patterns
        if index.root:
            g.source_file = os.path.join(index.root, module.rel)
            g.repo_files = repo_files(index)
        g.module_names = frozenset(
            n for n in (*module.top, *module.imports, *module.settled) if not n.startswith("_")
        )
    g.caught_docs = caught_docs(index, site.module, site.guards)
    g.role = site_role(g, index, tree, raised_in)
    g.links = class_links(index, tree, func)
    ancestors = tree.ancestors(site.canonical_class) if site.canonical_class else frozenset()
    subject = _subject(g, module)
    g.subject = subject
    # a signal the library catches itself reports no failure: no cause family (a
    # ``ParseEscape`` is no parse error: blind review, stop 38)
    internal = g.role is not None and g.role.kind == "internal"
    read = read_as_attribute(g)
    g.background = (
        (None, None) if internal else background_tag(site, ancestors, subject, g.func, read)
    )
    return g


def _subject(g: Gathered, module: ModuleFacts | None) -> Subject | None:
    """What the site's condition tests (:mod:`.guard_subject`); unknown for a raise with a
    role (a signal, an abstract method: no failure of state), of an object whose class is
    not known (``raise self._base_error``), or in a method only a constructor reaches
    (``optparse.Option._check_type``: the object's attributes are the call's arguments)."""
    if g.role is not None or not g.site.error_class:
        return None
    seen = dict(module.imports) if module is not None else {}
    if g.func is not None:
        seen.update(g.func.local_imports)
    subject = guards_subject(g.site.guards, g.site.template, g.func, seen)
    built = ("__init__", "__new__")
    if subject == "state" and g.entry_points:  # reached only while the object is built
        ways = {e["qualname"].rpartition(".")[2] for e in g.entry_points}
        return None if ways <= set(built) else subject
    return subject


def analyze_with_index(
    index: RepoIndex,
    path_prefix: str,
    items: Sequence[Item],
    *,
    budget: float | None = None,
    prior: Prior | None = None,
    choices: Choices | None = None,
) -> Analysis:
    """:func:`analyze` over an index already built (re-analysis, tests).

    With a ``prior`` (the last analysis, :mod:`errdex.analyze.deps`), a record whose
    dependencies did not change keeps its stored analysed item; the others are analysed
    as a full run would. ``Analysis.deps`` holds every record's dependencies either way.
    ``choices`` are the last scan's test links (:mod:`errdex.analyze.tests_memo`);
    ``Analysis.choices`` this one's.
    """
    graph = build_callgraph(index)
    api = PublicApi(index)
    tree = ClassTree(index)
    docs = _Docs(index)
    sites = site_views(list(items), path_prefix)
    for site in sites:
        if site.qualified_class:
            site.canonical_class = index.canonical_qualified(site.qualified_class)
        elif site.error_class:
            site.canonical_class = index.canonical_class(site.module, (site.error_class,))
    imports: dict[str, dict[str, str]] = {}
    chains = Chains(index, tree)
    api.use_hooks(HookMethods(index, chains.callers, api.exported, api.handed))
    plumbing = ModuleOwn(index, chains, api)
    makers = MadeWays(index, chains.subclasses(), api.is_public, heir_rank(api))
    by_function: dict[str, list[SiteView]] = {}
    for site in sites:
        if site.function:
            by_function.setdefault(site.function, []).append(site)

    handed: dict[int, list[EntryPoint]] = {}  # site -> what hands out a way to it
    ends: dict[int, WayEnd | None] = {}  # site -> where a walk with no public call ends
    made: dict[int, MadeWay | None] = {}  # site -> a public call whose product reaches it
    outers: dict[int, dict[str, str]] = {}  # site -> entry point -> its package's outer call

    def entries(
        site: SiteView, function: str
    ) -> tuple[list[EntryPoint], list[CaughtBy], dict[str, Any] | None]:
        own = own_conversion(site)
        tested = [g for g in site.guards if g["kind"] in CONDITION_KINDS]
        how: dict[str, Any] = {
            "error_class": site.canonical_class,
            "guards": [g["text"] for g in tested],
            "guard_lines": [int(g.get("line") or 0) for g in tested],
            # a warning no ``except`` catches; a yielded exception is not raised by the
            # call that reaches it, so a handler around that call does not catch it
            "catchable": site.kind not in ("warn", "yield"),
            # a raise no loop encloses sees a parameter bound again only after it unchanged
            "line": None if any(g["kind"] in ("for", "while") for g in site.guards) else site.line,
            "at": site.line,  # which definition, of a function defined once per platform
        }
        if own is not None and own.get("qualifiedClass"):  # what leaves is the converted one
            how["error_class"] = index.canonical_qualified(str(own["qualifiedClass"]))
        found = entry_points(index, chains, api, function, **how)
        found = outer_entry_points(index, chains, plumbing, function, found, how) or found
        handed[site.index] = entry_points(index, chains, api, function, handed=True, **how)
        outers[site.index] = outer_calls(index, chains, api, function, found, how)
        walk = chains.walk(function, **how) if not found else None
        caught = caught_by(walk) if walk is not None else []
        ends[site.index] = way_end(index, chains, walk.hops) if walk is not None else None
        made[site.index] = makers.way(walk.hops) if walk is not None else None
        conversion = own or caller_conversion(
            site, lambda f: chains.at_calls(f, site.canonical_class), by_function
        )
        points = [EntryPoint(**e) for e in found]  # each record gets its own copy
        return (own_surfaces(points, own) if own else points), caught, conversion

    in_function: Counter[tuple[str, str]] = Counter()
    raised_in = raisers_of(sites)
    for site in sites:
        if site.function:
            in_function[(site.function, site.canonical_class or site.error_class or "")] += 1
    reached_by = ReachCounts(graph, in_function)  # a function's sites of a class at once
    direct = direct_counts(graph, in_function)
    inputs = {s.index: input_digest(items[s.index]) for s in sites}
    memo = ChoiceMemo(sites, choices or {})
    tests = link_tests(index, graph, tree, sites, choose=memo)
    tracker = Tracker(index, graph, tree)
    if prior is not None and index.carried is not None:
        carried = index.carried
        tracker.local = local_changes(
            index.modules, prior.old_facts, carried.last_edges, carried.edges
        )
    wide = _Wide(tests, in_function, index, raised_in)
    context = {s.index: wide.context(s) for s in sites}

    def counts(s: SiteView, entry_names: Sequence[str]) -> tuple[int, ...]:
        cls_key = s.canonical_class or s.error_class or ""
        return tuple(reached_by[(q, cls_key)] for q in entry_names)

    stored: dict[int, RecordDeps] = {}
    if prior is not None:
        for s in sites:
            deps = prior.records.get(s.record["id"])
            if (
                deps is not None
                and s.record["id"] in prior.outputs
                and deps.input == inputs[s.index]
                and deps.context == context[s.index]
                and deps.counts == counts(s, deps.entries)
                and not tracker.dirty(
                    deps, s.path, s.function, prior.changed, s.canonical_class, items[s.index]
                )
                and not ways_changed(index, prior.outputs[s.record["id"]], prior.changed)
            ):
                stored[s.index] = deps
    clock = FileBudget(budget)
    gathered: dict[int, Gathered] = {}

    def gather(chosen: Iterable[SiteView]) -> None:
        for s in chosen:
            with clock.charge(s.path) as allowed:
                if allowed:
                    g = _gather(
                        s,
                        index,
                        graph,
                        api,
                        tree,
                        docs,
                        imports,
                        entries,
                        reached_by,
                        raised_in,
                        direct,
                    )
                    wide.complete(g)
                    g.handed_out, g.way_end = handed.get(s.index, []), ends.get(s.index)
                    g.made_way = made.get(s.index)
                    g.outer_calls = outers.get(s.index, {})
                    gathered[s.index] = g

    gather(s for s in sites if s.index not in stored)
    entry_names = {i: [e["qualname"] for e in g.entry_points] for i, g in gathered.items()}
    entry_names.update((i, list(d.entries)) for i, d in stored.items())
    related = related_ids(
        sites, {i: [EntryPoint(qualname=q) for q in names] for i, names in entry_names.items()}
    )
    moved = [
        s
        for s in sites
        if s.index in stored and stored[s.index].related != tuple(related.get(s.index, []))
    ]
    for s in moved:  # a related error came or went: only this record's own fields change
        del stored[s.index]
    gather(moved)
    enriched: dict[int, Item] = {}
    for i, g in gathered.items():
        with clock.charge(g.site.path) as allowed:
            if allowed:
                enriched[i] = _enriched(g, related.get(i, []))
    out: list[Item] = []
    found: dict[str, RecordDeps] = {}
    assert prior is not None or not stored
    for s in sites:
        rid = s.record["id"]
        if clock.is_cut(s.path):
            out.append(items[s.index])
        elif s.index in stored:
            assert prior is not None
            out.append(reused_item(prior.outputs[rid], items[s.index]))
            found[rid] = stored[s.index]
        elif s.index in enriched:
            out.append(enriched[s.index])
            g = gathered[s.index]
            read = _read_paths(g) | way_files(index, g.entry_points, g.made_way)
            files = tracker.files(s.path, s.function, s.canonical_class, read)
            if files is not None:
                names = tuple(entry_names[s.index])
                found[rid] = RecordDeps(
                    inputs[s.index],
                    files,
                    context[s.index],
                    names,
                    counts(s, names),
                    tuple(related.get(s.index, [])),
                )
        else:
            out.append(items[s.index])
    if prior is not None:
        prior.kept, prior.reanalysed = len(stored), len(enriched)
    return Analysis(out, clock.cut_files(), found, memo.now)


@dataclass
class _Wide:
    """What the repository-wide passes give each site: its tests, its class's sites in
    its function, whether tests were read."""

    tests: dict[int, list[TestEvidence]]
    in_function: Counter[tuple[str, str]]
    index: RepoIndex
    #: The modules each class is raised in: a class raised elsewhere too is no signal
    #: of its own module (:func:`errdex.analyze.roles.site_role`).
    raised_in: dict[str, Raisers] = field(default_factory=dict)
    _raisers_memo: dict[str, str | None] = field(default_factory=dict)

    def _same(self, s: SiteView) -> int:
        key = (s.function or "", s.canonical_class or s.error_class or "")
        return self.in_function[key] if s.function else 1

    def context(self, s: SiteView) -> str:
        """A digest of it, compared on a re-scan."""
        tests_read = self.index.tests_read  # the count: the prose names it
        raisers = self._raisers(s.canonical_class or "")
        parts: tuple[object, ...] = (
            self.tests.get(s.index, []), self._same(s), tests_read, s.canonical_class, raisers
        )  # fmt: skip
        init = self._init_reads(s)
        return digest((*parts, init) if init is not None else parts)

    def _init_reads(self, s: SiteView) -> tuple[object, ...] | None:
        """What :mod:`.init_only` reads for the site: stores of a name in any module."""
        module = self.index.modules.get(s.module)
        if not s.function or module is None or not self.index.root:
            return None
        func = self.index.function(s.function, s.line)
        path = os.path.join(self.index.root, module.rel)
        return init_reads(s.guards, func, path, repo_files(self.index))

    def _raisers(self, canonical: str) -> str | None:
        """The digest of where a class is raised, once per class: ``ValueError``'s modules
        are hundreds, sorted and written out again for each of its thousands of sites."""
        if canonical in self._raisers_memo:
            return self._raisers_memo[canonical]
        found = self.raised_in.get(canonical)
        value = digest((sorted(found.modules), found.worded)) if found is not None else None
        self._raisers_memo[canonical] = value
        return value

    def complete(self, g: Gathered) -> None:
        """Write it into a site's gathered evidence."""
        if g.site.function:
            g.same_class_in_function = self._same(g.site)
        g.tests = self.tests.get(g.site.index, [])
        confirmed = {
            t.get("name") for t in g.site.evidence.get("tests") or [] if t.get("confirmed")
        }
        if confirmed:  # a harvest run confirmed them (analyze.harvest.confirm): kept
            g.tests = [
                TestEvidence(**t, confirmed=True) if t.get("name") in confirmed else t
                for t in g.tests
            ]
        g.tests, g.tests_more = best_tests(g.tests, g.site.error_class, g.site.module)
        g.tests_read = self.index.tests_read > 0
        g.test_files_read = self.index.tests_read


def _read_paths(g: Gathered) -> set[str]:
    """Files the evidence of one site names besides its callers: tests, entry points."""
    paths = {t["path"] for t in g.tests if "path" in t}
    paths.update(e["path"] for e in g.entry_points if "path" in e)
    paths.update(f.path for f in g.entry_funcs.values())
    return paths


def _enriched(g: Gathered, related: list[str]) -> Item:
    site = g.site
    record = dict(site.record)
    evidence = dict(site.evidence)
    if g.func is not None:
        evidence["function"] = function_info(g.func)
    evidence["raisesDoc"] = [*g.raises_own, *g.raises_entry]
    if g.class_info is not None:
        evidence["classInfo"] = g.class_info
    evidence["entryPoints"] = g.entry_points
    if g.handed_out:
        evidence["handedOut"] = g.handed_out
    if g.made_way is not None:
        evidence["madeBy"] = g.made_way.evidence()
    if g.caught_by:
        evidence["caughtBy"] = g.caught_by
    if g.conversion is not None:
        evidence["conversion"] = g.conversion
    if g.caught_docs:
        evidence["caughtDocs"] = g.caught_docs
    evidence["tests"] = g.tests
    if g.tests_more:
        evidence["testsMore"] = g.tests_more  # more tests expect it than the record lists
    evidence["testsRead"] = g.tests_read  # False: an empty ``tests`` says nothing of them
    evidence["testFilesRead"] = g.test_files_read
    evidence["related"] = related
    if g.shadow is not None:
        evidence["shadowedBy"] = shadowed_by(g.shadow)
    if g.role is not None:
        evidence["role"] = {
            # an internal signal is a signal to the record's readers (evidence.RoleEvidence)
            "kind": "abstract" if g.role.kind == "abstract" else "signal",
            "subject": g.role.subject,
            "implementations": list(g.role.implementations),
        }
    fields, provenance = write_fields(g, list(record.get("tags") or []))
    old: dict[str, Provenance] = dict(evidence.get("provenance") or {})
    keep_prose = not g.has_evidence
    for key, value in fields.items():
        if old.get(key, {}).get("analyst") == "llm":
            continue  # a model's answer stands until the model runs again
        if (
            keep_prose
            and key in PROSE_FIELDS
            and old.get(key, {}).get("analyst") != ANALYST
            and not _restates_guard(key, record, value)
            # the extractor says no tests were examined: false once they were read
            and not (key == "commonSituations" and g.tests_read)
        ):
            continue  # nothing beyond the site: the extractor's account stays
        record[key] = value
        if key in provenance:
            old[key] = provenance[key]
        else:
            old.pop(key, None)
    evidence["provenance"] = old
    if evidence.get("analysis") != "llm":
        evidence["analysis"] = ANALYST
    return escaped_item(record, evidence)  # docstrings and tests may hold lone surrogates
