"""From stored records to what the templates show: URLs, cut titles, the page's sections.

Kept apart from the routes so the error page's rules (seed 004's order, titles cut at
60 characters, sections without data left out) are plain functions a test can call.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from typing import Any
from urllib.parse import quote, urlencode

from markupsafe import Markup

from errdex.evidence import site_place
from errdex.web.catalogue import RecordPage
from errdex.web.highlight import highlight_window
from errdex.web.reproducer_origin import origin
from errdex.web.run_marks import RunMark, code_marks, mark_of_test
from errdex.web.settings import DEFAULT_ISSUES_URL

__all__ = [
    "TITLE_LENGTH",
    "ErrorView",
    "api_path",
    "attachment",
    "cut",
    "error_view",
    "pin_text",
    "record_path",
    "repo_path",
    "version_link",
]

#: Titles (page heading, related errors) are the message's first 60 characters, as in seed 004.
TITLE_LENGTH = 60

_ANALYSTS = {
    "static": "Static analysis",
    "extractor": "Static analysis (extractor facts only, no analyst has run)",
}


#: How each kind of guard reads before its condition (the text is what holds there).
_GUARD_LABELS = {
    "for": "in the loop",
    "while-else": "the loop ended, i.e.",
    "else": "else, i.e.",
    "except": "after",
    "assert": "the assertion fails:",
}


def cut(text: str, length: int = TITLE_LENGTH) -> str:
    """The first ``length`` characters, no ellipsis (seed 004 cuts mid-word too)."""
    return text[:length]


def repo_path(repo: str) -> str:
    return "/repos/" + "/".join(quote(part, safe="") for part in repo.split("/"))


def record_path(repo: str, record_id: str, slug: str) -> str:
    """The stable page URL: the id keeps it stable, the slug makes it readable."""
    return f"{repo_path(repo)}/errors/{record_id}/{quote(slug, safe='')}"


def api_path(record_id: str) -> str:
    return f"/api/errors/{record_id}"


_UNSAFE_IN_QUOTES = re.compile(r'[^\x20-\x7e]|["\\%]')


def attachment(filename: str) -> str:
    """A ``Content-Disposition`` that names ``filename`` whatever its characters (RFC 6266).

    Header values are Latin-1 on the wire, so ``filename="ünï.jsonl"`` was a 500: the
    plain ``filename`` is an ASCII stand-in, ``filename*`` the name itself (RFC 5987).
    """
    plain = _UNSAFE_IN_QUOTES.sub("_", filename)
    return f"attachment; filename=\"{plain}\"; filename*=UTF-8''{quote(filename, safe='')}"


@dataclass(frozen=True, slots=True)
class Link:
    href: str
    text: str


@dataclass(slots=True)
class ErrorView:
    """The error page, section by section; an empty field means a section left out."""

    record: dict[str, Any]
    stale: bool
    path: str
    api: str
    title: str
    header: str
    pin: str | None
    source: Markup
    analyst: str
    footer_pin: str
    issue_url: str
    related: list[Link] = field(default_factory=list)
    conditions: list[dict[str, Any]] = field(default_factory=list)
    tests: list[dict[str, Any]] = field(default_factory=list)
    observed: list[dict[str, Any]] = field(default_factory=list)
    entry_points: list[dict[str, Any]] = field(default_factory=list)
    pin_guessed: bool = False  # the permalink pins a tag errdex guessed (evidence.source.refSource)
    place: str = "Thrown at"  # how the line is introduced (:func:`errdex.evidence.site_place`)
    #: the catalogued releases holding it, oldest first: version, place, link (when known)
    versions: list[dict[str, Any]] = field(default_factory=list)
    #: the ranges in words (``introduced 1.2, fixed 1.10``), one per run of releases
    ranges: list[str] = field(default_factory=list)
    releases: int = 0  # how many releases of the repository are catalogued
    reproducer: dict[str, Any] | None = None  # evidence.reproducer: a snippet that ran and raised
    marks: dict[str, RunMark] = field(default_factory=dict)  # code field -> ran or not, when


_SHA = re.compile(r"[0-9a-f]{40}")


def pin_text(pin: str | None) -> str | None:
    """A scanned version as a page shows it: a commit's first 10 digits, a tag whole
    (``v2.0.0rc1`` cut to 10 characters read as another version)."""
    if not pin:
        return None
    return pin[:10] if _SHA.fullmatch(pin) else pin


def pin_label(record: dict[str, Any], evidence: dict[str, Any]) -> str | None:
    """What the permalink is pinned to: the commit's first 10 digits, else the tag."""
    sha = record.get("analyzedSha")
    if sha:
        return str(sha)[:10]
    ref = (evidence.get("source") or {}).get("ref")
    return str(ref) if ref else None


