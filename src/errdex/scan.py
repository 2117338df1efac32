"""The scan pipeline: files of a checkout -> ErrorSites -> (record, evidence) pairs.

Each file is read, parsed and turned into records in one worker call, so that with
``jobs > 1`` only finished records cross the process boundary.
"""

from __future__ import annotations

import logging
import os
import time
from collections import Counter
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from contextlib import AbstractContextManager, nullcontext
from dataclasses import dataclass, field
from functools import partial
from typing import TYPE_CHECKING, Any

from errdex._gc import gc_paused
from errdex.analyze.baseline import baseline_fields
from errdex.analyze.file_trees import scan_digests
from errdex.analyze.repo import Carried
from errdex.evidence import source_evidence
from errdex.extract.left_out import collecting
from errdex.extract.python.project import reading_repository
from errdex.extract.python.text_store import Stored, active, keeping, merge
from errdex.extract.registry import (
    ExtractError,
    declared_test_files,
    extractor_for,
    is_test_file,
    load_extractor,
    source_suffixes,
)
from errdex.extract.site import ErrorSite, message_display, message_key
from errdex.extract.source_lines import source_lines
from errdex.record import (
    SCHEMA_VERSION,
    escape_surrogates,
    escaped_item,
    id_key,
    iso_now,
    record_id,
    slugify,
    source_window,
)
from errdex.scan_cache import ScanCache
from errdex.scan_reuse import (
    CacheUse,
    Plan,
    analyst_prior,
    analyst_state,
    cached_index,
    pickled,
    plan_scan,
    restamp,
)
from errdex.scan_sites import disambiguate, one_per_raise
from errdex.scan_store import store_cached_scan, store_scan, summarize
from errdex.scan_text_facts import stored_texts, texts_kept, texts_source
from errdex.source import Checkout, iter_source_files
from errdex.source.permalink import permalinker
from errdex.source.reading import SourceSkip, read_source

__all__ = [
    "FileResult",
    "ScanContext",
    "ScanResult",
    "scan_checkout",
    "scan_file",
    "store_cached_scan",
    "store_scan",
    "summarize",
]

if TYPE_CHECKING:
    from errdex.analyze.static import Analysis

log = logging.getLogger(__name__)

#: Files per worker task: large enough that process hand-offs cost little.
CHUNK = 24

Item = tuple[dict[str, Any], dict[str, Any]]


@dataclass(frozen=True)
class ScanContext:
    """What every record of one scan shares (picklable, sent to workers once per task)."""

    checkout: Checkout
    repo: str
    sha: str | None
    analyzed_at: str
    path_prefix: str = ""


@dataclass
class FileResult:
    path: str
    items: list[Item] = field(default_factory=list)
    sites: int = 0
    skipped: str | None = None
    #: Other files of the checkout the extractor looked for to read this one (a message
    #: built in another module): its cached items stand only while those do not change.
    reads: tuple[str, ...] = ()
    #: Parts of the file the extractor read but left out (:mod:`errdex.extract.left_out`).
    left_out: tuple[str, ...] = ()


@dataclass
class ScanResult:
    items: list[Item]
    files_read: int
    files_excluded: int
    sites: int
    skipped: list[tuple[str, str]]
    seconds: float
    by_style: Counter[str] = field(default_factory=Counter)
    #: Of ``seconds``, the time the static analyst took (0 when it did not run).
    analysis_seconds: float = 0.0
    #: Why the static analyst did not finish, when it failed (records then keep the
    #: extractor's account, and the summary says so).
    analysis_error: str | None = None
    #: What came from the incremental-scan cache (None: no cache used).
    cache_use: CacheUse | None = None
    #: (path, what) for each part of a read file its extractor left out (the file's
    #: other sites stand): counted and named beside the skipped files.
    left_out: list[tuple[str, str]] = field(default_factory=list)


