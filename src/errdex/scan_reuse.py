"""What an incremental scan reuses, and how reused items are brought up to date.

Three levels, each exact:

1. **The catalogue's records** (``whole == "catalogue"``): when the fingerprint of every
   input (each listed file's digest, the analyst's test files, the options, the
   checkout's commit, ref and permalink base, this errdex) equals the one the catalogue
   stored with its current records, and nothing has written to the catalogue since, the
   scan returns no items and the caller only notes a new scan over the same records.
2. **The whole result** (``whole == "result"``): the same inputs, commit aside, give the
   same analysed items; they are loaded from the cache with the commit-dependent fields
   written afresh (:func:`restamp`).
3. **Per file** (``whole == "files"``): an unchanged file's extracted items and the
   analyst's facts of it come from the cache; changed files are read again. The static
   analyst then builds its repository-wide passes on an index of cached and fresh
   facts, and re-analyses only the records whose dependencies (:mod:`errdex.analyze.deps`:
   the files their analysis read, the tests and related errors linked to them) changed;
   the others keep the last analysis's items (:func:`analyst_prior`). A change a file's
   dependencies cannot bound (a name other modules use now means something else)
   re-analyses every record.

A file's entries are keyed by its content digest, so a changed file never serves its
old items, a deleted one is not listed and so not served, and a renamed one is a new
path, read again.
"""

from __future__ import annotations

import hashlib
import json
import os
import pickle
from collections.abc import Iterable, Sequence
from dataclasses import asdict, dataclass, field
from pathlib import Path
from typing import Any

from errdex._gc import gc_paused
from errdex.analyze.budget import BUDGET_ENV
from errdex.analyze.callgraph import EdgeTables
from errdex.analyze.deps import (
    FileShape,
    Prior,
    RecordDeps,
    file_shape,
    imports_of_a_test,
    interface,
    interface_change,
    module_reach,
    names_elsewhere,
)
from errdex.analyze.facts import ModuleFacts
from errdex.analyze.repo import (
    TEST_GLOBS,
    Carried,
    RepoIndex,
    index_files,
    index_of,
    read_facts,
)
from errdex.evidence import source_evidence
from errdex.extract.python.read_views import split as split_view
from errdex.record import escape_surrogates, escaped_item
from errdex.scan_cache import Digests, PartsWrite, ScanCache, scope_key
from errdex.scan_parts import LastResult, last_maps, last_result, split, split_maps
from errdex.scan_views import ViewDigests
from errdex.source import Checkout, FileListing
from errdex.source.permalink import permalinker

__all__ = [
    "CacheUse",
    "Plan",
    "analyst_prior",
    "analyst_state",
    "cached_index",
    "catalogue_fingerprint",
    "inputs_fingerprint",
    "pickled",
    "plan_scan",
    "restamp",
]

Item = tuple[dict[str, Any], dict[str, Any]]

#: Changed analyst files, at most, whose last facts are loaded to tell which of their
#: functions and classes changed (:mod:`errdex.analyze.local_change`): more, and every
#: record reading one of them is analysed again.
MOST_STALE = 8


