"""What a store keeps of one scan: its summary, and its records written with it.

Apart from :mod:`errdex.scan`, which re-exports them, so the pipeline stays one job.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from errdex.record import iso_now
from errdex.source import Checkout
from errdex.store.base import ScanSummary, Store
from errdex.store.integrity import check_one_record_per_site

if TYPE_CHECKING:
    from errdex.scan import ScanResult

__all__ = ["store_cached_scan", "store_scan", "summarize"]


def summarize(checkout: Checkout, repo: str, result: ScanResult, started_at: str) -> ScanSummary:
    """The summary a store keeps for one scan (files read, skipped with reasons, time)."""
    return ScanSummary(
        repo=repo,
        commit=checkout.sha if checkout.ref_kind == "commit" else None,
        ref=checkout.ref,
        ref_kind=checkout.ref_kind,
        origin=checkout.origin,
        version=checkout.version,
        started_at=started_at,
        finished_at=iso_now(),
        seconds=round(result.seconds, 3),
        files_read=result.files_read,
        files_excluded=result.files_excluded,
        sites=result.sites,
        records=len(result.items),
        skipped=result.skipped,
    )


def store_scan(
    store: Store, checkout: Checkout, repo: str, result: ScanResult, started_at: str
) -> int:
    """Write one scan's records and summary; returns the scan id.

    Raises :class:`~errdex.store.integrity.DuplicateSiteError` (nothing written) when a
    raise site would get two ids.
    """
    check_one_record_per_site(result.items)
    summary = summarize(checkout, repo, result, started_at)
    return store.write_scan(summary, result.items, dataset_version=summary.finished_at)


def store_cached_scan(
    store: Store, checkout: Checkout, repo: str, result: ScanResult, started_at: str
) -> tuple[int, ScanSummary]:
    """:func:`store_scan` for a scan that used the cache: its inputs' fingerprint is kept
    beside the records, and a scan whose records are the catalogue's (``whole ==
    "catalogue"``) is noted as a new scan over them, copying the last scan's counts.
    Raises :class:`~errdex.store._sqlite_cache.CatalogueChanged` when the catalogue was
    written to meanwhile (scan again without ``unchanged_since``)."""
    use = result.cache_use
    if use is not None and use.whole == "catalogue":
        last = store.scans(repo)[0]
        summary = summarize(checkout, repo, result, started_at)
        summary.files_read, summary.files_excluded = last["files_read"], last["files_excluded"]
        summary.sites, summary.records = last["sites"], last["records"]
        summary.skipped = list(last["skipped"])
        scan_id = store.touch_scan(summary, summary.finished_at, use.fingerprint)
        return scan_id, summary
    check_one_record_per_site(result.items)
    summary = summarize(checkout, repo, result, started_at)
    fingerprint = use.fingerprint if use is not None and result.analysis_error is None else None
    scan_id = store.write_scan(summary, result.items, summary.finished_at, inputs=fingerprint)
    return scan_id, summary
