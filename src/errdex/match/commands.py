"""``errdex match`` and ``errdex explain``: what a paste matched, as data or as a page in the terminal."""

from __future__ import annotations

import json
import re
import sys
from pathlib import Path
from typing import Any

import click
from rich.console import Console, Group
from rich.padding import Padding
from rich.panel import Panel
from rich.syntax import Syntax
from rich.text import Text

from errdex.db_option import DbLocation
from errdex.evidence import site_place
from errdex.match.api import (
    NO_ERROR,
    NOT_CATALOGUED,
    UNDECIDED,
    Answer,
    answer_errors,
    errors_in,
)
from errdex.match.rank import FOLD_BELOW, Candidate
from errdex.store import Store, StoreError, is_server_url, open_store
from errdex.terminal import clean, plain

__all__ = [
    "EXIT_NO_ERROR",
    "EXIT_NO_MATCH",
    "EXIT_UNDECIDED",
    "candidates_view",
    "explain_command",
    "group_line",
    "match_command",
    "render_explanation",
]

DEFAULT_DB = "errdex.db"
#: Exit codes: 0 matched; 1 the paste held an error but nothing matched; 2 usage or
#: database problem; 3 the paste held no error at all; 4 only undecided groups answer it
#: (the interpreter prints the same message: :data:`errdex.match.api.UNDECIDED`).
EXIT_NO_MATCH = 1
EXIT_NO_ERROR = 3
EXIT_UNDECIDED = 4
#: Pastes larger than this are read only this far: enough for any real traceback.
MAX_PASTE_BYTES = 64 * 1024 * 1024

_EXIT_HELP = (
    "Exit status: 0 matched; 1 an error was found in the input but no record fits it; "
    "2 usage or database problem; 3 the input held no error; 4 undecided: the only "
    "answers are groups of sites that the interpreter's own lookups rival (KeyError: 'foo')."
)


def _read_input(text: str | None) -> str:
    if text is None or text == "-":
        if text is None and sys.stdin.isatty():
            raise click.UsageError("paste a message or traceback as TEXT, or pipe it in with '-'")
        data = sys.stdin.buffer.read(MAX_PASTE_BYTES)
        return data.decode("utf-8", errors="replace")
    return text


def _open(db: str) -> Store:
    if not is_server_url(db) and not Path(db).exists():
        raise _Exit(f"error: no errdex database at {db}: run `errdex scan` first, or pass --db", 2)
    try:
        return open_store(db)
    except StoreError as exc:
        raise _Exit(f"error: {exc}", 2) from exc


class _Exit(Exception):
    """Stop with a message on stderr and a chosen exit status."""

    def __init__(self, message: str, code: int) -> None:
        super().__init__(message)
        self.code = code


def _run(text: str | None, db: str, top: int) -> tuple[list[Answer], Store]:
    try:
        return _run_or_exit(text, db, top)
    except _Exit as stop:
        click.echo(str(stop), err=True)
        sys.exit(stop.code)


_NO_ERROR = "no error found in the input: paste a message, a traceback, pytest or notebook output"


def _run_or_exit(text: str | None, db: str, top: int) -> tuple[list[Answer], Store]:
    store = _open(db)
    try:
        errors = errors_in(_read_input(text))
        if not errors:
            raise _Exit(_NO_ERROR, EXIT_NO_ERROR)
        return answer_errors(errors, store, top=top), store
    except StoreError as exc:
        store.close()
        raise _Exit(f"error: {exc}", 2) from exc
    except BaseException:
        store.close()
        raise


def _exit_status(answers: list[Answer]) -> int:
    """0 when any error of the paste matched; 4 when only undecided groups answer; 3 when
    the paste held no error; else 1."""
    if any(a.candidates and a.status != UNDECIDED for a in answers):
        return 0
    if any(a.status == UNDECIDED for a in answers):
        return EXIT_UNDECIDED
    if all(a.status == NO_ERROR for a in answers):
        return EXIT_NO_ERROR
    return EXIT_NO_MATCH


def _why_none(answer: Answer) -> str:
    """What to say of an error that no candidate answers."""
    if answer.status == NO_ERROR:
        return _NO_ERROR + " (and no catalogued message matches it as text)"
    if answer.reason:
        return answer.reason
    if answer.status == NOT_CATALOGUED:
        cls = (answer.error_class or "").rpartition(".")[2]
        return f"not catalogued: no site in the catalogue raises {cls}"
    return "no record in the catalogue fits this error"