def scan_file(context: ScanContext, rel: str) -> FileResult:
    """Read, parse and extract one file; never raises for bad input."""
    result = FileResult(rel)
    extractor = extractor_for(rel)
    if extractor is None:
        return result
    try:
        text = read_source(context.checkout.root / rel)
    except SourceSkip as exc:
        result.skipped = str(exc)
        return result
    if extractor.keywords and not any(word in text for word in extractor.keywords):
        return result
    file_path = context.path_prefix + rel
    lines = source_lines(text)  # Python's line numbers: not split at \x0c, \u2028
    try:
        # a message built in another module of the checkout is read there (issue 9)
        with reading_repository(context.checkout.root, context.path_prefix) as project:
            try:
                with collecting() as left_out:
                    sites = load_extractor(extractor.module)(text, file_path, lines)
                result.left_out = tuple(left_out)
            finally:
                result.reads = tuple(sorted(project.files_read(file_path)))
    except SyntaxError as exc:
        result.skipped = f"syntax error at line {exc.lineno}: {exc.msg}"
        return result
    except ExtractError as exc:
        result.skipped = f"cannot parse: {exc}"
        return result
    except ImportError as exc:  # a grammar package missing from this install
        result.skipped = f"cannot read {extractor.language} here: {exc}"
        return result
    except (RecursionError, MemoryError, ValueError) as exc:
        result.skipped = f"cannot parse: {type(exc).__name__}: {exc}"
        return result
    except Exception as exc:  # an extractor bug must cost one file, not the scan
        result.skipped = (
            f"errdex could not read this file ({type(exc).__name__}: {exc}); "
            "please report it with the file"
        )
        return result
    sites = one_per_raise(sites)
    result.sites = len(sites)
    if sites:
        result.items = build_items(context, rel, lines, sites)
    return result


def _scan_chunk(
    context: ScanContext,
    paths: Sequence[str],
    keep: bool = False,
    source: tuple[str, str] | None = None,
) -> tuple[list[FileResult], Stored]:
    """A worker's files, and (``keep``: for the scan's cache) what the package texts
    they read showed; ``source``: where earlier scans' facts of those texts are stored
    (:func:`~errdex.scan_text_facts.texts_source`)."""
    load: Callable[[], Stored] = partial(stored_texts, *source) if source else dict
    kept: AbstractContextManager[Stored] = keeping(load) if keep else nullcontext({})
    with gc_paused(), kept as texts:
        results = [scan_file(context, rel) for rel in paths]
    return results, texts


def build_items(
    context: ScanContext, rel: str, lines: list[str], sites: Sequence[ErrorSite]
) -> list[Item]:
    """Records for one file's sites; ``rel`` is relative to the checkout root."""
    disambiguate(sites)
    file_path = context.path_prefix + rel
    checkout = context.checkout
    items: list[Item] = []
    source_info = source_evidence(checkout)
    link = permalinker(checkout, rel)
    odd_path = escape_surrogates(file_path) != file_path  # a file name that was not UTF-8
    for site in sites:
        message, key = message_display(site), message_key(site)
        code, start, end = source_window(lines, site.source_line or site.line)
        fields, provenance = baseline_fields(site)
        rid = record_id(context.repo, id_key(site.error_code, key), file_path, site.disambiguator)
        record: dict[str, Any] = {
            "id": rid,
            "repo": context.repo,
            "slug": slugify(key),
            "errorCode": site.error_code,
            "errorMessage": message,
            "messagePattern": site.template.pattern,
            "errorType": site.error_type,
            "errorClass": site.error_class,
            "httpStatus": site.http_status,
            "severity": site.severity,
            "filePath": file_path,
            "lineNumber": site.line,
            "sourceCode": code,
            "sourceCodeStart": start,
            "sourceCodeEnd": end,
            "githubUrl": link(start, end) if link else None,
            **{
                k: fields[k]
                for k in ("documentation", "triggerScenarios", "commonSituations", "solutions")
            },
            **{
                k: fields[k]
                for k in (
                    "exampleFix",
                    "handlingStrategy",
                    "validationCode",
                    "typeGuard",
                    "tryCatchPattern",
                    "preventionTips",
                    "tags",
                    "backgroundTag",
                )
            },
            "analyzedSha": context.sha,
            "analyzedAt": context.analyzed_at,
            "schemaVersion": SCHEMA_VERSION,
        }
        evidence: dict[str, Any] = {
            "site": site.evidence(),
            "source": source_info,
            "provenance": provenance,
            "analysis": "extractor",
        }
        if site.disambiguator:
            evidence["site"]["idDisambiguator"] = site.disambiguator
        if odd_path or escape_surrogates(message) != message:  # lone surrogates: store escaped
            record, evidence = escaped_item(record, evidence)
        items.append((record, evidence))
    return items


