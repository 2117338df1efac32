"""``errdex scan --environment``: the default catalogue, one repository per worker process.

Kept apart from :mod:`errdex.cli` (which only parses the verb's options) because it owns
its own progress display, pool of workers and summary table.
"""

from __future__ import annotations

import json
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor, as_completed
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from errdex.analyze.sources import remember
from errdex.record import iso_now
from errdex.scan import ScanResult, scan_checkout, store_scan
from errdex.source import Checkout
from errdex.store import StoreError, open_store
from errdex.terminal import clean, plain, progress_bar

__all__ = ["scan_environment"]

err_console = Console(stderr=True)
console = Console()


def scan_environment(
    db: str, jobs: int, *, fail: Callable[[str], None], analyze: bool, show: bool, as_json: bool
) -> None:
    """The default catalogue: the standard library and this environment's distributions."""
    from errdex.environment import environment_targets

    try:
        store = open_store(db)
    except StoreError as exc:
        fail(str(exc))
        return
    targets = list(environment_targets())
    rows: list[dict[str, Any]] = []
    started = time.perf_counter()
    with (
        store,
        progress_bar("scanning", err_console, disable=not show or as_json) as bar,
    ):
        task = bar.add_task("environment", total=len(targets))
        runnable = [t for t in targets if t.checkout is not None and t.checkout.repo]
        for target in targets:
            if target not in runnable:
                rows.append({"name": target.name, "skipped": target.reason})
                bar.advance(task)
        # one repository per worker: most are small, so whole scans in parallel beat
        # splitting each one's files across processes
        with ProcessPoolExecutor(max_workers=max(1, jobs)) as pool:
            futures = {
                pool.submit(_scan_target, t.checkout, analyze): t
                for t in runnable
                if t.checkout is not None
            }
            for future in as_completed(futures):
                target = futures[future]
                checkout = target.checkout
                assert checkout is not None and checkout.repo is not None
                bar.update(task, description=escape(clean(target.name, line=True)))
                started_at, result = future.result()
                try:
                    scan_id = store_scan(store, checkout, checkout.repo, result, started_at)
                    remember(store, checkout.repo, scan_id, checkout, (), ())
                except StoreError as exc:
                    fail(str(exc))
                rows.append(
                    {
                        "name": target.name,
                        "repo": checkout.repo,
                        "ref": checkout.ref,
                        "records": len(result.items),
                        "skippedFiles": len(result.skipped),
                    }
                )
                bar.advance(task)
    rows.sort(key=lambda row: str(row["name"]).lower())
    seconds = time.perf_counter() - started
    if as_json:
        click.echo(json.dumps({"db": db, "seconds": round(seconds, 3), "targets": rows}, indent=2))
        return
    scanned = [r for r in rows if "records" in r]
    table = Table(title=f"catalogue of this environment in {db}", title_justify="left")
    table.add_column("distribution")
    table.add_column("repository")
    table.add_column("pinned to")
    table.add_column("records", justify="right")
    for row in scanned:
        table.add_row(
            plain(row["name"], line=True),
            plain(row["repo"], line=True),
            plain(row["ref"], line=True),
            f"{row['records']:,}",
        )
    console.print(table)
    for row in rows:
        if "skipped" in row:
            console.print(
                Text.assemble(
                    ("not scanned ", "yellow"), plain(f"{row['name']}: {row['skipped']}")
                ),
                highlight=False,
            )
    total = sum(r["records"] for r in scanned)
    console.print(f"{len(scanned)} repositories, {total:,} records in {seconds:.1f} s")


def _scan_target(checkout: Checkout, analyze: bool) -> tuple[str, ScanResult]:
    """One repository of the environment, in a worker process."""
    started_at = iso_now()
    # the standard library's own test suite is left unread here: it is most of the
    # analysis time, and the default catalogue must come up in seconds
    result = scan_checkout(
        checkout,
        repo=checkout.repo or "",
        jobs=1,
        analyze=analyze,
        read_tests=checkout.origin != "stdlib",
    )
    return started_at, result
