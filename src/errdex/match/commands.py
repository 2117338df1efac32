"""``errdex match`` and ``errdex explain``: what a paste matched, as data or as a page in the terminal."""

from __future__ import annotations

import json
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console, Group
from rich.markup import escape
from rich.panel import Panel
from rich.syntax import Syntax
from rich.table import Table
from rich.text import Text

from errdex.match.api import errors_in, match_errors
from errdex.match.rank import Candidate
from errdex.store import SqliteStore, StoreError

__all__ = ["EXIT_NO_ERROR", "EXIT_NO_MATCH", "explain_command", "match_command"]

DEFAULT_DB = "errdex.db"
#: Exit codes: 0 matched; 1 the paste held an error but nothing matched; 2 usage or
#: database problem; 3 the paste held no error at all.
EXIT_NO_MATCH = 1
EXIT_NO_ERROR = 3
#: Pastes larger than this are read only this far: enough for any real traceback.
MAX_PASTE_BYTES = 64 * 1024 * 1024

_EXIT_HELP = (
    "Exit status: 0 matched; 1 an error was found in the input but no record fits it; "
    "2 usage or database problem; 3 the input held no error."
)


def _read_input(text: str | None) -> str:
    if text is None or text == "-":
        if text is None and sys.stdin.isatty():
            raise click.UsageError("paste a message or traceback as TEXT, or pipe it in with '-'")
        data = sys.stdin.buffer.read(MAX_PASTE_BYTES)
        return data.decode("utf-8", errors="replace")
    return text


def _open(db: str) -> SqliteStore:
    if not Path(db).exists():
        raise _Exit(f"error: no errdex database at {db}: run `errdex scan` first, or pass --db", 2)
    try:
        return SqliteStore(db)
    except StoreError as exc:
        raise _Exit(f"error: {exc}", 2) from exc


