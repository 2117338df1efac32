"""``errdex harvest``: run a repository's tests, keep the messages its errors really print.

Registered by ``errdex.cli`` (``main.add_command(harvest)``); kept here so the verb
lives beside the code it drives.
"""

from __future__ import annotations

import json
import sys
import tempfile
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any, NoReturn

import click
from rich.console import Console
from rich.table import Table

from errdex.db_option import DbLocation
from errdex.source import Checkout, SourceError, open_source
from errdex.store import StoreError, is_server_url, open_store

from .attach import (
    MAX_OBSERVED,
    AttachResult,
    Mismatch,
    RepoLayout,
    Unplaced,
    attach,
    summary_counts,
)
from .collect import (
    HarvestError,
    HarvestInterrupted,
    HarvestRun,
    locate_distribution,
    package_pytest_args,
    run_pytest,
)
from .confirm import confirm_links

__all__ = ["harvest"]

DEFAULT_DB = "errdex.db"  # as errdex.cli's; not imported from there to avoid an import cycle
#: Mismatches and misses printed in the text report (``--json`` lists all).
_SHOWN = 50

# soft_wrap: paths and patterns stay on one line, whole, for copying
err_console = Console(stderr=True, soft_wrap=True)
console = Console(soft_wrap=True)


def _fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(code)


def _target_layout(layout: RepoLayout, checkout: Checkout, package: str, python: str) -> RepoLayout:
    """The package as installed for ``python``: same version, maybe another site-packages."""
    try:
        found = locate_distribution(python, package)
    except HarvestError as exc:
        _fail(str(exc))
    if found is None:
        _fail(f"{package} is not installed for {python}; install it there or drop --python")
    root, version = found
    if version != checkout.version:
        _fail(
            f"{python} has {package} {version} but the records are of {checkout.version} "
            "(errdex's environment); install the same version in both, or scan the other one"
        )
    return replace(layout, root=root)


