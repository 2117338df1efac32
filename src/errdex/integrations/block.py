"""The short errdex block printed after a traceback: text for a terminal, HTML for a notebook.

For each error that matched: the raise site (file:line, and the local file when one of
the exception's frames is it) with its permalink, the condition that fired, the values
that filled the message's holes, the first fix, and where the full page is. Everything in
it comes from scanned code or from the exception, so text goes through
:mod:`errdex.terminal` and HTML through :func:`html.escape`; links are only ``http(s)``.
"""

from __future__ import annotations

import html
import os
import re
import shlex
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from errdex.match.api import Answer
from errdex.terminal import clean

__all__ = ["Block", "blocks", "page_url", "render_html", "render_text"]

#: The most guards shown, innermost last; the page has them all.
MAX_GUARDS = 3
#: How much of a hole's value or a fix is shown.
VALUE_CHARS = 120
FIX_CHARS = 300

_SAFE_URL = re.compile(r"https?://[^\s\x00-\x1f\x7f-\x9f\"'<>]+")


@dataclass(frozen=True)
class Block:
    """What the block says about one error, as plain data (not yet cleaned or escaped)."""

    title: str  # ``Class raised at path:line``
    site: str  # ``repo path:line``
    local_path: str | None
    permalink: str | None
    conditions: list[str]
    holes: list[tuple[str, str]]
    fix: str | None
    more: str  # the command or URL of the full page
    confidence: float


def _cut(text: str, limit: int) -> str:
    text = " ".join(text.split())
    return text if len(text) <= limit else text[: limit - 1] + "…"


def page_url(record: dict[str, Any], record_id: str) -> str | None:
    """The record's page on the site at ``$ERRDEX_SITE_URL``, if that is set."""
    site = os.environ.get("ERRDEX_SITE_URL", "").strip().rstrip("/")
    repo, slug = record.get("repo"), record.get("slug")
    if not site or not isinstance(repo, str) or "/" not in repo:
        return None
    tail = f"/{slug}" if isinstance(slug, str) and slug else ""
    return f"{site}/repos/{repo}/errors/{record_id}{tail}"


def _block(answer: Answer) -> Block | None:
    if not answer.candidates:
        return None
    best = answer.candidates[0]
    envelope: dict[str, Any] = getattr(answer, "envelope", None) or {}
    record: dict[str, Any] = envelope.get("record") or {}
    evidence: dict[str, Any] = envelope.get("evidence") or {}
    guards = (evidence.get("site") or {}).get("guards") or []
    conditions = [
        f"{g.get('kind', 'if')} {_cut(str(g.get('text', '')), VALUE_CHARS)}  (line {g.get('line')})"
        for g in guards[-MAX_GUARDS:]
        if isinstance(g, dict)
    ]
    solutions = record.get("solutions") or []
    fix = _cut(str(solutions[0]), FIX_CHARS) if solutions else None
    url = record.get("githubUrl")
    permalink = url if isinstance(url, str) and _SAFE_URL.fullmatch(url) else None
    more = page_url(record, best.id)
    if more is None:
        db = getattr(answer, "db", None)
        where = f" --db {shlex.quote(db)}" if db and db != "errdex.db" else ""
        more = f"errdex explain{where} {shlex.quote(answer.pasted)}"
    return Block(
        title=f"{best.errorClass or answer.error_class or 'error'} raised at "
        f"{best.filePath}:{best.lineNumber}",
        site=f"{best.repo} {best.filePath}:{best.lineNumber}",
        local_path=getattr(answer, "local_path", None),
        permalink=permalink,
        conditions=conditions,
        holes=[(name, _cut(value, VALUE_CHARS)) for name, value in best.holes.items()],
        fix=fix,
        more=more,
        confidence=best.confidence,
    )


def blocks(answers: Sequence[Answer]) -> list[Block]:
    """The block of each answer that has a candidate."""
    return [b for b in (_block(a) for a in answers) if b is not None]


_BOLD, _DIM, _CYAN, _RESET = "\x1b[1m", "\x1b[2m", "\x1b[36m", "\x1b[0m"


def render_text(answers: Sequence[Answer], *, color: bool, rule: bool = True) -> str:
    """The block for a terminal (ANSI colour when ``color``); ``""`` when nothing matched.
    ``rule`` starts it with errdex's own title rule, which a caller that already titles
    the block (pytest's "errdex" section) leaves out."""
    found = blocks(answers)
    if not found:
        return ""

    def style(code: str, text: str) -> str:
        return f"{code}{text}{_RESET}" if color else text

    lines = [style(_DIM, "── errdex " + "─" * 50)] if rule else []
    for block in found:
        title = clean(block.title, line=True)
        lines.append(f"{style(_BOLD, title)}  {style(_DIM, f'({block.confidence:.0%})')}")
        lines.append(f"  site   {clean(block.site, line=True)}")
        if block.local_path:
            lines.append(f"  here   {clean(block.local_path, line=True)}")
        if block.permalink:
            lines.append(f"  link   {clean(block.permalink, line=True)}")
        for condition in block.conditions:
            lines.append(f"  when   {clean(condition, line=True)}")
        for name, value in block.holes:
            lines.append(
                f"  value  {{{clean(name, line=True)}}} = {style(_CYAN, clean(value, line=True))}"
            )
        if block.fix:
            lines.append(f"  fix    {clean(block.fix, line=True)}")
        lines.append(f"  more   {style(_DIM, clean(block.more, line=True))}")
    return "\n".join(lines) + "\n"


def _link(url: str) -> str:
    escaped = html.escape(url, quote=True)
    if _SAFE_URL.fullmatch(url):
        return f'<a href="{escaped}" target="_blank" rel="noopener noreferrer">{escaped}</a>'
    return f"<code>{escaped}</code>"


def render_html(answers: Sequence[Answer]) -> str:
    """The same block as HTML for a notebook; ``""`` when nothing matched."""
    found = blocks(answers)
    if not found:
        return ""
    e = html.escape
    parts = ['<div class="errdex-block">']
    for block in found:
        rows = [f"<tr><th>site</th><td><code>{e(block.site)}</code></td></tr>"]
        if block.local_path:
            rows.append(f"<tr><th>here</th><td><code>{e(block.local_path)}</code></td></tr>")
        if block.permalink:
            rows.append(f"<tr><th>link</th><td>{_link(block.permalink)}</td></tr>")
        rows.extend(f"<tr><th>when</th><td><code>{e(c)}</code></td></tr>" for c in block.conditions)
        rows.extend(
            f"<tr><th>value</th><td><code>{{{e(n)}}}</code> = <code>{e(v)}</code></td></tr>"
            for n, v in block.holes
        )
        if block.fix:
            rows.append(f"<tr><th>fix</th><td>{e(block.fix)}</td></tr>")
        rows.append(f"<tr><th>more</th><td>{_link(block.more)}</td></tr>")
        parts.append(
            f"<p><strong>errdex: {e(block.title)}</strong> ({block.confidence:.0%})</p>"
            f"<table>{''.join(rows)}</table>"
        )
    parts.append("</div>")
    return "\n".join(parts)