@dataclass
class CacheUse:
    """How much of a scan came from the cache (the summary prints it)."""

    #: Files whose items came from the cache, and files read and extracted again.
    files_reused: int = 0
    files_reread: int = 0
    #: Of ``files_reread``: unchanged files read again only because a file their last
    #: extraction read besides their own changed (a message built in another module),
    #: with the changed files that caused it, by path.
    files_reread_for_reads: int = 0
    reads_changed: set[str] = field(default_factory=set, repr=False)
    #: Of the analyst's files (library and tests): facts reused, and files parsed again.
    facts_reused: int = 0
    facts_reread: int = 0
    #: Files known unchanged from their stat alone, and files read to hash them.
    from_stat: int = 0
    hashed: int = 0
    #: Analysed records whose last analysis stood, and records analysed again.
    records_kept: int = 0
    records_reanalysed: int = 0
    #: ``catalogue``, ``result``, ``files`` (see the module docstring), or ``none``.
    whole: str = "none"
    #: The catalogue fingerprint of this scan's inputs (stored beside its records).
    fingerprint: str = ""
    problem: str | None = None
    by_path: dict[str, str | None] = field(default_factory=dict, repr=False)

    def to_json(self) -> dict[str, Any]:
        return {
            "filesReused": self.files_reused,
            "filesReread": self.files_reread,
            "filesRereadForReads": self.files_reread_for_reads,
            "analystFilesReused": self.facts_reused,
            "analystFilesReread": self.facts_reread,
            "knownByStat": self.from_stat,
            "hashed": self.hashed,
            "recordsKept": self.records_kept,
            "recordsReanalysed": self.records_reanalysed,
            "reused": self.whole,
        }

    def line(self) -> str:
        """For the scan summary: files reused against re-read."""
        text = f"{self.files_reused:,} files reused, {self.files_reread:,} re-read"
        if self.files_reread_for_reads:
            text += (
                f" ({self.files_reread_for_reads:,} unchanged, for a file they read:"
                f" {', '.join(sorted(self.reads_changed)[:3])}"
                f"{', ...' if len(self.reads_changed) > 3 else ''})"
            )
        if self.facts_reused or self.facts_reread:
            text += f"; analyst: {self.facts_reused:,} reused, {self.facts_reread:,} re-read"
        if self.records_kept:
            text += (
                f"; records: {self.records_kept:,} kept, {self.records_reanalysed:,} analysed again"
            )
        if self.whole == "catalogue":
            text += "; nothing changed: records kept as stored"
        elif self.whole == "result":
            text += "; nothing changed: the last result reused"
        return text

    def count(self, digests: Digests) -> None:
        self.from_stat += digests.from_stat
        self.hashed += digests.hashed
        self.by_path.update(digests.by_path)


def _digest(value: Any) -> str:
    text = json.dumps(value, sort_keys=True, separators=(",", ":"), ensure_ascii=True)
    return hashlib.sha256(text.encode()).hexdigest()[:32]


def inputs_fingerprint(
    scope: str,
    options: dict[str, Any],
    files: Sequence[str],
    analyst_files: Sequence[tuple[str, bool]],
    digests: dict[str, str | None],
    listing: dict[str, Any],
) -> str:
    """What the analysed items depend on, commit and permalinks aside."""
    return _digest(
        {
            "scope": scope,
            "options": options,
            "files": [(rel, digests.get(rel)) for rel in files],
            "analyst": [(rel, test, digests.get(rel)) for rel, test in analyst_files],
            "listing": listing,
        }
    )


def catalogue_fingerprint(inputs: str, checkout: Checkout) -> str:
    """:func:`inputs_fingerprint` with everything of the checkout that records show."""
    data = asdict(checkout)
    data.pop("root")
    data.pop("files")
    return _digest({"inputs": inputs, "checkout": data})


def restamp(items: Sequence[Item], checkout: Checkout, sha: str | None) -> list[Item]:
    """Cached items with the fields that depend on the commit written as a fresh scan
    writes them: permalink, ``analyzedSha``, ``evidence.source``."""
    prefix = checkout.path_prefix
    source = source_evidence(checkout)
    odd_source = any(isinstance(v, str) and escape_surrogates(v) != v for v in source.values())
    links: dict[str, Any] = {}
    out: list[Item] = []
    for record, evidence in items:
        path = record["filePath"]
        if path not in links:
            rel = path[len(prefix) :] if prefix and path.startswith(prefix) else path
            links[path] = permalinker(checkout, rel)
        link = links[path]
        record = dict(record)
        start, end = record["sourceCodeStart"], record["sourceCodeEnd"]
        record["githubUrl"] = link(start, end) if link else None
        record["analyzedSha"] = sha
        evidence = {**evidence, "source": source}
        url = record["githubUrl"]
        if odd_source or (url is not None and escape_surrogates(url) != url):
            record, evidence = escaped_item(record, evidence)  # as build_items does
        out.append((record, evidence))
    return out