@click.command("match", epilog=_EXIT_HELP)
@click.argument("text", required=False)
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(),
    help="SQLite catalogue to search.",
)
@click.option(
    "--json",
    "as_json",
    is_flag=True,
    help="Print a JSON list of candidates, answer by answer, each answer's best first ([] when none).",
)
@click.option(
    "--top",
    default=5,
    show_default=True,
    type=click.IntRange(1, 100),
    help="How many candidates per error (a group of sites the paste cannot tell apart is shown whole).",
)
@click.option(
    "--all",
    "show_all",
    is_flag=True,
    help=f"Also show candidates under {FOLD_BELOW:.0%} confidence (folded away otherwise).",
)
def match_command(text: str | None, db: str, as_json: bool, top: int, show_all: bool) -> None:
    """Find the raise sites that explain TEXT (a message, traceback, pytest or notebook output; '-' reads stdin).

    Each error of the paste (each pytest failure, each traceback with its chain) gets its
    own answer. Each candidate has a confidence in [0, 1] (those of one answer add up to
    at most 1), the values that filled the holes of its message and the reasons it was
    chosen.
    """
    answers, store = _run(text, db, top)
    store.close()
    status = _exit_status(answers)
    if as_json:
        found = [c.to_json() for a in answers for c in a.candidates]
        click.echo(json.dumps(found, indent=2, ensure_ascii=False))
        if status == EXIT_NO_ERROR:
            click.echo(_NO_ERROR, err=True)
        sys.exit(status)
    console, err_console = Console(), Console(stderr=True)
    for answer in answers:
        if len(answers) > 1:
            head = Text.assemble((f"{answer.error + 1}/{len(answers)} ", "bold"))
            console.print(head.append_text(plain(answer.pasted, "bold", line=True)))
        if not answer.candidates:
            (err_console if len(answers) == 1 else console).print(plain(_why_none(answer)))
            continue
        # an undecided group is shown whole however thin each site's share: it is the answer
        shown = [c for c in answer.candidates if show_all or not c.folded or c.groupReason]
        if answer.group:
            console.print(group_line(answer))
        if shown:
            console.print(candidates_view(shown))
        folded = len(answer.candidates) - len(shown)
        if folded:
            more = f"{folded} more under {FOLD_BELOW:.0%} confidence (--all shows them)"
            console.print(Text(more, style="dim"))
    sys.exit(status)


def group_line(answer: Answer) -> Text:
    """Say what the text cannot decide: which of the group's sites raised the error (and,
    for an undecided group, whether any of them did)."""
    group = answer.group
    size, shared = group[0].groupSize, sum(c.confidence for c in group)
    shown = "" if len(group) == size else f", {len(group)} shown"
    if answer.status == UNDECIDED:
        return plain(
            f"{answer.reason[:1].upper()}{answer.reason[1:]}: confidence {shared:.2f} shared "
            f"among the {size} site(s){shown}",
            "yellow",
        )
    return Text(
        f"One of {size} sites raising this message: the paste cannot tell them apart "
        f"(confidence {shared:.2f} shared among them{shown})",
        style="yellow",
    )


def candidates_view(candidates: list[Candidate]) -> Group:
    """Each candidate as its confidence and ``file:line`` on one line (never wrapped, so a
    long path stays whole on an 80-column terminal), then its class, repository, message
    and hole values, indented."""
    parts: list[Any] = []
    for c in candidates:
        head = Text.assemble(
            (f"{c.confidence:4.2f}  ", "bold"),
            plain(f"{c.filePath}:{c.lineNumber}", "bold", line=True),
            no_wrap=True,
            overflow="ignore",
        )
        body = plain(f"{c.errorClass or '?'} · {c.repo}", "dim", line=True)
        body.append("\n")
        body.append_text(plain(c.errorMessage[:MESSAGE_CHARS]))
        for name, value in c.holes.items():
            body.append_text(plain(f"\n{{{clean(name, line=True)}}} = ", "dim"))
            body.append_text(plain(_cut(value), "cyan", line=True))
        parts += [head, Padding(body, (0, 0, 0, 6))]
    return Group(*parts)


#: How much of a template and of a hole value the table shows.
MESSAGE_CHARS = 160
VALUE_CHARS = 60


def _cut(value: str, limit: int = VALUE_CHARS) -> str:
    return value if len(value) <= limit else value[: limit - 1] + "…"


