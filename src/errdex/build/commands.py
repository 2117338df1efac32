"""`errdex build LIST`: catalogue many packages or repositories, one task each, on Ray."""

from __future__ import annotations

import json
import sys
import time
from collections import Counter
from pathlib import Path
from typing import Any

import click
from rich.console import Console
from rich.markup import escape
from rich.table import Table
from rich.text import Text

from errdex.build.manifest import Manifest
from errdex.build.merge import merge_parts
from errdex.build.runner import Placement, SchedulerError, run_tasks
from errdex.build.specs import read_list
from errdex.build.task import TaskOptions
from errdex.store import StoreError, open_store
from errdex.terminal import clean, plain, progress_bar
from errdex.terminal import fail as _fail

__all__ = ["build_command"]

err_console = Console(stderr=True)
console = Console()


def _placement(ray: str, workers: int, retries: int) -> Placement:
    if ray == "off":
        return Placement(scheduler="local", workers=1, retries=retries)
    if ray == "local":
        return Placement(scheduler="ray", workers=workers, retries=retries)
    return Placement(scheduler="ray", workers=workers, address=ray, retries=retries)


@click.command("build")
@click.argument("listing", metavar="LIST", type=click.File("r", encoding="utf-8", errors="replace"))
@click.option(
    "--db",
    default="errdex.db",
    show_default=True,
    help="Catalogue to write: an SQLite file or a postgresql:// URL.",
)
@click.option("--out", "out", default="errdex-build", show_default=True, type=click.Path(file_okay=False),
              help="Folder for the manifest and the per-package part files (kept, so a build resumes).")  # fmt: skip
@click.option("--ray", "ray", default="local", show_default=True, metavar="local|auto|ADDRESS|off",
              help="local: start a Ray cluster on this machine; auto or an address: join a running "
              "cluster; off: build in this one process, one package at a time.")  # fmt: skip
@click.option(
    "--workers",
    default=2,
    show_default=True,
    type=click.IntRange(1, 512),
    help="CPUs of the local Ray cluster.",
)
@click.option("--retries", default=1, show_default=True, type=click.IntRange(0, 10),
              help="Further attempts for a package that timed out or lost its worker.")  # fmt: skip