def cached_index(
    cache: ScanCache,
    scope: str,
    checkout: Checkout,
    wanted: list[tuple[str, bool]],
    use: CacheUse,
    *,
    jobs: int = 1,
    read: bool = True,
) -> tuple[RepoIndex, dict[str, tuple[str, bool, ModuleFacts | None]]]:
    """The analyst's index from cached facts where a file is unchanged (``read=False``:
    none is), parsing the rest; returns it with the fresh facts to cache."""
    digests = use.by_path
    known: dict[str, Any] = {}
    if read:
        with gc_paused():
            known = cache.load("facts", scope, {rel: digests.get(rel) for rel, _ in wanted})
    missing = [(rel, test) for rel, test in wanted if known.get(rel, (None, None))[1] is not test]
    fresh = dict(read_facts(checkout, missing, jobs=jobs)) if missing else {}
    use.facts_reused += len(wanted) - len(missing)
    use.facts_reread += len(missing)
    ordered = [(rel, fresh[rel] if rel in fresh else known[rel][0]) for rel, _ in wanted]
    to_cache: dict[str, tuple[str, bool, ModuleFacts | None]] = {}
    for rel, test in missing:
        digest = digests.get(rel)
        if digest is not None:
            to_cache[rel] = (digest, test, fresh[rel])
    return index_of(ordered), to_cache


def pickled(value: Any) -> bytes:
    return pickle.dumps(value, protocol=5)


@dataclass
class Plan:
    """One cached scan's keys, what it learnt, and what it will write back."""

    cache: ScanCache
    scope: str
    key: str
    inputs: str
    wanted: list[tuple[str, bool]]
    use: CacheUse
    #: The checkout's pin and permalink base (items cached under another are restamped).
    stamp: str = ""
    #: False: nothing is taken from the cache, which is only written (``--no-cache``).
    read: bool = True
    #: The checkout's root (files an extraction read besides its own are hashed there).
    root: Path = Path(".")
    extracted: dict[str, tuple[str, bytes]] = field(default_factory=dict)
    facts: dict[str, Any] = field(default_factory=dict)
    #: What package files' texts show, made by this scan's extractions (by path, digest).
    texts: dict[tuple[str, str], Any] = field(default_factory=dict)
    #: The analyst's files and records as this scan's analysis read them (saved with
    #: the whole result, which holds the records' items).
    analyst: dict[str, Any] | None = None
    #: The files of the last analysis (from the cache), by path.
    shapes: dict[str, FileShape] = field(default_factory=dict)
    #: The last analysis's test links, by what decides each (analyze.tests_memo).
    choices: dict[str, list[tuple[str, str]]] = field(default_factory=dict)
    #: The last analysis's call-graph edges by file, when its changes since stay local.
    edges: EdgeTables | None = None
    #: The last analysed result, by file, and the analyst's state with it (their
    #: unchanged parts are not written again).
    last: LastResult | None = None
    last_state: LastResult | None = None
    #: The view reads' digests of this scan (made on first need).
    views: ViewDigests | None = None

    @property
    def analyst_key(self) -> str:
        return "analyst:" + self.key

    def _contents(self, rels: Iterable[str]) -> dict[str, str | None]:
        """Content digests of files (folders: listings) an extraction read besides its
        own (None: absent), from those the plan knows, hashing the others (files the
        scan does not list); a view read's (:mod:`errdex.scan_views`) is its file's."""
        known = self.use.by_path
        wanted = {found[0] if (found := split_view(rel)) else rel for rel in rels}
        out = {rel: known[rel] for rel in wanted if rel in known}
        missing = sorted(wanted - out.keys())
        if missing:
            out.update(self.cache.digests(self.root, missing).by_path)
        return out

    def read_digests(self, rels: Iterable[str]) -> dict[str, str | None]:
        """What an entry stores for each read: a file's content digest, a view read's
        content and views (:meth:`errdex.scan_views.ViewDigests.value`)."""
        wanted = set(rels)
        out = self._contents(wanted)
        for key in wanted:
            if (found := split_view(key)) is not None:
                out[key] = self._views().value(key, out.get(found[0]))
        return out

    def _views(self) -> ViewDigests:
        if self.views is None:
            self.views = ViewDigests(
                self.root, lambda: {**self.cache.texts(self.scope), **self.texts}
            )
        return self.views

    def load_extracted(self) -> dict[str, tuple[str, Any, dict[str, str | None]]]:
        """This scope's extracted entries whose file, and every other file its extraction
        read, are unchanged (of a file read in part, what was read of it): path ->
        (stamp, scan result, those reads' digests)."""
        loaded = self.cache.load("extracted", self.scope, self.use.by_path)
        now = self._contents(d for _, _, deps in loaded.values() for d in deps)
        kept: dict[str, tuple[str, Any, dict[str, str | None]]] = {}
        for rel, entry in loaded.items():
            changed = [d for d, digest in entry[2].items() if not self._same(d, digest, now)]
            if not changed:
                kept[rel] = entry
                continue
            self.use.files_reread_for_reads += 1  # its own text is unchanged
            self.use.reads_changed.update(
                found[0] if (found := split_view(d)) else d for d in changed
            )
        return kept

    def _same(self, key: str, stored: str | None, now: dict[str, str | None]) -> bool:
        found = split_view(key)
        if found is None:
            return now.get(key) == stored
        return self._views().unchanged(key, stored, now.get(found[0]))

    def whole(self) -> dict[str, Any] | None:
        """The whole result stored for these inputs (None: none is)."""
        found = last_result(self.cache, self.scope, self.key, self.inputs)
        return None if found is None else found.whole

    def left_out(self) -> list[tuple[str, str]]:
        """The parts of read files the scan of these inputs left out, from its stored
        result's header (its parts are not read); none when no result is stored."""
        header = self.cache.result(self.scope, self.key, self.inputs)
        if not isinstance(header, dict) or "analyzed_at" not in header:
            header = self.cache.result(self.scope, _LEFT_OUT + self.key, self.inputs)
        found = header.get("left_out") if isinstance(header, dict) else None
        return list(found) if found else []

    def save(
        self,
        files: Sequence[str],
        whole: dict[str, Any] | None,
        left_out: Sequence[tuple[str, str]] = (),
    ) -> None:
        """Write back what this scan learnt; ``whole`` is the scan's result (items and
        counts), kept when the analyst ran: without it, reusing every file's items costs
        about what loading the whole would. It is stored by file (:mod:`errdex.scan_parts`):
        only the files whose records changed since the last result are written. Without
        it, the parts of files the scan ``left_out`` are kept under a key of their own,
        so the last whole result stays: a scan over the catalogue's records names them
        again (:meth:`left_out`)."""
        result = None
        more: list[tuple[str, str, Any]] = []
        if whole is None and left_out:
            more.append((_LEFT_OUT + self.key, self.inputs, {"left_out": list(left_out)}))
        parts: list[PartsWrite] = []
        if whole is not None:
            header, written = split(self.key, {**whole, "stamp": self.stamp}, self.last)
            result = (self.key, self.inputs, header)
            parts.append(written)
            if self.analyst is not None:
                state, written = split_maps(
                    self.analyst_key, self.analyst, _STATE_TABLES, self.last_state
                )
                more.append((self.analyst_key, self.inputs, state))
                parts.append(written)
        keep = sorted({*files, *(rel for rel, _ in self.wanted)})
        with gc_paused():  # pickling the result makes no cycles: the collector's passes are waste
            self.cache.commit(
                self.scope,
                extracted=self.extracted,
                facts=self.facts,
                keep=keep,
                result=result,
                more_results=more,
                parts=parts,
                texts=self.texts,
            )