@click.command("explain", epilog=_EXIT_HELP)
@click.argument("text", required=False)
@click.option(
    "--db",
    default=DEFAULT_DB,
    show_default=True,
    type=DbLocation(),
    help="SQLite catalogue to search.",
)
def explain_command(text: str | None, db: str) -> None:
    """Explain TEXT: the raise site, the condition that fired, the values, what it means and how to fix it.

    TEXT is a message, a traceback, pytest or notebook output; '-' or nothing reads stdin.
    Each error of the paste (each pytest failure) is explained in turn.
    """
    answers, store = _run(text, db, 5)
    console = Console()
    status = _exit_status(answers)
    with store:
        pages: list[tuple[Answer, Group | None]] = []
        for answer in answers:
            if not answer.candidates:
                pages.append((answer, None))
                continue
            if answer.status == UNDECIDED:  # the group is listed, no one site's page
                pages.append((answer, Group()))
                continue
            best = answer.candidates[0]
            envelope = store.get(best.id) or {"record": {}, "evidence": {}}
            related = [store.get(i) for i in (envelope["evidence"].get("related") or [])[:5]]
            pages.append((answer, render_explanation(best, envelope, [r for r in related if r])))
    for answer, page in pages:
        if len(answers) > 1:
            head = Text.assemble((f"{answer.error + 1}/{len(answers)} ", "bold"))
            console.print(head.append_text(plain(answer.pasted, "bold", line=True)))
        if page is None:
            Console(stderr=len(answers) == 1).print(plain(_why_none(answer)))
            continue
        if answer.group:
            console.print(group_line(answer))
        if answer.status == UNDECIDED:  # no page: the text names none of them
            console.print(Text("The sites of this group", style="bold"))
            console.print(candidates_view(answer.group))
            continue
        console.print(page)
        group = answer.group[1:]
        if group:
            console.print(Text("The other sites of this group", style="bold"))
            console.print(candidates_view(group))
        others = [c for c in answer.candidates[1:] if not c.folded and c.group is None]
        if others:
            console.print(Text("Other candidates", style="bold"))
            console.print(candidates_view(others))
    sys.exit(status)


def _with_holes(message: str, holes: dict[str, str]) -> Text:
    text = plain(message, "bold")
    if holes:
        text.append("\n")
        for name, value in holes.items():
            text.append_text(plain(f"  {{{clean(name, line=True)}}} = ", "dim"))
            text.append_text(plain(_cut(value, 200), "cyan"))
            text.append("\n")
    return text


_SAFE_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f-\x9f]+")


def render_explanation(
    best: Candidate, envelope: dict[str, Any], related: list[dict[str, Any]]
) -> Group:
    """The terminal version of an error page; all of it is scanned or pasted text, so it
    is cleaned (:mod:`errdex.terminal`) and never read as markup."""
    record: dict[str, Any] = envelope["record"]
    evidence: dict[str, Any] = envelope.get("evidence") or {}
    parts: list[Any] = []
    title = f"{best.repo} · {best.errorClass or 'error'} · confidence {best.confidence:.2f}"
    parts.append(
        Panel(
            _with_holes(record.get("errorMessage", best.errorMessage), best.holes),
            title=plain(title, line=True),
        )
    )
    where = plain(f"{site_place(evidence)} {best.filePath}:{best.lineNumber}", "bold", line=True)
    url = record.get("githubUrl")
    if isinstance(url, str) and url:
        safe = _SAFE_URL.fullmatch(url) is not None
        where.append_text(plain("\n" + clean(url, line=True), ("link " + url) if safe else ""))
    parts.append(where)
    if record.get("sourceCode"):
        parts.append(
            Syntax(
                clean(record["sourceCode"]),
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
            line = f"  {guard['kind']:>8}  {clean(guard['text'])}  (line {guard['line']})\n"
            cond.append_text(plain(line))
        parts.append(cond)
    for title_text, key in (
        ("What it means", "documentation"),
        ("When it happens", "triggerScenarios"),
    ):
        if record.get(key):
            parts.append(Text(title_text, style="bold"))
            parts.append(plain("  " + record[key]))
    if record.get("solutions"):
        parts.append(Text("How to fix it", style="bold"))
        for i, solution in enumerate(record["solutions"], 1):
            parts.append(plain(f"  {i}. {solution}"))
    if related:
        parts.append(Text("Related errors", style="bold"))
        for env in related:
            r = env["record"]
            where_text = clean(f"{r['filePath']}:{r['lineNumber']}", line=True)
            parts.append(plain(f"  • {clean(r['errorMessage'][:60], line=True)}  ({where_text})"))
    parts.append(plain("Why this record: " + "; ".join(best.reasons), "dim"))
    return Group(*parts)
