"""Re-run the static analyst over a catalogue: ``errdex analyze`` without ``--llm``.

Each repository's source is found again (:mod:`errdex.analyze.sources`), records whose
source window no longer matches the files are left alone and counted, and the rest are
analysed together (related errors and tests need every site of the repository) while
only the selected ones are written back.
"""

from __future__ import annotations

import json
from dataclasses import dataclass, field
from typing import Any

from errdex.source import SourceError, iter_source_files
from errdex.store import Store

from .sources import SourceGone, check_windows, reopen
from .static import analyze

__all__ = ["RepoOutcome", "reanalyze"]


@dataclass
class RepoOutcome:
    """What re-analysis did for one repository."""

    repo: str
    selected: int = 0
    written: int = 0
    stale: int = 0  # selected records whose source changed since the scan
    unchanged: int = 0  # analysed again to the same record and evidence: not rewritten
    cut: list[tuple[str, str]] = field(default_factory=list)  # files over the analysis budget
    changed_files: list[str] = field(default_factory=list)
    gone: str | None = None  # why the source could not be read, if it could not
    with_guard: int = 0
    with_raises_doc: int = 0
    with_tests: int = 0
    with_entry_points: int = 0


def _repos(store: Store, repo: str | None) -> list[str]:
    if repo is not None:
        return [repo]
    return sorted({scan["repo"] for scan in store.scans()})


def reanalyze(
    store: Store,
    *,
    repo: str | None = None,
    limit: int | None = None,
    only_missing: bool = False,
    dry_run: bool = False,
) -> list[RepoOutcome]:
    """Analyse the current records of ``repo`` (all repositories if None) again."""
    outcomes: list[RepoOutcome] = []
    budget = limit
    for name in _repos(store, repo):
        if budget is not None and budget <= 0:
            break
        envelopes = list(store.iter_envelopes(name))
        selected = [
            env["record"]["id"]
            for env in envelopes
            if not only_missing or env["evidence"].get("analysis") in (None, "extractor")
        ]
        if budget is not None:
            selected = selected[:budget]
        outcome = RepoOutcome(repo=name, selected=len(selected))
        outcomes.append(outcome)
        if not selected:
            continue
        scans = store.scans(name)
        try:
            source = reopen(store, name, dict(scans[0]) if scans else None)
            files = iter_source_files(
                source.checkout, include=source.include, exclude=source.exclude
            ).files
        except (SourceGone, SourceError) as exc:
            outcome.gone = str(exc)
            continue
        records = [env["record"] for env in envelopes]
        fresh, outcome.changed_files = check_windows(source.checkout, records)
        items = [(envelopes[i]["record"], envelopes[i]["evidence"]) for i in fresh]
        analysis = analyze(source.checkout, items, library_files=files)
        enriched = analysis.items
        outcome.cut = analysis.cut
        wanted = set(selected)
        to_write = [(r, e) for r, e in enriched if r["id"] in wanted]
        outcome.stale = len(selected) - len(to_write)
        _count(outcome, to_write)
        before = {
            env["record"]["id"]: _canonical(env["record"], env["evidence"]) for env in envelopes
        }
        changed = [(r, e) for r, e in to_write if _canonical(r, e) != before.get(r["id"])]
        outcome.unchanged = len(to_write) - len(changed)
        if not dry_run and changed:  # nothing changed: nothing written, data version kept
            outcome.written = store.update_records(changed)
        if budget is not None:
            budget -= len(selected)
    return outcomes


def _canonical(record: dict[str, Any], evidence: dict[str, Any]) -> str:
    return json.dumps([record, evidence], sort_keys=True, ensure_ascii=False)


def _count(outcome: RepoOutcome, items: list[tuple[dict[str, Any], dict[str, Any]]]) -> None:
    for _, evidence in items:
        outcome.with_guard += bool(evidence.get("site", {}).get("guards"))
        outcome.with_raises_doc += bool(evidence.get("raisesDoc"))
        outcome.with_tests += bool(evidence.get("tests"))
        outcome.with_entry_points += bool(evidence.get("entryPoints"))
