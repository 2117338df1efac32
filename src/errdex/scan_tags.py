"""``errdex scan URL_OR_PATH --tags GLOB``: every matching tag, oldest release first.

Each tag is one scan into the same catalogue (so a record keeps its id and gains a
version per tag, see :mod:`errdex.versions`), through the scan cache, so a file that
did not change between two tags is not read again. Releases go in PEP 440 order where
the tags read as versions (``v1.9`` before ``v1.10``), else in git's order. A tag that
cannot be checked out or scanned is reported and skipped; the others go on, and the
summary counts it.
"""

from __future__ import annotations

import json
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from typing import Any

from rich.console import Console

from errdex.analyze.sources import remember
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_cached_scan
from errdex.scan_cache import ScanCache
from errdex.source.checkout import Checkout
from errdex.source.errors import SourceError
from errdex.source.tagged import TaggedSource, open_tag, tagged_source
from errdex.store import Store, StoreError, open_store
from errdex.terminal import clean, plain
from errdex.versions import release_order, tag_version

__all__ = ["TagOutcome", "ordered_tags", "run_tags", "scan_tags"]


@dataclass
class TagOutcome:
    """What scanning one tag did: its scan and counts, or why it was skipped."""

    tag: str
    version: str
    scan_id: int | None = None
    commit: str | None = None
    records: int = 0
    files_read: int = 0
    skipped_files: int = 0
    seconds: float = 0.0
    #: ids not in the previous tag scanned (None: the first, or the records were reused)
    new: int | None = None
    gone: int | None = None
    error: str | None = None

    def to_json(self) -> dict[str, Any]:
        return {
            "tag": self.tag,
            "version": self.version,
            "scanId": self.scan_id,
            "commit": self.commit,
            "records": self.records,
            "filesRead": self.files_read,
            "filesSkipped": self.skipped_files,
            "seconds": self.seconds,
            "new": self.new,
            "gone": self.gone,
            "error": self.error,
        }


def ordered_tags(tags: Sequence[str]) -> list[str]:
    """``tags`` (in git's order) oldest release first."""
    return [tags[i] for i in release_order([tag_version(t) for t in tags])]


@dataclass
class _Run:
    store: Store
    cache: ScanCache
    options: dict[str, Any]
    repo: str | None
    no_cache: bool
    previous: set[str] | None = None
    outcomes: list[TagOutcome] = field(default_factory=list)


def _scan_one(run: _Run, source: TaggedSource, tag: str) -> TagOutcome:
    outcome = TagOutcome(tag, tag_version(tag))
    started_at = iso_now()
    checkout: Checkout = open_tag(source, tag, version=outcome.version, repo=run.repo)
    repo_name = checkout.repo
    if not repo_name:
        why = checkout.repo_problem or "it has no git remote"
        raise SourceError(f"cannot tell which repository this is: {why}; name it with --repo")
    store = run.store
    reuse = bool(store.scans(repo_name)) and not run.no_cache
    result = scan_checkout(
        checkout,
        repo=repo_name,
        cache=run.cache,
        read_cache=reuse,
        unchanged_since=store.vouched_fingerprint(repo_name) if reuse else None,
        **run.options,
    )
    scan_id, summary = store_cached_scan(store, checkout, repo_name, result, started_at)
    remember(
        store,
        repo_name,
        scan_id,
        checkout,
        run.options.get("include", ()),
        run.options.get("exclude", ()),
    )
    outcome.scan_id, outcome.commit = scan_id, summary.commit
    outcome.records, outcome.files_read = summary.records, summary.files_read
    outcome.skipped_files, outcome.seconds = len(summary.skipped), summary.seconds
    reused = result.cache_use is not None and result.cache_use.whole == "catalogue"
    ids = run.previous if reused else {record["id"] for record, _ in result.items}
    if run.previous is not None and ids is not None:
        outcome.new, outcome.gone = len(ids - run.previous), len(run.previous - ids)
    run.previous = ids
    return outcome


def scan_tags(
    source: TaggedSource,
    store: Store,
    cache: ScanCache,
    *,
    repo: str | None = None,
    no_cache: bool = False,
    on_start: Callable[[int, int, str], None] | None = None,
    on_done: Callable[[TagOutcome], None] | None = None,
    **options: Any,
) -> list[TagOutcome]:
    """Scan every tag of ``source`` oldest first into ``store``; ``options`` go to
    :func:`errdex.scan.scan_checkout` (include, exclude, jobs, analyze, languages)."""
    run = _Run(store, cache, options, repo, no_cache)
    tags = ordered_tags(source.tags)
    for index, tag in enumerate(tags, start=1):
        if on_start is not None:
            on_start(index, len(tags), tag)
        try:
            outcome = _scan_one(run, source, tag)
        except (SourceError, StoreError) as exc:
            outcome = TagOutcome(tag, tag_version(tag), error=str(exc))
        except Exception as exc:  # one bad tag must cost that tag, not the range
            outcome = TagOutcome(tag, tag_version(tag), error=f"{type(exc).__name__}: {exc}")
        run.outcomes.append(outcome)
        if on_done is not None:
            on_done(outcome)
    return run.outcomes


def _line(outcome: TagOutcome) -> str:
    if outcome.error is not None:
        return f"{outcome.tag}: skipped: {outcome.error}"
    moved = (
        f", {outcome.new} new, {outcome.gone} gone"
        if outcome.new is not None and outcome.gone is not None
        else ""
    )
    commit = f" @ {outcome.commit[:10]}" if outcome.commit else ""
    return (
        f"{outcome.tag} ({outcome.version}){commit}: {outcome.files_read:,} files, "
        f"{outcome.records:,} records{moved}, {outcome.skipped_files} file(s) skipped, "
        f"{outcome.seconds:.2f} s"
    )


def run_tags(
    target: str,
    pattern: str,
    db: str,
    *,
    out: Console,
    err: Console,
    repo: str | None = None,
    no_cache: bool = False,
    show: bool = True,
    as_json: bool = False,
    **options: Any,
) -> int:
    """The ``scan --tags`` command: returns its exit status (2: nothing could be scanned)."""
    try:
        source = tagged_source(target, pattern, repo=repo)
        store = open_store(db)
    except (SourceError, StoreError) as exc:
        err.print(plain(f"error: {exc}", "bold red"), soft_wrap=True)
        return 2

    def start(index: int, total: int, tag: str) -> None:
        if show:
            err.print(
                plain(f"[{index}/{total}] scanning {clean(tag, line=True)} …"), soft_wrap=True
            )

    def done(outcome: TagOutcome) -> None:
        if not as_json:
            style = "yellow" if outcome.error else ""
            out.print(plain(_line(outcome), style), highlight=False, soft_wrap=True)

    with store, ScanCache() as cache:
        outcomes = scan_tags(
            source,
            store,
            cache,
            repo=repo,
            no_cache=no_cache,
            on_start=start,
            on_done=done,
            **options,
        )
    failed = [o for o in outcomes if o.error]
    if as_json:
        print(json.dumps({"db": db, "tags": [o.to_json() for o in outcomes]}, indent=2))
    else:
        out.print(
            plain(
                f"{len(outcomes) - len(failed)} of {len(outcomes)} tag(s) scanned into {db}"
                + (f"; {len(failed)} skipped" if failed else ""),
                "bold",
            ),
            soft_wrap=True,
        )
    return 2 if len(failed) == len(outcomes) else 0