def unique_slugs(items: Iterable[Item]) -> None:
    """Make slugs unique within a repo: the first site (by path, line) keeps the plain slug."""
    taken: set[str] = set()
    ordered = sorted(items, key=lambda it: (it[0]["filePath"], it[0]["lineNumber"], it[0]["id"]))
    for record, _ in ordered:
        slug = record["slug"]
        if slug in taken:
            slug = f"{slug}-{record['id'][:8]}"
        taken.add(slug)
        record["slug"] = slug


def _chunks(paths: Sequence[str], size: int) -> Iterator[Sequence[str]]:
    for i in range(0, len(paths), size):
        yield paths[i : i + size]


def _analysed(path: str) -> bool:
    extractor = extractor_for(path)
    return extractor is not None and extractor.analysed


def _by_analyst(items: Sequence[Item]) -> tuple[list[Item], list[Item]]:
    """The items the static analyst reads (Python's), and the others."""
    read: list[Item] = []
    unread: list[Item] = []
    for item in items:
        (read if _analysed(item[0]["filePath"]) else unread).append(item)
    return read, unread


def scan_checkout(
    checkout: Checkout,
    *,
    repo: str,
    include: Sequence[str] = (),
    exclude: Sequence[str] = (),
    jobs: int = 1,
    progress: Callable[[int, int], None] | None = None,
    analyze: bool = True,
    read_tests: bool = True,
    analysis_budget: float | None = None,
    languages: Sequence[str] | None = None,
    cache: ScanCache | None = None,
    read_cache: bool = True,
    unchanged_since: str | None = None,
) -> ScanResult:
    """Scan every source file of ``checkout``; bad files are skipped and named, never fatal.

    With ``analyze`` (the default) the static analyst then gathers evidence from the
    repository, its tests included unless ``read_tests`` is off (reading CPython's
    own test suite is most of the cost of analysing the standard library), and writes
    each record's explanation fields; without it the records carry the extractor's own
    account only. ``analysis_budget`` is the CPU seconds the analyst may spend on one
    file (None: the default, or ``ERRDEX_ANALYSIS_BUDGET``); a file that overruns keeps the extractor's records and is
    counted with the skipped files. ``languages`` restricts the scan to those registered
    languages (None: every one, see :mod:`errdex.extract.registry`).

    With a ``cache`` (:mod:`errdex.scan_cache`), unchanged files are not read again
    (:mod:`errdex.scan_reuse` says what is reused) and the cache is brought up to date;
    ``read_cache=False`` reads every file but still refreshes the cache. When
    ``unchanged_since`` is the fingerprint a catalogue stored with its records and the
    inputs still have it, the result has no items and ``cache_use.whole`` is
    ``"catalogue"``: the catalogue's records are this scan's.
    """
    started = time.perf_counter()
    path_prefix = checkout.path_prefix
    listing = iter_source_files(
        checkout,
        include=include,
        exclude=exclude,
        suffixes=source_suffixes(languages),
        test_file=is_test_file,
        declared_tests=declared_test_files,
    )
    context = ScanContext(
        checkout=checkout,
        repo=repo,
        sha=checkout.sha if checkout.ref_kind == "commit" else None,
        analyzed_at=iso_now(),
        path_prefix=path_prefix,
    )
    files = list(listing.files)
    total = len(files)
    plan = None
    if cache is not None and cache.usable:
        plan = plan_scan(
            cache,
            checkout,
            repo,
            files,
            [f for f in files if _analysed(f)],
            listing,
            analyze=analyze,
            read_tests=read_tests,
            budget=analysis_budget,
            languages=languages,
        )
    if plan is not None:
        plan.read = read_cache
        if plan.use.fingerprint == unchanged_since and read_cache:
            plan.use.whole = "catalogue"
            return _reused(plan, context, listing.excluded, started, total)
        with gc_paused(promote=True):
            whole = plan.whole() if read_cache else None
        if whole is not None:
            plan.use.whole = "result"
            return _reused(plan, context, listing.excluded, started, total, whole)
    # cached items, the analyst's index and its passes are many acyclic objects: the
    # collector's passes over them cost seconds on jax (and one between the two as much)
    with gc_paused(promote=True):
        cached: dict[str, FileResult] = {}
        stamps: dict[str, str] = {}
        loaded: dict[str, Any] = {}
        if plan is not None and read_cache:
            loaded = plan.load_extracted()
            cached = {rel: res for rel, (_, res, _) in loaded.items()}
            stamps = {rel: stamp for rel, (stamp, _, _) in loaded.items()}
        to_read = [rel for rel in files if rel not in cached]
        with texts_kept(plan):  # package texts read by earlier scans' extractions
            fresh = _extract(context, to_read, jobs, progress, len(cached), texts_source(plan))
        results = [cached[rel] if rel in cached else fresh[rel] for rel in files]
        if plan is not None:
            plan.use.whole = "files"
            plan.use.files_reused = len(cached)
            plan.use.files_reread = len(to_read)
            now = plan.read_digests(d for rel in to_read for d in fresh[rel].reads)
            plan.extracted = {
                rel: (digest, pickled((plan.stamp, res, {d: now.get(d) for d in res.reads})))
                for rel in to_read
                if (digest := plan.use.by_path.get(rel)) is not None and (res := fresh[rel])
            }
            relinked = [rel for rel in cached if stamps[rel] != plan.stamp]  # read at another pin
            restamped = iter(
                restamp([it for r in relinked for it in cached[r].items], checkout, context.sha)
            )
            for rel in relinked:  # the same objects in the same order, brought up to date
                res = cached[rel]
                res.items = [next(restamped) for _ in res.items]
            plan.extracted.update(
                (rel, (digest, pickled((plan.stamp, cached[rel], loaded[rel][2]))))
                for rel in relinked
                if (digest := plan.use.by_path.get(rel)) is not None
            )
        items: list[Item] = []
        skipped = list(listing.skipped)
        left_out: list[tuple[str, str]] = []
        sites = 0
        styles: Counter[str] = Counter()
        for res in results:
            if res.skipped:
                skipped.append((path_prefix + res.path, res.skipped))
            left_out += [(path_prefix + res.path, what) for what in res.left_out]
            sites += res.sites
            items.extend(res.items)
            for _, evidence in res.items:
                styles[evidence["site"]["style"]] += 1
        unique_slugs(items)
        analysis_seconds = 0.0
        analysis_error: str | None = None
        analysed, unread = _by_analyst(items) if analyze else ([], items)
        if analysed:
            analysis_started = time.perf_counter()
            try:
                # the trees rules read again are keyed by the scan's digests of the files
                with scan_digests(checkout.root, plan.use.by_path if plan else {}):
                    analysis = _run_analyst(
                        checkout, analysed, files, jobs, analysis_budget, read_tests, plan, context
                    )
                items = analysis.items + unread
                skipped.extend(analysis.cut)
            except Exception as exc:  # the records stand without the analyst: keep them
                analysis_error = f"{type(exc).__name__}: {exc}"
                log.warning("static analysis failed, records keep the extractor's account: %s", exc)
            analysis_seconds = time.perf_counter() - analysis_started
    result = ScanResult(
        items=items,
        files_read=total - sum(1 for r in results if r.skipped),
        files_excluded=listing.excluded,
        sites=sites,
        skipped=skipped,
        seconds=time.perf_counter() - started,
        by_style=styles,
        analysis_seconds=analysis_seconds,
        analysis_error=analysis_error,
        cache_use=plan.use if plan is not None else None,
        left_out=left_out,
    )
    if plan is not None:
        whole = None
        if analysis_seconds > 0 and analysis_error is None:  # worth keeping whole
            whole = {k: getattr(result, k) for k in ("items", "files_read", "sites", "skipped")}
            whole["by_style"] = result.by_style
            whole["left_out"] = result.left_out
        plan.save(files, whole, result.left_out)
    return result


