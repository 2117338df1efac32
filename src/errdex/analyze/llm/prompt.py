"""The versioned prompt: a record and its evidence, rendered for a model.

The prompt carries no absolute line numbers, commit or URL: code that merely moved
renders to the same text, so its content hash, and therefore its cache entry, stays
the same. What the prompt shows is exactly what the hash covers; bump
:data:`PROMPT_VERSION` whenever the wording or the rendering changes, since the cache
keys answers on it.
"""

from __future__ import annotations

import hashlib
import json
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from errdex.record import BACKGROUND_TAGS

from .checks import language_of
from .schema import PROSE_FIELDS

__all__ = ["PROMPT_VERSION", "Prompt", "RelatedError", "build_prompt", "repair_request"]

PROMPT_VERSION = "prose-1"

_MAX_DOCSTRING = 1500
_MAX_SNIPPET = 700
_MAX_ITEMS = 5
_MAX_TESTS = 3

_LANGUAGE_NAMES = {"python": "Python"}

_SYSTEM = """\
You document one error site of a software repository for a developer who just hit \
that error. You are given the site's source code and what static analysis found \
about it (the evidence). Write the explanation fields of an error record.

Rules:
- Ground every statement in the evidence. Do not invent functions, parameters, \
options, versions or behaviour the evidence does not show. Name only identifiers \
that appear in the evidence, or builtins and standard library of {language}.
- Optional fields (exampleFix, validationCode, typeGuard, tryCatchPattern, \
handlingStrategy, backgroundTag) are null when the evidence does not support them.
- Code is plain {language} that parses on its own: no Markdown fences, no prose \
inside code. exampleFix is a line "// before", the failing code, a line "// after", \
the fixed code. tryCatchPattern catches the error class shown and handles it.
- documentation: what the error means (1-3 sentences). triggerScenarios: the \
condition that fires it, in words, and the calls that lead there. commonSituations: \
how people usually get there. solutions: 1-5 concrete fixes, most likely first. \
preventionTips: 0-5 habits that avoid it. tags: 2-6 kebab-case topic tags.
- handlingStrategy is one of: try-catch, type-guard, validation, retry, fallback.
- backgroundTag is one of: {background}.

Answer with one JSON object with exactly these keys: {keys}."""


@dataclass(frozen=True, slots=True)
class RelatedError:
    """Another record the evidence names as related, as the prompt shows it."""

    error_class: str | None
    message: str
    file_path: str


@dataclass(frozen=True, slots=True)
class Prompt:
    """One site's prompt, the evidence keys it carries and the hash of its content."""

    system: str
    user: str
    language: str | None
    basis: tuple[str, ...]
    content_hash: str


def _system(language: str | None) -> str:
    return _SYSTEM.format(
        language=_LANGUAGE_NAMES.get(language or "", language or "the repository's language"),
        background=", ".join(BACKGROUND_TAGS),
        keys=", ".join(PROSE_FIELDS),
    )


def _clip(text: str, limit: int) -> str:
    text = text.strip()
    return text if len(text) <= limit else text[:limit].rstrip() + " …"


def _indent(text: str, prefix: str = "    ") -> str:
    return "\n".join(prefix + line if line else line for line in text.split("\n"))


def _window(record: dict[str, Any], end_line: int) -> str:
    """The source window with the statement's lines marked ``>>`` and no line numbers."""
    start, first = record["sourceCodeStart"], record["lineNumber"]
    lines = record["sourceCode"].split("\n")
    return "\n".join(
        (">> " if first <= start + i <= end_line else "   ") + line for i, line in enumerate(lines)
    )


def _site_lines(record: dict[str, Any], site: dict[str, Any]) -> list[str]:
    kind = site.get("kind", "raise")
    cls = record.get("errorClass") or "an exception decided at run time"
    qualified = site.get("qualifiedClass")
    shown = f"{cls} ({qualified})" if qualified and qualified != cls else cls
    lines = [
        f"Statement: {kind} {shown}",
        f"Error type: {record['errorType']}; severity: {record['severity']}",
        f"Enclosing: {site.get('qualname') or '(module)'}",
        "Message template (parts in braces or %-codes are filled in at run time):",
        _indent(record["errorMessage"]),
    ]
    if site.get("cause"):
        lines.append(f"Raised from (the `from` cause): {site['cause']}")
    if kind == "yield":
        lines.append(
            "The exception is made here and yielded by a generator, not raised at this line:"
            " the code that consumes the generator raises it (or collects it)."
        )
    return lines


def _guards(site: dict[str, Any]) -> list[str]:
    guards = site.get("guards") or []
    if not guards:
        return []
    out = ["Conditions on the way to the statement, outermost first:"]
    out += [f"- {g['kind']}: {g['text']}" for g in guards]
    return out