#: The prefix of the key a scan with no whole result keeps its left-out parts under.
_LEFT_OUT = "left_out:"


def plan_scan(
    cache: ScanCache,
    checkout: Checkout,
    repo: str,
    files: list[str],
    library: list[str],
    listing: FileListing,
    *,
    analyze: bool,
    read_tests: bool,
    budget: float | None,
    languages: Sequence[str] | None,
) -> Plan:
    """Digests of every input (the scan's ``files``, and the analyst's: its ``library``
    files and the tests) and the fingerprints they make."""
    wanted: list[tuple[str, bool]] = []
    if analyze:
        wanted = index_files(
            checkout, library_files=library, test_globs=TEST_GLOBS if read_tests else ()
        )
    use = CacheUse()
    use.count(cache.digests(checkout.root, sorted({*files, *(rel for rel, _ in wanted)})))
    scope = scope_key(repo, checkout.path_prefix)
    options = {
        "analyze": analyze,
        "readTests": read_tests,
        "budget": budget,
        "budgetEnv": os.environ.get(BUDGET_ENV) if budget is None else None,
        "languages": sorted(languages) if languages else None,
    }
    listing_info = {"skipped": list(map(list, listing.skipped)), "excluded": listing.excluded}
    inputs = inputs_fingerprint(scope, options, files, wanted, use.by_path, listing_info)
    use.fingerprint = catalogue_fingerprint(inputs, checkout)
    key = json.dumps(options, sort_keys=True)
    return Plan(
        cache,
        scope,
        key,
        inputs,
        wanted,
        use,
        stamp=catalogue_fingerprint("", checkout),
        root=checkout.root,
    )