def _check_layout(envelopes: list[dict[str, Any]], layout: RepoLayout, db: str) -> None:
    """Refuse a checkout whose files are not the ones the records were scanned from."""
    prefix = layout.path_prefix
    for envelope in envelopes[:: max(1, len(envelopes) // 50)]:
        path = envelope["record"]["filePath"]
        if path.startswith(prefix) and (layout.root / path[len(prefix) :]).is_file():
            return
    _fail(
        f"the records of {envelopes[0]['record']['repo']} in {db} name files that are not "
        f"under {layout.root}; scan this checkout first (errdex scan … --db {db})"
    )


@click.command("harvest")
@click.argument("args", nargs=-1, type=click.UNPROCESSED, metavar="[PATH] [-- PYTEST_ARGS]...")
@click.option(
    "--package", metavar="NAME", help="Harvest an installed distribution's bundled tests."
)
@click.option(
    "--repo", metavar="OWNER/NAME", help="Repository name, as given to errdex scan --repo."
)
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(),
    help="SQLite file holding the scanned records, or a postgresql:// URL.",
)
@click.option(
    "--python",
    "python",
    metavar="PATH",
    help="Interpreter of the environment where the tests run (default: errdex's own).",
)
@click.option(
    "--max-per-record",
    default=MAX_OBSERVED,
    show_default=True,
    type=click.IntRange(1, 100),
    help="Distinct observed messages kept per record, most frequent first.",
)
@click.option("--show-pytest", is_flag=True, help="Let pytest print its own output.")
@click.option("--dry-run", is_flag=True, help="Report only; write nothing to the database.")
@click.option("--json", "as_json", is_flag=True, help="Print the report as JSON.")
def harvest(
    args: tuple[str, ...],
    package: str | None,
    repo: str | None,
    db: str,
    python: str | None,
    max_per_record: int,
    show_pytest: bool,
    dry_run: bool,
    as_json: bool,
) -> None:
    """Run the repository's own tests and attach each message they expect to its record.

    \b
    PATH is the checkout that `errdex scan PATH` catalogued; pytest runs there, with
    its own configuration, in the interpreter given by --python (the project's
    virtual environment when errdex is installed elsewhere). Arguments after `--`
    go to pytest:  errdex harvest . -- -x tests/unit   (add `-n 8` with pytest-xdist).

    Every exception or warning a test expects (pytest.raises, pytest.warns,
    assertRaises, assertRaisesRegex, assertWarns) is taken from the frame that raised
    it; its message is stored on the record at that file and line as
    evidence.observed, with the values of the holes. A message that fails its own
    record's pattern is an extractor bug and is listed. Failing tests are fine.
    """
    if package:
        path, user_args = None, args
    elif args:
        path, user_args = args[0], args[1:]
    else:
        _fail("give the checkout to harvest (PATH) or --package NAME (see errdex harvest --help)")
    if path is not None and not Path(path).is_dir():
        _fail(f"{path} is not a directory: harvest runs the tests of a local checkout")
    try:
        checkout = (
            open_source(package=package, repo=repo)
            if package
            else open_source(Path(path or "."), repo=repo)
        )
    except SourceError as exc:
        _fail(str(exc))
    repo_name = repo or checkout.repo
    if not repo_name:
        _fail(
            f"cannot tell which repository {path or package} is: it has no git remote or "
            "project URL. Name it with --repo OWNER/NAME, as for errdex scan."
        )
    if not is_server_url(db) and not Path(db).is_file():
        _fail(f"no database at {db}: scan the repository first (errdex scan … --db {db})")
    envelopes = _load(db, repo_name)
    if not envelopes:
        target = f"--package {package}" if package else str(path)
        _fail(
            f"{db} holds no records of {repo_name}: scan it first "
            f"(errdex scan {target} --db {db}{f' --repo {repo}' if repo else ''}), "
            "then harvest"
        )
    layout = RepoLayout.from_checkout(checkout)
    if package and python:
        layout = _target_layout(layout, checkout, package, python)
    _check_layout(envelopes, layout, db)
    try:
        run = _run(layout, package, path, user_args, python, show_pytest, as_json)
    except HarvestInterrupted as exc:
        _fail(str(exc), code=130)
    except HarvestError as exc:
        _fail(str(exc))
    failed = run.summary.failed if run.summary is not None else ()
    result = attach(run.captures, envelopes, layout, cap=max_per_record, failed=failed)
    written = 0 if dry_run else _write(db, result)
    if as_json:
        click.echo(json.dumps(_report_json(repo_name, db, run, result, written), indent=2))
    else:
        _print_report(repo_name, db, run, result, written, dry_run)


def _load(db: str, repo: str) -> list[dict[str, Any]]:
    """The repository's current records; the store is not held open while tests run."""
    try:
        with open_store(db) as store:
            return list(store.iter_envelopes(repo=repo))
    except StoreError as exc:
        _fail(str(exc))


def _write(db: str, result: AttachResult) -> int:
    """Set ``evidence.observed`` on the evidence as stored now, not as read before the run,
    so that an analyst who wrote meanwhile keeps its keys."""
    if not result.updates:
        return 0
    try:
        with open_store(db) as store:
            updates = []
            for record, _ in result.updates:
                fresh = store.get(record["id"])
                if fresh is None:
                    continue  # rescanned away during the run
                evidence = {**fresh["evidence"], "observed": result.observed[record["id"]]}
                if evidence.get("tests"):
                    evidence["tests"] = confirm_links(
                        evidence["tests"], result.ran.get(record["id"], ())
                    )[0]
                updates.append((fresh["record"], evidence))
            return store.update_records(updates)
    except StoreError as exc:
        _fail(str(exc))


def _run(
    layout: RepoLayout,
    package: str | None,
    path: str | None,
    user_args: tuple[str, ...],
    python: str | None,
    show_pytest: bool,
    quiet: bool,
) -> HarvestRun:
    if package:
        pytest_args = package_pytest_args(layout.root, layout.tops or (), user_args)
        with tempfile.TemporaryDirectory(prefix="errdex-harvest-cwd-") as cwd:
            return _with_status(Path(cwd), layout, pytest_args, python, show_pytest, quiet)
    return _with_status(
        Path(path or ".").resolve(), layout, list(user_args), python, show_pytest, quiet
    )


def _with_status(
    cwd: Path,
    layout: RepoLayout,
    pytest_args: list[str],
    python: str | None,
    show_pytest: bool,
    quiet: bool,
) -> HarvestRun:
    def go() -> HarvestRun:
        return run_pytest(
            cwd=cwd,
            roots=layout.roots(),
            pytest_args=pytest_args,
            python=python,
            echo=show_pytest,
        )

    if show_pytest or quiet:
        return go()
    with err_console.status(f"running pytest in {cwd} …"):
        return go()


def _mismatch_json(m: Mismatch) -> dict[str, Any]:
    return {
        "filePath": m.file_path,
        "line": m.line,
        "errorClass": m.error_class,
        "message": m.message,
        "records": m.records,
        "tests": m.tests,
        "count": m.count,
    }


def _unplaced_json(u: Unplaced) -> dict[str, Any]:
    return {
        "filePath": u.file_path,
        "line": u.line,
        "source": u.source,
        "errorClass": u.error_class,
        "message": u.message,
        "count": u.count,
    }


def _report_json(
    repo: str, db: str, run: HarvestRun, result: AttachResult, written: int
) -> dict[str, Any]:
    kinds = Counter(c.kind for c in run.captures)
    return {
        "repo": repo,
        "db": db,
        "pytest": {
            "version": run.probe.pytest_version,
            "python": run.probe.executable,
            "exitCode": run.returncode,
            "seconds": round(run.seconds, 3),
            "collected": run.summary.collected if run.summary else None,
            "outcomes": run.summary.counts if run.summary else None,
            "command": run.command,
        },
        "counts": {**summary_counts(result), **{f"{k}Captures": v for k, v in kinds.items()}},
        "written": written,
        "mismatches": [_mismatch_json(m) for m in result.mismatches],
        "classDiffers": [_mismatch_json(m) for m in result.class_differs],
        "missedRaiseLines": [_unplaced_json(u) for u in result.missed],
        "notes": run.notes,
    }


def _print_mismatch(m: Mismatch) -> None:
    console.print(f"  [bold]{m.file_path}:{m.line}[/] {m.error_class} ×{m.count}", highlight=False)
    console.print(f"      message: {m.message[:300]!r}", markup=False, highlight=False)
    for record in m.records:
        console.print(
            f"      pattern: {record['messagePattern'][:300]!r}  [{record['style']}]",
            markup=False,
            highlight=False,
        )
    if m.tests:
        console.print(f"      test: {m.tests[0]}", markup=False, highlight=False)


def _print_report(
    repo: str, db: str, run: HarvestRun, result: AttachResult, written: int, dry_run: bool
) -> None:
    outcomes = run.summary.counts if run.summary else {}
    tested = ", ".join(f"{n:,} {k}" for k, n in sorted(outcomes.items())) or "no outcomes"
    console.print(
        f"[bold]{repo}[/] · pytest {run.probe.pytest_version} on Python {run.probe.python} · "
        f"{run.seconds:.1f} s · {tested} (exit {run.returncode})",
        highlight=False,
    )
    for note in run.notes:
        console.print(f"[yellow]{note}[/]")
    kinds = Counter(c.kind for c in run.captures)
    share = len(result.observed) / result.records_total if result.records_total else 0.0
    table = Table(show_header=False, box=None, pad_edge=False)
    table.add_row(
        "captures (expected by a test)",
        f"{result.captures:,}"
        + (f"  ({', '.join(f'{n:,} {k}s' for k, n in kinds.most_common())})" if kinds else ""),
    )
    table.add_row("attached to a record", f"{result.attached:,}")
    table.add_row("failed their own record's pattern", f"{result.mismatched:,}")
    table.add_row("at a record of another class", f"{sum(m.count for m in result.class_differs):,}")
    table.add_row("raise line without a record", f"{sum(m.count for m in result.missed):,}")
    table.add_row("raised by code underneath a repo line", f"{result.underneath:,}")
    table.add_row("raised in files without records (tests)", f"{result.unscanned:,}")
    table.add_row("no repository frame (a bad call, stdlib)", f"{result.outside:,}")
    table.add_row("test links confirmed by running them", f"{result.confirmed:,}")
    table.add_row(
        "records with an observed message",
        f"{len(result.observed):,} / {result.records_total:,} ({share:.1%})",
    )
    console.print(table)
    if result.mismatches:
        console.print(
            f"[bold red]{len(result.mismatches)} observed message(s) failed their own "
            "record's pattern (extractor bugs):[/]"
        )
        for m in result.mismatches[:_SHOWN]:
            _print_mismatch(m)
    if result.missed:
        console.print(f"[yellow]{len(result.missed)} raise line(s) with no record:[/]")
        for u in result.missed[:_SHOWN]:
            console.print(
                f"  {u.file_path}:{u.line}  {u.source[:100]}  ({u.error_class} ×{u.count})",
                markup=False,
                highlight=False,
            )
    if dry_run:
        console.print("dry run: nothing written")
    else:
        console.print(f"observed messages written to {written:,} records in [bold]{db}[/]")