def analyst_label(evidence: dict[str, Any]) -> str:
    """Who wrote the prose: the static analyst, or the model that did."""
    analysis = str(evidence.get("analysis") or "extractor")
    if analysis == "llm":
        models = [
            p["model"]
            for p in (evidence.get("provenance") or {}).values()
            if isinstance(p, dict) and p.get("analyst") == "llm" and p.get("model")
        ]
        return f"AI-assisted analysis ({models[0]})" if models else "AI-assisted analysis"
    return _ANALYSTS.get(analysis, f"Analysis by {analysis}")


def version_link(github_url: str | None, pin: str | None, path: str, line: int) -> str | None:
    """The record's line in another release, on the forge its permalink points at
    (GitHub's and GitLab's ``/blob/`` form; None for other forges or without a pin)."""
    if not github_url or not pin or "/blob/" not in github_url:
        return None
    base = github_url.split("/blob/", 1)[0]
    return f"{base}/blob/{quote(pin, safe='')}/{quote(path, safe='/')}#L{line}"


def _range_text(span: dict[str, Any]) -> str:
    text = f"introduced in {span['introduced']}"
    if span["last_affected"] != span["introduced"]:
        text += f", last seen in {span['last_affected']}"
    return text + (f", gone in {span['fixed']}" if span.get("fixed") else ", still raised")


def _version_rows(record: dict[str, Any], versions: dict[str, Any]) -> list[dict[str, Any]]:
    rows = []
    for place in versions.get("places") or []:
        pin = place.get("commit") or place.get("ref")
        rows.append(
            {
                **place,
                "moved": place["filePath"] != record["filePath"]
                or place["lineNumber"] != record["lineNumber"],
                # the release's own code, shown where it is not the window above
                "window": place.get("sourceCode")
                if place.get("sourceCode") not in (None, record.get("sourceCode"))
                else None,
                "link": version_link(
                    record.get("githubUrl"), pin, place["filePath"], place["lineNumber"]
                ),
            }
        )
    return rows


def issue_url(base: str, record: dict[str, Any], page_url: str) -> str:
    title = f"errdex record {record['id']}: {cut(record['errorMessage'])}"
    body = f"Page: {page_url}\nData: {api_path(record['id'])}\n\nWhat is wrong:\n"
    return f"{base}?{urlencode({'title': title, 'body': body})}"


def error_view(
    page: RecordPage,
    issues_base: str = DEFAULT_ISSUES_URL,
    site_url: str = "",
    versions: dict[str, Any] | None = None,
) -> ErrorView:
    """The page's sections; ``site_url`` (scheme and host) makes the issue's link absolute;
    ``versions`` is :func:`errdex.versions.version_ranges`' account of the record."""
    record, evidence = page.record, page.evidence
    site = evidence.get("site") or {}
    line = int(record["lineNumber"])
    guards = [g for g in site.get("guards") or [] if isinstance(g, dict) and g.get("text")]
    start, end = int(record["sourceCodeStart"]), int(record["sourceCodeEnd"])
    source = highlight_window(
        record["sourceCode"],
        record["filePath"],
        start,
        range(line, max(line, int(site.get("endLine") or line)) + 1),
        frozenset(int(g["line"]) for g in guards if isinstance(g.get("line"), int)),
    )
    header = f"{record['repo']} · {record['severity']}"
    if record.get("errorClass"):
        header += f" · {record['errorClass']}"
    path = record_path(record["repo"], record["id"], record["slug"])
    pin = pin_label(record, evidence)
    return ErrorView(
        record=record,
        stale=page.stale,
        path=path,
        api=api_path(record["id"]),
        title=cut(record["errorMessage"]),
        header=header,
        pin=pin,
        pin_guessed=(evidence.get("source") or {}).get("refSource") == "guessed",
        place=site_place(evidence),
        source=source,
        analyst=analyst_label(evidence),
        footer_pin=f"{record['repo']}@{pin}" if pin else record["repo"],
        issue_url=issue_url(issues_base, record, site_url.rstrip("/") + path),
        related=[
            Link(record_path(r.repo, r.id, r.slug), cut(r.errorMessage)) for r in page.related
        ],
        conditions=[
            {
                **g,
                "label": _GUARD_LABELS.get(str(g.get("kind")), g.get("kind")),
                "inWindow": isinstance(g.get("line"), int) and start <= g["line"] <= end,
            }
            for g in guards
        ],
        tests=[
            {**t, "mark": mark_of_test(evidence, t)}
            for t in evidence.get("tests") or []
            if isinstance(t, dict)
        ],
        observed=[o for o in evidence.get("observed") or [] if isinstance(o, dict)],
        entry_points=[e for e in evidence.get("entryPoints") or [] if isinstance(e, dict)],
        versions=_version_rows(record, versions) if versions else [],
        ranges=[_range_text(span) for span in (versions or {}).get("ranges") or []],
        releases=len((versions or {}).get("releases") or []),
        reproducer=_reproducer(evidence),
        marks=code_marks(evidence),
    )


def _reproducer(evidence: dict[str, Any]) -> dict[str, Any] | None:
    found = evidence.get("reproducer")
    if not isinstance(found, dict) or not found.get("snippet"):
        return None
    return {**found, "origin": origin(found)}
