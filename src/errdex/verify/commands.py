"""``errdex verify``: run reproducers and code fields for the repositories the user names.

Registered lazily by ``errdex.cli``. It runs code only from the repositories named on
the command line (or every catalogued one with an explicit ``--all``): snippets are cut
from those repositories' own tests and run by the interpreter where they are installed.
"""

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

from errdex.record import iso_now
from errdex.source.sdist import sdist_tests
from errdex.store import Store, StoreError, is_server_url, open_store
from errdex.terminal import fail as _fail
from errdex.terminal import plain, progress_bar

from .cache import VerifyCache, default_cache_path
from .executor import Executor
from .locate import Interpreter, interpreter
from .runner import RepoRun, verify_repo
from .sandbox import DEFAULT_MEMORY, DEFAULT_TIMEOUT, Sandbox

__all__ = ["summarize", "verify_command"]

err = Console(stderr=True)
out = Console()


@click.command("verify")
@click.argument("repos", nargs=-1, metavar="[OWNER/NAME]...")
@click.option(
    "--db",
    default="errdex.db",
    show_default=True,
    help="The catalogue: an SQLite file or a postgresql:// URL.",
)
@click.option("--all", "all_repos", is_flag=True, help="Every catalogued repository (explicit).")
@click.option(
    "--python",
    default=None,
    metavar="PATH",
    help="The interpreter of the environment where the packages are installed "
    "(default: the one running errdex).",
)
@click.option("--jobs", "-j", default=2, show_default=True, help="Snippets run at once.")
@click.option("--timeout", default=DEFAULT_TIMEOUT, show_default=True, help="Seconds per snippet.")
@click.option(
    "--memory-mb",
    default=DEFAULT_MEMORY >> 20,
    show_default=True,
    help="Address space per snippet.",
)
@click.option(
    "--path",
    "paths",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="A folder to import from (a checkout that is not installed); repeatable.",
)
@click.option(
    "--tests",
    "tests",
    multiple=True,
    type=click.Path(exists=True, file_okay=False),
    help="A folder of the repository's tests to read as well (a checkout, an sdist).",
)
@click.option(
    "--fresh-interpreter",
    is_flag=True,
    help="Start a new interpreter for every snippet instead of forking it from a server "
    "that imported the repository's packages once (slower, the same results).",
)
@click.option(
    "--only",
    "only_file",
    default=None,
    type=click.Path(exists=True, dir_okay=False),
    help="Verify only the records whose ids this file lists (one a line), from the test "
    "modules that import their packages; the other records are left as they are.",
)
@click.option(
    "--no-sdist",
    is_flag=True,
    help="Do not fetch an installed distribution's source distribution for its tests "
    "(by default it is, with pip into errdex's cache, when the installed files hold none).",
)
@click.option("--no-cache", is_flag=True, help="Run every snippet again.")
@click.option("--no-progress", is_flag=True, help="Do not draw a progress bar.")
@click.option("--json", "as_json", is_flag=True, help="Print the summary as JSON.")
def verify_command(
    repos: tuple[str, ...],
    db: str,
    all_repos: bool,
    python: str | None,
    jobs: int,
    timeout: float,
    memory_mb: int,
    paths: tuple[str, ...],
    tests: tuple[str, ...],
    fresh_interpreter: bool,
    only_file: str | None,
    no_sdist: bool,
    no_cache: bool,
    no_progress: bool,
    as_json: bool,
) -> None:
    """Run each record's reproducer and code fields; keep only what does what it claims.

    \b
    Reproducers are cut from the repository's own tests (pytest.raises, assertRaises,
    try/except/fail), run one per subprocess (time and memory limits, no network, a
    scratch folder) and kept when they raise the record's class, with a message its
    pattern matches, at its file and line. A tryCatchPattern runs around the reproducer;
    a validationCode/typeGuard condition is evaluated where it raised. Code that ran and
    failed is dropped from the record (kept in evidence.verification).
    """
    if repos and all_repos:
        _fail("name repositories or give --all, not both")
    if not repos and not all_repos:
        _fail("name the repositories to verify (OWNER/NAME ...), or give --all")
    if not is_server_url(db) and not Path(db).is_file():
        _fail(f"no catalogue at {db}")
    try:
        interp = interpreter(python or sys.executable, paths)
    except (OSError, ValueError) as exc:
        _fail(str(exc))
    sandbox = Sandbox(
        python=python or sys.executable,
        timeout=timeout,
        memory=memory_mb << 20,
        sys_path=tuple(str(Path(p).resolve()) for p in paths),
        fork=not fresh_interpreter,
    )
    only = None
    if only_file is not None:
        only = {line.strip() for line in Path(only_file).read_text().splitlines() if line.strip()}
    cache = None if no_cache else VerifyCache(default_cache_path())
    executor = Executor(sandbox, cache, (interp.executable, interp.version), jobs=jobs)
    started = time.monotonic()
    runs: list[RepoRun] = []
    try:
        with open_store(db) as store:
            known = sorted({r["repo"] for r in store.stats()["repos"]})
            wanted = known if all_repos else list(dict.fromkeys(repos))
            for repo in wanted:
                if repo not in known:
                    err.print(f"[yellow]skipped:[/] {plain(repo)} is not in {plain(db)}")
                    continue
                run = _verify_one(
                    store, repo, interp, executor, sandbox, (tests, only, not no_sdist), no_progress
                )
                runs.append(run)
    except StoreError as exc:
        _fail(str(exc))
    finally:
        if cache is not None:
            cache.close()
    seconds = time.monotonic() - started
    if as_json:
        data = {
            "repos": summarize(runs),
            "runs": dict(executor.counts),
            "isolation": sandbox.isolation(),
            "seconds": round(seconds, 3),
        }
        click.echo(json.dumps(data, indent=2))
    else:
        _print_summary(runs, executor, seconds, sandbox)


