"""Checks on what a model wrote: its code must parse, and the names it uses must exist.

A model that writes ``nx.frobnicate(G)`` invents an API. The code fields are parsed in
the repository's language (a syntax error goes back to the model in the repair round),
and every identifier the answer *claims* exists (a called name, an attribute, an
imported module, a keyword argument, a name in backticks in the prose) is looked up in
the repository's vocabulary: the identifiers of every stored source window and evidence
of that repository, plus the language's builtins and standard library. Names found
nowhere are flagged in ``evidence.llm``, not removed: the vocabulary is what the store
keeps, not whole files, so a flag is a prompt to check, not proof.
"""

from __future__ import annotations

import ast
import builtins
import json
import keyword
import re
import sys
import textwrap
from collections.abc import Iterable
from functools import lru_cache
from pathlib import PurePosixPath
from typing import Any

from errdex.extract._downgrade import parse_any

from .schema import CODE_FIELDS, LlmProse

__all__ = [
    "Vocabulary",
    "claimed_names",
    "code_problems",
    "code_segments",
    "envelope_text",
    "language_of",
    "unknown_identifiers",
]

_LANGUAGES: dict[str, str] = {".py": "python", ".pyi": "python", ".pyw": "python"}
_IDENT = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: ``// before`` / ``# after`` lines that split exampleFix into its two halves.
_MARKER = re.compile(r"^[ \t]*(?://|#|--)[ \t]*(?:before|after)\b.*$", re.IGNORECASE | re.MULTILINE)
_BACKTICK = re.compile(r"`([^`\n]{1,200})`")
_PROSE_FIELDS = ("documentation", "triggerScenarios", "commonSituations")
_LIST_FIELDS = ("solutions", "preventionTips")


def language_of(path: str) -> str | None:
    """The language a file is written in, by its suffix (None when errdex has no parser)."""
    return _LANGUAGES.get(PurePosixPath(path).suffix.lower())


def code_segments(field: str, code: str) -> list[str]:
    """The pieces that must each parse: exampleFix's before and after halves, else the whole."""
    if field != "exampleFix":
        return [code]
    parts = [part for part in _MARKER.split(code) if part.strip()]
    return parts or [code]


def _syntax_error(language: str | None, code: str) -> str | None:
    if language != "python":
        return None  # no parser for this language yet: unchecked, not failed
    try:
        parse_any(textwrap.dedent(code).strip("\n") + "\n")
    except SyntaxError as exc:
        return f"not valid Python (line {exc.lineno}: {exc.msg})"
    except ValueError as exc:  # null bytes
        return f"not valid Python ({exc})"
    return None


def code_problems(prose: LlmProse, language: str | None) -> dict[str, str]:
    """Code field -> why it does not parse, for every code field that does not."""
    problems: dict[str, str] = {}
    for field in CODE_FIELDS:
        value: str | None = getattr(prose, field)
        if value is None:
            continue
        for segment in code_segments(field, value):
            if error := _syntax_error(language, segment):
                problems[field] = error
                break
    return problems


class _Claims(ast.NodeVisitor):
    """Names a Python snippet relies on existing, minus the ones it binds itself."""

    def __init__(self, *, bare_names: bool) -> None:
        self.bare_names = bare_names  # in prose a bare `name` is a claim; in code, a placeholder
        self.bound: set[str] = set()
        self.claims: list[str] = []
        self.keywords: list[str] = []  # parameters of the callee: local bindings do not count

    def visit_Name(self, node: ast.Name) -> None:
        if isinstance(node.ctx, ast.Load):
            if self.bare_names:
                self.claims.append(node.id)
        else:
            self.bound.add(node.id)

    def visit_Call(self, node: ast.Call) -> None:
        if isinstance(node.func, ast.Name):
            self.claims.append(node.func.id)
        self.keywords.extend(k.arg for k in node.keywords if k.arg)
        self.generic_visit(node)

    def visit_Attribute(self, node: ast.Attribute) -> None:
        self.claims.append(node.attr)
        self.generic_visit(node)

    def _define(self, node: ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) -> None:
        self.bound.add(node.name)
        self.generic_visit(node)

    visit_FunctionDef = visit_AsyncFunctionDef = visit_ClassDef = _define

    def visit_arg(self, node: ast.arg) -> None:
        self.bound.add(node.arg)

    def visit_ExceptHandler(self, node: ast.ExceptHandler) -> None:
        if node.name:
            self.bound.add(node.name)
        self.generic_visit(node)

    def visit_Import(self, node: ast.Import) -> None:
        for alias in node.names:
            self.claims.extend(alias.name.split("."))
            self.bound.add(alias.asname or alias.name.split(".")[0])

    def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
        self.claims.extend((node.module or "").split("."))
        for alias in node.names:
            self.claims.append(alias.name)
            self.bound.add(alias.asname or alias.name)


