"""What the site and the agents' tools ask a store for, whichever database it is.

Search queries and hits, the record page, repository listings and their filters: the
types every backend returns (``_sqlite_search``/``_sqlite_site`` for SQLite, ``_pg_search``/
``_pg_site`` for PostgreSQL), and the parts of search that do not depend on the
database: splitting a query into words and re-ranking the best hits by how much of the
pasted text a record's pattern covers.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass, field
from functools import lru_cache
from typing import Any

import re2

__all__ = [
    "AUTO_PREFIX_MIN",
    "MAX_OFFSET",
    "MAX_TERMS",
    "NO_CLASS",
    "RERANK_WINDOW",
    "ErrorFilters",
    "RecordPage",
    "Related",
    "RepoInfo",
    "SearchHit",
    "SearchQuery",
    "SearchUnavailable",
    "fold",
    "query_words",
    "rerank",
]

#: Deepest result reachable by paging: ranking more than this per query costs too much.
MAX_OFFSET = 1000
#: The best hits re-ranked by how much of the query their message pattern covers.
RERANK_WINDOW = 50
#: Terms kept from one query; a pasted traceback has more words than any message.
MAX_TERMS = 32
#: A last term at least this long is also searched as a prefix (search as you type).
AUTO_PREFIX_MIN = 3
NO_CLASS = "(none)"

_TERM = re.compile(r"([^\W_]+)(\*?)")


class SearchUnavailable(Exception):
    """The index could not be built (a read-only file that was never indexed)."""


@dataclass(frozen=True, slots=True)
class SearchQuery:
    """What a caller asked for; ``text`` may be empty to list by repo and class alone."""

    text: str
    repo: str | None = None
    error_class: str | None = None
    limit: int = 20
    offset: int = 0


def search_filters(query: SearchQuery, live: str, mark: str) -> tuple[str, list[Any]]:
    """The ``WHERE`` of a search over ``records AS r``: current records (``live``, the
    dialect's "not stale"), of the query's repo and class; ``mark`` is the parameter marker."""
    clauses = [live]
    params: list[Any] = []
    if query.repo is not None:
        clauses.append(f"r.repo = {mark}")
        params.append(query.repo)
    if query.error_class is not None:
        clauses.append(f"r.error_class = {mark}")
        params.append(query.error_class)
    return " AND ".join(clauses), params


@dataclass(frozen=True, slots=True)
class SearchHit:
    id: str
    repo: str
    slug: str
    errorClass: str | None
    errorType: str
    severity: str
    filePath: str
    lineNumber: int
    errorMessage: str
    score: float | None

    def to_json(self) -> dict[str, Any]:
        return {name: getattr(self, name) for name in self.__slots__}


@dataclass(frozen=True, slots=True)
class Related:
    id: str
    repo: str
    slug: str
    errorMessage: str


@dataclass(frozen=True, slots=True)
class RecordPage:
    """Everything the error page shows, from one query."""

    record: dict[str, Any]
    evidence: dict[str, Any]
    dataset_version: str
    stale: bool
    related: list[Related]


@dataclass(frozen=True, slots=True)
class ErrorFilters:
    """The repository page's filters; ``file`` is a file path or a folder prefix."""

    error_class: str | None = None
    error_type: str | None = None
    severity: str | None = None
    file: str | None = None

    def sql(self, mark: str = "?") -> tuple[str, list[Any]]:
        """``AND`` clauses over the records table, with ``mark`` as the parameter marker."""
        clauses: list[str] = []
        params: list[Any] = []
        if self.error_class == NO_CLASS:
            clauses.append("error_class IS NULL")
        elif self.error_class:
            clauses.append(f"error_class = {mark}")
            params.append(self.error_class)
        if self.error_type:
            clauses.append(f"error_type = {mark}")
            params.append(self.error_type)
        if self.severity:
            clauses.append(f"severity = {mark}")
            params.append(self.severity)
        if self.file:
            folder = self.file.rstrip("/")
            clauses.append(f"(file_path = {mark} OR substr(file_path, 1, {mark}) = {mark})")
            params.extend([folder, len(folder) + 1, folder + "/"])
        return "".join(f" AND {c}" for c in clauses), params


@dataclass(slots=True)
class RepoInfo:
    """A repository with its counts and latest scan (``byClass`` etc. for its own page)."""

    repo: str
    records: int
    stale: int
    files: int
    commits: list[str] = field(default_factory=list)
    latest: dict[str, Any] | None = None
    byClass: dict[str, int] = field(default_factory=dict)
    byType: dict[str, int] = field(default_factory=dict)
    bySeverity: dict[str, int] = field(default_factory=dict)


def add_scan(info: RepoInfo, row: tuple[Any, ...]) -> None:
    """Fold one scan row (repo, commit, ref, version, origin, finished, dataset; newest
    first) into its repository's pins and latest scan."""
    _, commit, ref, version, origin, finished, dataset = row
    pin = commit or ref
    if pin and pin not in info.commits:
        info.commits.append(pin)
    if info.latest is None:
        info.latest = {
            "commit": commit,
            "ref": ref,
            "version": version,
            "origin": origin,
            "scannedAt": finished,
            "datasetVersion": dataset,
        }


def listed(infos: dict[str, RepoInfo]) -> list[RepoInfo]:
    """Repositories with current records, by name ignoring case."""
    shown = [info for info in infos.values() if info.records]
    return sorted(shown, key=lambda info: (info.repo.casefold(), info.repo))


def query_words(text: str) -> list[tuple[str, bool]]:
    """Every word of ``text`` in order, lower-cased, with whether it is a prefix: a
    trailing ``*``, or the last word when long and not followed by a space."""
    found = _TERM.findall(text)
    words = []
    for n, (word, star) in enumerate(found):
        last = n == len(found) - 1
        prefix = bool(star) or (last and len(word) >= AUTO_PREFIX_MIN and not text[-1:].isspace())
        words.append((word.lower(), prefix))
    return words


def fold(text: str) -> str:
    """Lower case without diacritics (``Ünïcode`` -> ``unicode``), as SQLite's
    ``unicode61 remove_diacritics 2`` tokenizer reads words."""
    if text.isascii():
        return text.lower()
    decomposed = unicodedata.normalize("NFKD", text.lower())
    return "".join(ch for ch in decomposed if not unicodedata.combining(ch))


def rerank(
    exact: list[tuple[Any, ...]], rows: list[tuple[Any, ...]], text: str
) -> list[tuple[Any, ...]]:
    """The phrase hits ``exact``, then the other ``rows``; within the first window,
    phrase hits first, then by how much of ``text`` the record's pattern covers.

    Rows are ``(id, …, pattern)`` with the pattern at index 10. Coverage is the literal
    text of the pattern found in the query (the match length less what its holes
    took), so ``{}`` alone covers nothing and the exact template of a pasted message
    covers the most. Ties keep the database's order.
    """
    phrased = {row[0] for row in exact}
    merged = exact + [row for row in rows if row[0] not in phrased]
    window = merged[:RERANK_WINDOW]
    keys = [(row[0] not in phrased, -_coverage(row[10], text), n) for n, row in enumerate(window)]
    return [window[key[2]] for key in sorted(keys)] + merged[RERANK_WINDOW:]


def _coverage(pattern: str | None, text: str) -> int:
    compiled = _compiled(pattern) if pattern else None
    if compiled is None:
        return 0
    m = compiled.search(text)
    if m is None:
        return 0
    start, end = m.span()
    held: int = sum(len(g) for g in m.groups() if g)
    return int(end - start) - held


@lru_cache(maxsize=4096)
def _compiled(pattern: str) -> Any:
    """RE2, so a pattern runs in linear time whatever it and the pasted text are."""
    try:
        return re2.compile(pattern)
    except re2.error:
        return None


def hit(row: tuple[Any, ...], score: float | None) -> SearchHit:
    """A hit from ``(id, repo, slug, class, type, severity, file, line, message, …)``."""
    return SearchHit(
        id=row[0],
        repo=row[1],
        slug=row[2],
        errorClass=row[3],
        errorType=row[4],
        severity=row[5],
        filePath=row[6],
        lineNumber=row[7],
        errorMessage=row[8] or "",
        score=score,
    )