def analyst_prior(plan: Plan, index: RepoIndex, prefix: str) -> Prior | None:
    """The last analysis of this scope and options, with the analyst's files changed
    since; None (analyse every record) when there is none or a change is not local.
    With a prior, ``index.carried`` lets the passes reuse the last scan's per-file
    results (the call graph's edges) for the files not changed."""
    if not plan.read:
        return None
    state_at = plan.cache.fingerprint(plan.scope, plan.analyst_key)
    if state_at is None or state_at != plan.cache.fingerprint(plan.scope, plan.key):
        return None  # not written by one scan: neither is read (jax: 0.25 s of unpickling)
    with gc_paused():
        last = last_maps(plan.cache, plan.scope, plan.analyst_key)
        whole = last_result(plan.cache, plan.scope, plan.key)
    if last is None or whole is None or last.fingerprint != whole.fingerprint:
        return None  # not written by one scan
    plan.last, plan.last_state, state = whole, last, last.whole
    plan.choices = state["choices"]  # each stands by its key, whatever changed
    shapes: dict[str, FileShape] = state["files"]
    records: dict[str, RecordDeps] = state["records"]
    digests = plan.use.by_path
    wanted = {rel for rel, _ in plan.wanted}
    changed = {rel for rel in wanted if rel not in shapes or shapes[rel].digest != digests.get(rel)}
    changed.update(rel for rel in shapes if rel not in wanted)
    by_rel = {m.rel: m for m in index.modules.values()}
    starred = {star for m in index.modules.values() for star in m.star}
    names: set[str] = set()
    through: list[tuple[str, set[str]]] = []  # a test module's name, its imports changed
    for rel in changed:
        facts = by_rel.get(rel)
        if rel not in shapes:  # a new module: reached through its name
            names |= module_reach(facts)
        elif facts is None:  # gone (or unreadable now): whatever it offered
            names |= set(shapes[rel].interface.values())
        else:
            found = interface_change(shapes[rel].interface, interface(facts))
            imported = imports_of_a_test(shapes[rel], facts, found, starred)
            names |= found - imported
            if imported:
                through.append((facts.name.rpartition(".")[2], imported))
    paths = {prefix + rel for rel in changed}
    others = [shape.names for rel, shape in shapes.items() if rel not in changed]
    if names and names_elsewhere(others, names):
        return None
    if any(
        module in used and names_elsewhere([used], got)
        for module, got in through
        for used in others
    ):
        return None
    plan.shapes = shapes
    plan.edges = state.get("edges")
    outputs = {record["id"]: (record, evidence) for record, evidence in whole.whole["items"]}
    old_facts: dict[str, ModuleFacts] = {}
    if plan.edges is not None:
        index.carried = Carried(frozenset(paths), plan.edges, last_targets=state.get("targets"))
        if len(changed) <= MOST_STALE:  # not yet replaced: the cache is written at the end
            with gc_paused():
                stale = plan.cache.stored_facts(plan.scope, sorted(changed))
            old_facts = {prefix + rel: facts for rel, facts in stale.items() if facts is not None}
    return Prior(records, outputs, frozenset(paths), old_facts)


#: The tables of :func:`analyst_state` stored by key (:func:`errdex.scan_parts.split_maps`).
_STATE_TABLES = ("files", "records", "edges", "targets")


def analyst_state(
    plan: Plan,
    index: RepoIndex,
    records: dict[str, RecordDeps],
    choices: dict[str, list[tuple[str, str]]],
) -> dict[str, Any]:
    """What :func:`analyst_prior` reads next time: each analyst file's digest and
    interface (kept from the last analysis where the file did not change), each record's
    dependencies, the test links."""
    digests = plan.use.by_path
    by_rel = {m.rel: m for m in index.modules.values()}
    files: dict[str, FileShape] = {}
    for rel, _ in plan.wanted:
        digest = digests.get(rel)
        old = plan.shapes.get(rel)
        if old is not None and old.digest == digest:
            files[rel] = old
        else:
            files[rel] = file_shape(digest, by_rel.get(rel))
    carried = index.carried
    edges = carried.edges if carried is not None else None
    targets = carried.targets if carried is not None else None
    return {
        "files": files,
        "records": records,
        "choices": choices,
        "edges": edges,
        "targets": targets,
    }