class _Exit(Exception):
    """Stop with a message on stderr and a chosen exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _run(text: str | None, db: str, top: int) -> tuple[list[Candidate], SqliteStore]:
    try:
        return _run_or_exit(text, db, top)
    except _Exit as stop:
        click.echo(str(stop), err=True)
        sys.exit(stop.code)


def _run_or_exit(text: str | None, db: str, top: int) -> tuple[list[Candidate], SqliteStore]:
    store = _open(db)
    try:
        errors = errors_in(_read_input(text))
        if not errors:
            raise _Exit(
                "no error found in the input: paste a message, a traceback, pytest or notebook output",
                EXIT_NO_ERROR,
            )
        return match_errors(errors, store, top=top), store
    except StoreError as exc:
        store.close()
        raise _Exit(f"error: {exc}", 2) from exc
    except BaseException:
        store.close()
        raise


@click.command("match", epilog=_EXIT_HELP)
@click.argument("text", required=False)
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=click.Path(dir_okay=False),
    help="SQLite catalogue to search.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON list of candidates, best first ([] when none).",
)
@click.option(
    "--top", default=5, show_default=True, type=click.IntRange(1, 100), help="How many candidates."
)
def match_command(text: str | None, db: str, as_json: bool, top: int) -> None:
    """Find the raise sites that explain TEXT (a message, traceback, pytest or notebook output; '-' reads stdin).

    Each candidate has a confidence in [0, 1], the values that filled the holes of its
    message and the reasons it was chosen.
    """
    candidates, store = _run(text, db, top)
    store.close()
    if as_json:
        click.echo(json.dumps([c.to_json() for c in candidates], indent=2, ensure_ascii=False))
    else:
        console = Console()
        if candidates:
            console.print(_candidates_table(candidates))
    if not candidates:
        if not as_json:
            click.echo("no record in the catalogue fits this error", err=True)
        sys.exit(EXIT_NO_MATCH)


def _candidates_table(candidates: list[Candidate]) -> Table:
    table = Table(show_lines=False)
    table.add_column("conf.", justify="right")
    table.add_column("where")
    table.add_column("class")
    table.add_column("message")
    for c in candidates:
        table.add_row(
            f"{c.confidence:.2f}",
            escape(f"{c.repo} {c.filePath}:{c.lineNumber}"),
            escape(c.errorClass or "?"),
            escape(c.errorMessage[:80]),
        )
    return table


@click.command("explain", epilog=_EXIT_HELP)
@click.argument("text", required=False)
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=click.Path(dir_okay=False),
    help="SQLite catalogue to search.",
)
def explain_command(text: str | None, db: str) -> None:
    """Explain TEXT: the raise site, the condition that fired, the values, what it means and how to fix it.

    TEXT is a message, a traceback, pytest or notebook output; '-' or nothing reads stdin.
    """
    candidates, store = _run(text, db, 5)
    console = Console()
    with store:
        if not candidates:
            click.echo("no record in the catalogue fits this error", err=True)
            sys.exit(EXIT_NO_MATCH)
        best = candidates[0]
        envelope = store.get(best.id) or {"record": {}, "evidence": {}}
        related = [store.get(i) for i in (envelope["evidence"].get("related") or [])[:5]]
    console.print(render_explanation(best, envelope, [r for r in related if r]))
    if len(candidates) > 1:
        console.print(Text("Other candidates", style="bold"))
        console.print(_candidates_table(candidates[1:]))


def _with_holes(message: str, holes: dict[str, str]) -> Text:
    text = Text(message, style="bold")
    if holes:
        text.append("\n")
        for name, value in holes.items():
            text.append(f"  {{{name}}} = ", style="dim")
            text.append(value if len(value) < 200 else value[:200] + "…", style="cyan")
            text.append("\n")
    return text


def render_explanation(
    best: Candidate, envelope: dict[str, Any], related: list[dict[str, Any]]
) -> Group:
    """The terminal version of an error page."""
    record: dict[str, Any] = envelope["record"]
    evidence: dict[str, Any] = envelope.get("evidence") or {}
    parts: list[Any] = []
    title = f"{best.repo} · {best.errorClass or 'error'} · confidence {best.confidence:.2f}"
    parts.append(
        Panel(
            _with_holes(record.get("errorMessage", best.errorMessage), best.holes),
            title=escape(title),
        )
    )
    where = Text(f"Thrown at {best.filePath}:{best.lineNumber}", style="bold")
    if record.get("githubUrl"):
        where.append(f"\n{record['githubUrl']}", style="link " + record["githubUrl"])
    parts.append(where)
    if record.get("sourceCode"):
        parts.append(
            Syntax(
                record["sourceCode"],
                "python",
                line_numbers=True,
                start_line=record.get("sourceCodeStart", 1),
                highlight_lines={best.lineNumber},
                word_wrap=False,
            )
        )
    guards = (evidence.get("site") or {}).get("guards") or []
    if guards:
        cond = Text("Condition\n", style="bold")
        for guard in guards:
            cond.append(f"  {guard['kind']:>8}  {guard['text']}  (line {guard['line']})\n")
        parts.append(cond)
    for title_text, key in (
        ("What it means", "documentation"),
        ("When it happens", "triggerScenarios"),
    ):
        if record.get(key):
            parts.append(Text(title_text, style="bold"))
            parts.append(Text("  " + record[key]))
    if record.get("solutions"):
        parts.append(Text("How to fix it", style="bold"))
        for i, solution in enumerate(record["solutions"], 1):
            parts.append(Text(f"  {i}. {solution}"))
    if related:
        parts.append(Text("Related errors", style="bold"))
        for env in related:
            r = env["record"]
            parts.append(Text(f"  • {r['errorMessage'][:60]}  ({r['filePath']}:{r['lineNumber']})"))
    parts.append(Text("Why this record: " + "; ".join(best.reasons), style="dim"))
    return Group(*parts)