def _verify_one(
    store: Store,
    repo: str,
    interp: Interpreter,
    executor: Executor,
    sandbox: Sandbox,
    reading: tuple[tuple[str, ...], set[str] | None, bool],
    no_progress: bool,
) -> RepoRun:
    tests, only, fetch = reading
    envelopes = list(store.iter_envelopes(repo))
    with progress_bar(None, err, disable=no_progress) as bar:
        task = bar.add_task(repo, total=None)

        def progress(phase: str, total: int | None, n: int) -> None:
            if phase:
                bar.reset(task, total=total, description=escape(phase))
            if n:
                bar.advance(task, n)

        run = verify_repo(
            repo,
            envelopes,
            interp,
            executor,
            tests=[Path(t) for t in tests],
            progress=progress,
            only=only,
            sdist=sdist_tests if fetch else None,
        )
    now = iso_now()
    items = [o.written(now, interp.version, sandbox.isolation()) for o in run.outcomes]
    store.update_records(items)
    return run


_MISSED = "calls built from its guards did not raise here"


def summarize(runs: list[RepoRun]) -> dict[str, Any]:
    """Counts per repository: records, verified reproducers, each field's statuses, skips."""
    result: dict[str, Any] = {}
    for run in runs:
        fields: Counter[str] = Counter()
        skipped: Counter[str] = Counter()
        misses: Counter[str] = Counter()  # what those calls did instead, most often
        verified = 0
        for outcome in run.outcomes:
            if outcome.reproducer is not None:
                verified += 1
            elif outcome.failure:
                skipped["a snippet raised here, not this error"] += 1
            elif outcome.missed:
                skipped[_MISSED] += 1
                misses[outcome.missed[0]] += 1
            else:
                skipped["no snippet from the tests raised here"] += 1
            for name, field_run in outcome.fields.items():
                fields[f"{name} {field_run.status}"] += 1
        if run.located is not None and run.located.missing:
            skipped["record files not installed for this interpreter"] += run.located.missing
        result[run.repo] = {
            "records": len(run.outcomes),
            "verified": verified,
            "testFiles": run.test_files,
            "snippets": run.snippets,
            "testsFrom": run.tests_from,
            "testsNotRead": run.tests_not_read,
            "fields": dict(sorted(fields.items())),
            "skipped": dict(skipped.most_common()),
            "guardCallsDid": dict(misses.most_common()),
        }
    return result


def _print_summary(
    runs: list[RepoRun], executor: Executor, seconds: float, sandbox: Sandbox
) -> None:
    table = Table(
        "repository", "records", "verified reproducer", "failed", "not reached", "tests read"
    )
    data = summarize(runs)
    for repo, row in data.items():
        skipped = row["skipped"]
        table.add_row(
            plain(repo),
            f"{row['records']:,}",
            f"{row['verified']:,} ({row['verified'] / max(1, row['records']):.0%})",
            f"{skipped.get('a snippet raised here, not this error', 0):,}",
            f"{skipped.get('no snippet from the tests raised here', 0) + skipped.get(_MISSED, 0):,}",
            f"{row['testFiles']:,} files, {row['snippets']:,} snippets",
        )
    out.print(table)
    fields: Counter[str] = Counter()
    for row in data.values():
        fields.update(row["fields"])
    if fields:
        out.print("code fields: " + ", ".join(f"{k} {v:,}" for k, v in sorted(fields.items())))
    c = executor.counts
    out.print(
        f"runs: {c['ran']:,} ran, {c['cached']:,} from the cache, {c['timeout']:,} timed out, "
        f"{c['blocked']:,} blocked (stopped waiting on what never came), "
        f"{c['crashed']:,} crashed · network cut by {sandbox.isolation()} · {seconds:.1f} s"
    )