def _function(info: dict[str, Any]) -> list[str]:
    out = [f"Enclosing function ({info.get('qualname', '?')}):"]
    if info.get("signature"):
        out.append(_indent(info["signature"]))
    if info.get("docstring"):
        out.append(_indent(_clip(info["docstring"], _MAX_DOCSTRING)))
    return out


def _raises_doc(items: list[dict[str, Any]]) -> list[str]:
    out = ["Docstring 'Raises' entries naming this class:"]
    out += [
        f"- {d['errorClass']}: {_clip(d['text'], 400)} ({d['path']})" for d in items[:_MAX_ITEMS]
    ]
    return out


def _class_info(info: dict[str, Any]) -> list[str]:
    bases = ", ".join(info.get("bases") or [])
    out = [f"Exception class {info.get('qualified', '?')}({bases}):"]
    if info.get("docstring"):
        out.append(_indent(_clip(info["docstring"], 600)))
    return out


def _tests(items: list[dict[str, Any]]) -> list[str]:
    out = ["Tests in the repository that expect this error:"]
    for test in items[:_MAX_TESTS]:
        match = f", match {test['match']!r}" if test.get("match") else ""
        out.append(f"- {test.get('name', test.get('path', '?'))} ({test.get('kind', '?')}{match})")
        if test.get("snippet"):
            out.append(_indent(_clip(test["snippet"], _MAX_SNIPPET)))
    return out


def _observed(items: list[dict[str, Any]]) -> list[str]:
    out = ["Messages seen at run time:"]
    for seen in items[:_MAX_ITEMS]:
        count = f" (seen {seen['count']} times)" if seen.get("count", 1) > 1 else ""
        out.append(
            f"- {json.dumps(_clip(seen.get('message', ''), 400), ensure_ascii=False)}{count}"
        )
    return out


def _entry_points(items: list[dict[str, Any]]) -> list[str]:
    out = ["Public functions that reach it:"]
    for entry in items[:_MAX_ITEMS]:
        chain = entry.get("via") or []
        via = f" (via {' -> '.join(chain)})" if len(chain) > 1 else ""
        out.append(f"- {entry.get('qualname', '?')}{via}")
    return out


def _related(items: Sequence[RelatedError]) -> list[str]:
    out = ["Related errors in this repository:"]
    out += [
        f"- {r.error_class or 'error'}: {_clip(r.message, 300)} ({r.file_path})"
        for r in items[:_MAX_ITEMS]
    ]
    return out


def build_prompt(envelope: dict[str, Any], related: Sequence[RelatedError] = ()) -> Prompt:
    """Render a record and its evidence into a prompt; see the module docstring on hashing."""
    record, evidence = envelope["record"], envelope.get("evidence", {})
    site: dict[str, Any] = evidence.get("site", {})
    language = language_of(record["filePath"])
    fence = language or ""
    basis = ["sourceCode", "errorMessage", "site"]
    sections: list[list[str]] = [
        [
            f"Repository: {record['repo']}",
            f"Language: {_LANGUAGE_NAMES.get(language or '', language or 'unknown')}",
            f"File: {record['filePath']}",
            *_site_lines(record, site),
        ],
        [
            'Source around the statement (lines marked ">>" are the statement):',
            f"```{fence}\n{_window(record, site.get('endLine', record['lineNumber']))}\n```",
        ],
    ]
    if guards := _guards(site):
        sections.append(guards)
    optional: tuple[tuple[str, Any], ...] = (
        ("function", _function),
        ("raisesDoc", _raises_doc),
        ("classInfo", _class_info),
        ("tests", _tests),
        ("observed", _observed),
        ("entryPoints", _entry_points),
    )
    for key, render in optional:
        if evidence.get(key):
            sections.append(render(evidence[key]))
            basis.append(key)
    if related:
        sections.append(_related(related))
        basis.append("related")
    if site.get("notes"):
        sections.append(["Extractor notes:", *(f"- {n}" for n in site["notes"])])
    user = "\n\n".join("\n".join(lines) for lines in sections)
    system = _system(language)
    digest = hashlib.sha256(f"{system}\x00{user}".encode()).hexdigest()
    return Prompt(system, user, language, tuple(basis), digest)


def repair_request(errors: Sequence[str]) -> str:
    """The follow-up message of the repair round: what was wrong, and what to send."""
    listed = "\n".join(f"- {e}" for e in errors)
    return (
        "Your answer could not be used:\n"
        f"{listed}\n"
        "Reply with the corrected JSON object only, with exactly the keys asked for."
    )