def _extract(
    context: ScanContext,
    files: Sequence[str],
    jobs: int,
    progress: Callable[[int, int], None] | None,
    already: int,
    source: tuple[str, str] | None = None,
) -> dict[str, FileResult]:
    """Extract ``files`` (serially, or in worker processes for many; ``source``: where
    they find the stored text facts)."""
    total = len(files) + already
    out: dict[str, FileResult] = {}
    done = already
    if jobs <= 1 or len(files) < 2 * CHUNK:
        with gc_paused():
            for rel in files:
                out[rel] = scan_file(context, rel)
                done += 1
                if progress and (done % 16 == 0 or done == total):
                    progress(done, total)
    else:
        workers = min(jobs, os.cpu_count() or jobs)
        with ProcessPoolExecutor(max_workers=workers) as pool:
            keep = active()
            futures = [
                pool.submit(_scan_chunk, context, chunk, keep, source)
                for chunk in _chunks(files, CHUNK)
            ]
            for future in futures:
                results, texts = future.result()
                merge(texts)
                for res in results:
                    out[res.path] = res
                    done += 1
                if progress:
                    progress(done, total)
    if progress and not files:
        progress(total, total)
    return out


def _run_analyst(
    checkout: Checkout,
    analysed: list[Item],
    files: Sequence[str],
    jobs: int,
    budget: float | None,
    read_tests: bool,
    plan: Plan | None,
    context: ScanContext,
) -> Analysis:
    """The static analyst over every analysed item: on an index of cached and fresh facts
    when there is a cache, else reading every file."""
    from errdex.analyze.static import analyze as run_analyst  # reads files the scan lists
    from errdex.analyze.static import analyze_with_index

    library = [f for f in files if _analysed(f)]
    if plan is None:
        return run_analyst(
            checkout,
            analysed,
            library_files=library,
            jobs=jobs,
            budget=budget,
            **({} if read_tests else {"test_globs": ()}),
        )
    index, plan.facts = cached_index(
        plan.cache, plan.scope, checkout, plan.wanted, plan.use, jobs=jobs, read=plan.read
    )
    for record, _ in analysed:  # analysed now: dated by this scan, as a full scan dates them
        record["analyzedAt"] = context.analyzed_at
    index.carried = Carried()  # the passes keep their results for the next scan
    index.root = str(checkout.root)
    prior = analyst_prior(plan, index, checkout.path_prefix)  # and may reuse the last's
    analysis = analyze_with_index(
        index, checkout.path_prefix, analysed, budget=budget, prior=prior, choices=plan.choices
    )
    plan.use.records_kept = prior.kept if prior is not None else 0
    plan.use.records_reanalysed = len(analysed) - plan.use.records_kept
    plan.analyst = analyst_state(plan, index, analysis.deps, analysis.choices)
    return analysis


def _reused(
    plan: Plan,
    context: ScanContext,
    excluded: int,
    started: float,
    total: int,
    whole: dict[str, Any] | None = None,
) -> ScanResult:
    """The result of a scan whose inputs are all unchanged."""
    plan.use.files_reused = total
    plan.cache.commit(plan.scope)  # the digests of files touched but not changed
    if whole is None:  # the catalogue holds the records: nothing to load
        return ScanResult(
            items=[],
            files_read=total,
            files_excluded=excluded,
            sites=0,
            skipped=[],
            seconds=time.perf_counter() - started,
            cache_use=plan.use,
            left_out=plan.left_out(),  # the catalogue keeps the skipped files, not these
        )
    return ScanResult(
        items=whole["items"]
        if whole["stamp"] == plan.stamp
        else restamp(whole["items"], context.checkout, context.sha),
        files_read=whole["files_read"],
        files_excluded=excluded,
        sites=whole["sites"],
        skipped=whole["skipped"],
        seconds=time.perf_counter() - started,
        by_style=whole["by_style"],
        cache_use=plan.use,
        left_out=whole.get("left_out", []),
    )