def _python_claims(code: str, *, bare_names: bool, mode: str) -> list[str]:
    try:
        tree = ast.parse(textwrap.dedent(code).strip(), mode=mode)
    except (SyntaxError, ValueError):
        return []
    visitor = _Claims(bare_names=bare_names)
    visitor.visit(tree)
    names = [name for name in visitor.claims if name and name not in visitor.bound]
    return names + visitor.keywords


_GENERIC_CALL = re.compile(r"\b([A-Za-z_]\w*)\s*\(")
_GENERIC_ATTR = re.compile(r"\.([A-Za-z_]\w*)")


def _generic_claims(code: str) -> list[str]:
    return _GENERIC_CALL.findall(code) + _GENERIC_ATTR.findall(code)


def claimed_names(prose: LlmProse, language: str | None) -> list[tuple[str, str]]:
    """(field, identifier) for every identifier the answer says exists, in field order."""
    found: list[tuple[str, str]] = []
    for field in CODE_FIELDS:
        code: str | None = getattr(prose, field)
        if code is None:
            continue
        for segment in code_segments(field, code):
            names = (
                _python_claims(segment, bare_names=False, mode="exec")
                if language == "python"
                else _generic_claims(segment)
            )
            found.extend((field, name) for name in names)
    texts: list[tuple[str, str]] = [(f, getattr(prose, f)) for f in _PROSE_FIELDS]
    texts += [(f, item) for f in _LIST_FIELDS for item in getattr(prose, f)]
    for field, text in texts:
        for span in _BACKTICK.findall(text):
            names = _python_claims(span, bare_names=True, mode="eval")
            if not names and language != "python":
                names = _IDENT.findall(span) if _IDENT.fullmatch(span.replace(".", "_")) else []
            found.extend((field, name) for name in names if len(name) > 1)
    return found


@lru_cache(maxsize=1)
def _python_words() -> frozenset[str]:
    """Builtins, keywords, the standard library's modules and builtin types' attributes."""
    words: set[str] = set(dir(builtins)) | set(keyword.kwlist) | set(keyword.softkwlist)
    words |= set(sys.stdlib_module_names)
    for kind in (str, bytes, list, dict, set, frozenset, tuple, int, float, complex, object):
        words |= set(dir(kind))
    words |= set(dir(BaseException)) | set(dir(OSError)) | set(dir(UnicodeError))
    return frozenset(words)


class Vocabulary:
    """Every identifier in a repository's stored windows and evidence."""

    def __init__(self, texts: Iterable[str] = ()) -> None:
        self._words: set[str] = set()
        for text in texts:
            self.add(text)

    def add(self, text: str) -> None:
        self._words.update(_IDENT.findall(text))

    def __contains__(self, name: object) -> bool:
        return name in self._words or name in _python_words()

    def __len__(self) -> int:
        return len(self._words)


#: Evidence written by analysts about prose, not facts from the repository.
_NOT_FACTS = frozenset({"provenance", "analysis", "llm"})


def envelope_text(envelope: dict[str, Any]) -> str:
    """The repository facts of a record (source, message, evidence) for the vocabulary.

    Prose fields and analyst bookkeeping stay out, or a name a model invented would
    count as known the next time.
    """
    record = envelope["record"]
    facts = {k: v for k, v in (envelope.get("evidence") or {}).items() if k not in _NOT_FACTS}
    return "\n".join(
        (
            record["sourceCode"],
            record["errorMessage"],
            record.get("errorClass") or "",
            json.dumps(facts, ensure_ascii=False),
        )
    )


def unknown_identifiers(
    prose: LlmProse, language: str | None, vocabulary: Vocabulary
) -> list[dict[str, str]]:
    """``[{"field", "name"}]`` for claimed identifiers found nowhere, each name once."""
    flagged: list[dict[str, str]] = []
    seen: set[str] = set()
    for field, name in claimed_names(prose, language):
        if name in seen or name in vocabulary:
            continue
        seen.add(name)
        flagged.append({"field": field, "name": name})
    return flagged