@click.option(
    "--timeout",
    default=900,
    show_default=True,
    type=click.IntRange(10, 86400),
    help="Seconds per package.",
)
@click.option(
    "--memory",
    default=4096,
    show_default=True,
    type=click.IntRange(256, 1 << 20),
    help="MiB per package.",
)
@click.option(
    "--no-analyze",
    is_flag=True,
    help="Skip the static analyst (records keep the extractor's account).",
)
@click.option("--fresh", is_flag=True, help="Build every package again, ignoring the manifest.")
@click.option("--no-progress", is_flag=True, help="Do not draw a progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def build_command(
    listing: Any,
    db: str,
    out: str,
    ray: str,
    workers: int,
    retries: int,
    timeout: int,
    memory: int,
    no_analyze: bool,
    fresh: bool,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Catalogue every package or repository in LIST, one task each, and merge them into --db.

    \b
    LIST has one entry per line (# starts a comment):
      requests==2.32.3      a release from the package index (its wheel, else its sdist)
      idna                  the index's newest release
      https://github.com/o/n.git@v1.2   a git URL at a ref
      ./src/mylib           a source directory
    Each package is fetched, scanned and analysed in its own process with a time and
    memory limit; a package that fails is reported and the build goes on. The manifest
    in --out records every outcome, so running the same command again builds only what
    is missing. Exit status: 0 when every entry was built, 1 when some failed, 2 on
    usage errors.
    """
    base = Path(listing.name).parent if listing.name not in ("-", "<stdin>") else Path.cwd()
    specs, bad = read_list(listing, base=base)
    if not specs and not bad:
        _fail(f"{listing.name} names nothing to build (one package, URL or path per line)")
    folder = Path(out)
    manifest = Manifest(folder / "manifest.jsonl")
    done = set() if fresh else manifest.done()
    todo = [s.text for s in specs if s.text not in done]
    options = TaskOptions(parts=str((folder / "parts").resolve()), analyze=not no_analyze,
                          timeout=float(timeout), memory_mb=memory)  # fmt: skip
    try:
        store = open_store(db)
    except StoreError as exc:
        _fail(str(exc))
        return
    started = time.perf_counter()
    failures: Counter[str] = Counter()
    with progress_bar("building", err_console, disable=no_progress or as_json) as bar:
        task = bar.add_task("packages", total=len(specs), completed=len(specs) - len(todo))

        def finished(outcome: dict[str, Any]) -> None:
            manifest.record(outcome)
            if outcome.get("status") != "done":
                failures[str(outcome.get("cause"))] += 1
            label = (
                f"{outcome['spec']} ({sum(failures.values())} failed)"
                if failures
                else outcome["spec"]
            )
            bar.update(task, advance=1, description=escape(clean(label, line=True)))

        try:
            run_tasks(todo, options, _placement(ray, workers, retries), finished)
        except SchedulerError as exc:
            _fail(str(exc))
    built = time.perf_counter() - started
    wanted = [s.text for s in specs]
    try:
        with store:
            merged = merge_parts(
                manifest.unmerged(wanted),
                store,
                merged=lambda o, scan_id: manifest.record({"spec": o["spec"], "merged": scan_id}),
            )
    except StoreError as exc:
        _fail(f"merging into {db}: {exc}; the parts are kept in {folder}, run the command again")
        return
    wall = time.perf_counter() - started
    rows = [manifest.outcomes.get(s, {"spec": s, "status": "not run"}) for s in wanted]
    summary = _summary(rows, bad, len(specs) - len(todo), merged.records, built, wall, db)
    if as_json:
        click.echo(json.dumps(summary, indent=2))
    else:
        _print(summary, rows)
    sys.exit(1 if summary["failed"] else 0)


def _summary(
    rows: list[dict[str, Any]],
    bad: list[Any],
    resumed: int,
    merged: int,
    built: float,
    wall: float,
    db: str,
) -> dict[str, Any]:
    done = [r for r in rows if r.get("status") == "done"]
    failed = [r for r in rows if r.get("status") != "done"]
    return {
        "db": db,
        "entries": len(rows),
        "built": len(done),
        "resumed": resumed,
        "failed": len(failed),
        "badLines": [{"line": b.number, "text": b.text, "why": b.why} for b in bad],
        "records": sum(int(r.get("records", 0)) for r in done),
        "recordsMerged": merged,
        "failuresByCause": dict(Counter(str(r.get("cause")) for r in failed)),
        "buildSeconds": round(built, 3),
        "wallSeconds": round(wall, 3),
        "packagesPerMinute": round(60 * (len(done) - resumed) / built, 2) if built > 0 else None,
    }


def _print(summary: dict[str, Any], rows: list[dict[str, Any]]) -> None:
    failed = [r for r in rows if r.get("status") != "done"]
    if failed:
        table = Table(title="not built", title_justify="left")
        table.add_column("entry")
        table.add_column("cause")
        table.add_column("why")
        for row in failed:
            table.add_row(plain(row["spec"], line=True), plain(str(row.get("cause")), line=True),
                          plain(str(row.get("message", ""))[:200], line=True))  # fmt: skip
        console.print(table)
    for b in summary["badLines"]:
        console.print(Text.assemble(("skipped line ", "yellow"), plain(f"{b['line']}: {b['why']}")))
    console.print(
        f"{summary['built']} of {summary['entries']} built ({summary['resumed']} from an earlier run), "
        f"{summary['failed']} failed, {len(summary['badLines'])} bad lines; "
        f"{summary['records']:,} records, {summary['recordsMerged']:,} merged into {summary['db']} "
        f"in {summary['wallSeconds']:.1f} s"
    )
