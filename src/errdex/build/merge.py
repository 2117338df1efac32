"""Join the per-package part files into the catalogue, one scan per repository.

Several distributions can come from one repository (a monorepo's packages); writing
each as its own scan would mark the others' records stale, so parts are grouped by
repository and each group is written as one scan.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

from errdex.store import ScanSummary, SqliteStore, Store

__all__ = ["MergeResult", "merge_parts"]


@dataclass
class MergeResult:
    repos: int = 0
    records: int = 0
    duplicates: int = 0


def _read_part(path: Path) -> tuple[ScanSummary, str, list[tuple[dict[str, Any], dict[str, Any]]]]:
    with SqliteStore(path) as part:
        latest = part.scans()[0]
        items = [(e["record"], e["evidence"]) for e in part.iter_envelopes()]
    return ScanSummary.from_dict(latest), latest["dataset_version"], items


def _joined(summaries: Sequence[ScanSummary]) -> ScanSummary:
    first = summaries[0]
    if len(summaries) == 1:
        return first
    versions = sorted({s.version for s in summaries if s.version})
    return replace(
        first,
        version=", ".join(versions) or None,
        started_at=min(s.started_at for s in summaries),
        finished_at=max(s.finished_at for s in summaries),
        seconds=sum(s.seconds for s in summaries),
        files_read=sum(s.files_read for s in summaries),
        files_excluded=sum(s.files_excluded for s in summaries),
        sites=sum(s.sites for s in summaries),
        skipped=[pair for s in summaries for pair in s.skipped],
    )


def merge_parts(
    outcomes: Sequence[dict[str, Any]],
    store: Store,
    *,
    merged: Callable[[dict[str, Any], int], None] | None = None,
) -> MergeResult:
    """Write every built outcome's part into ``store``; ``merged(outcome, scan_id)`` after each group."""
    groups: dict[str, list[dict[str, Any]]] = defaultdict(list)
    for outcome in outcomes:
        groups[str(outcome["repo"])].append(outcome)
    result = MergeResult()
    for _repo, group in sorted(groups.items()):
        summaries: list[ScanSummary] = []
        items: dict[str, tuple[dict[str, Any], dict[str, Any]]] = {}
        dataset = ""
        for outcome in group:
            summary, dataset_version, part_items = _read_part(Path(outcome["part"]))
            summaries.append(summary)
            dataset = max(dataset, dataset_version)
            for record, evidence in part_items:
                if record["id"] in items:
                    result.duplicates += 1
                    continue
                items[record["id"]] = (record, evidence)
        summary = replace(_joined(summaries), records=len(items))
        scan_id = store.write_scan(summary, list(items.values()), dataset)
        result.repos += 1
        result.records += len(items)
        for outcome in group:
            if merged is not None:
                merged(outcome, scan_id)
    return result
