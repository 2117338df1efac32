"""``errdex analyze``: run an analyst over a stored catalogue.

Without ``--llm`` the static analyst runs again over the stored records (it reads the
source they were scanned from); with ``--llm PROVIDER:MODEL`` the model analyst does,
imported only then. Registered lazily by ``errdex.cli``.
"""

from __future__ import annotations

import importlib
import sys
from typing import Any, NoReturn

import click
from rich.console import Console

from errdex.db_option import DbLocation
from errdex.store import StoreError, open_store

from .stored import RepoOutcome, reanalyze

__all__ = ["analyze_command"]

DEFAULT_DB = "errdex.db"  # as errdex.cli's; not imported from there to avoid an import cycle

err_console = Console(stderr=True)
console = Console()


def _fail(message: str, code: int = 2) -> NoReturn:
    err_console.print(f"[bold red]error:[/] {message}", highlight=False)
    sys.exit(code)


def _llm_runner() -> Any:
    """``run_llm_analysis``, or a clear error when this errdex has no model analyst."""
    try:
        module = importlib.import_module("errdex.analyze.llm.runner")
    except ImportError as exc:
        _fail(f"the LLM analyst is not available in this errdex ({exc}); run without --llm")
    runner = getattr(module, "run_llm_analysis", None)
    if runner is None:
        _fail("the LLM analyst is not available in this errdex (no run_llm_analysis)")
    return runner


@click.command("analyze")
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(exists=True),
    help="SQLite file to read and update, or a postgresql:// URL.",
)
@click.option("--repo", metavar="OWNER/NAME", help="Only this repository.")
@click.option(
    "--llm",
    "llm",
    metavar="PROVIDER:MODEL",
    help="Run the model analyst (openai:gpt-4.1-mini, anthropic:…) instead of the static one.",
)
@click.option(
    "--concurrency",
    default=4,
    show_default=True,
    type=click.IntRange(1, 64),
    help="Model requests in flight (--llm only).",
)
@click.option("--limit", type=click.IntRange(1), metavar="N", help="Analyse at most N records.")
@click.option(
    "--only-missing",
    is_flag=True,
    help="Skip records the analyst already wrote (static: those past the extractor's account).",
)
@click.option("--dry-run", is_flag=True, help="Show what would change; write nothing.")
@click.option("--base-url", metavar="URL", help="OpenAI-compatible server (--llm only).")
def analyze_command(
    db: str,
    repo: str | None,
    llm: str | None,
    concurrency: int,
    limit: int | None,
    only_missing: bool,
    dry_run: bool,
    base_url: str | None,
) -> None:
    """Explain stored records again from the evidence in their repositories.

    Without --llm the static analyst reruns: it reads the source each repository was
    scanned from (remembered by errdex scan; an installed package or the standard
    library is found again), skips records whose code changed since the scan, and
    rewrites the explanation fields from guards, docstrings, tests and the call graph.
    With --llm PROVIDER:MODEL a model writes them from that evidence instead.
    """
    try:
        store = open_store(db)
    except StoreError as exc:
        _fail(str(exc))
    with store:
        if llm:
            runner = _llm_runner()
            from errdex.analyze.llm import LlmError

            try:
                report = runner(
                    store,
                    repo=repo,
                    model=llm,
                    concurrency=concurrency,
                    limit=limit,
                    only_missing=only_missing,
                    dry_run=dry_run,
                    base_url=base_url,
                    console=console,
                )
            except LlmError as exc:  # bad key, unknown model, unreachable server, quota
                _fail(str(exc))
            if getattr(report, "status", None) == "interrupted":
                sys.exit(130)
            return
        if base_url:
            _fail("--base-url only applies with --llm PROVIDER:MODEL")
        outcomes = reanalyze(
            store, repo=repo, limit=limit, only_missing=only_missing, dry_run=dry_run
        )
    if not outcomes:
        _fail(f"{db} holds no scanned repositories" + (f" named {repo}" if repo else ""))
    failed = False
    for outcome in outcomes:
        failed |= _report(outcome, dry_run)
    if failed:
        sys.exit(1)


def _report(outcome: RepoOutcome, dry_run: bool) -> bool:
    """Print one repository's outcome; True when its source could not be read."""
    name = outcome.repo
    if outcome.gone is not None:
        err_console.print(
            f"[bold red]{name}:[/] source not available: {outcome.gone}", highlight=False
        )
        return True
    if outcome.selected == 0:
        console.print(f"{name}: nothing to analyse")
        return False
    done = outcome.selected - outcome.stale
    verb = "would update" if dry_run else "updated"
    console.print(
        f"[bold]{name}[/]: {verb} {done:,} of {outcome.selected:,} records · "
        f"guard {outcome.with_guard:,} · docstring Raises {outcome.with_raises_doc:,} · "
        f"tests {outcome.with_tests:,} · entry points {outcome.with_entry_points:,}",
        highlight=False,
    )
    if outcome.unchanged:
        console.print(
            f"  {outcome.unchanged:,} record(s) analysed to the same result: not rewritten",
            highlight=False,
        )
    if outcome.cut:
        console.print(
            f"  {len(outcome.cut):,} file(s) over the analysis budget kept as they were: "
            + ", ".join(path for path, _ in outcome.cut[:5])
            + (f" and {len(outcome.cut) - 5} more" if len(outcome.cut) > 5 else ""),
            highlight=False,
        )
    if outcome.stale:
        shown = ", ".join(outcome.changed_files[:5])
        more = (
            f" and {len(outcome.changed_files) - 5} more" if len(outcome.changed_files) > 5 else ""
        )
        console.print(
            f"  {outcome.stale:,} record(s) left as they were: their code changed since the "
            f"scan ({shown}{more}); scan again to refresh them",
            highlight=False,
        )
    return False
