"""The JSON API's bodies, declared once so ``/openapi.json`` and the responses agree."""

from __future__ import annotations

from typing import Any

from pydantic import BaseModel, ConfigDict, Field

from errdex.record import ErrorRecord
from errdex.web.versions import MAX_PAGE

__all__ = [
    "ApiError",
    "Envelope",
    "MatchCandidate",
    "MatchRequest",
    "QueryAnswer",
    "QueryPackage",
    "QueryRecord",
    "QueryRelease",
    "QueryRequest",
    "RepoDetail",
    "RepoList",
    "RepoSummary",
    "ScanRef",
    "SearchHitModel",
    "SearchPage",
]


class ApiError(BaseModel):
    """Every error the API answers with (4xx, 5xx): a message meant for a person."""

    detail: str


class Envelope(BaseModel):
    """A record as schema 2 has it, errdex's evidence beside it, and the dataset's build time."""

    record: ErrorRecord
    evidence: dict[str, Any]
    datasetVersion: str


class SearchHitModel(BaseModel):
    id: str
    repo: str
    slug: str
    errorClass: str | None
    errorType: str
    severity: str
    filePath: str
    lineNumber: int
    errorMessage: str
    score: float | None = Field(description="Relevance, higher is better; null when listing.")
    url: str = Field(description="The error's page.")
    api: str = Field(description="The error's JSON.")


class SearchPage(BaseModel):
    items: list[SearchHitModel]
    nextCursor: str | None = Field(description="Pass as `cursor` for the next page.")


class MatchRequest(BaseModel):
    model_config = ConfigDict(extra="forbid")

    text: str = Field(
        min_length=1,
        description="A message, traceback, pytest or notebook output, as pasted.",
    )
    top: int = Field(default=5, ge=1, le=20, description="How many candidates to return.")


class MatchCandidate(BaseModel):
    """One ranked record, as ``errdex match --json`` prints it."""

    id: str
    repo: str
    filePath: str
    lineNumber: int
    errorClass: str | None
    errorMessage: str
    confidence: float = Field(ge=0, le=1)
    holes: dict[str, str] = Field(description="The value that filled each hole of the message.")
    reasons: list[str]
    error: int = Field(
        description="Which error of the paste this candidate answers, from 0 (one per pytest "
        "failure, or per traceback with its chain)."
    )
    pasted: str = Field(description="That error as pasted: `Class: first line of the message`.")
    group: int | None = Field(
        description="0 when this is one of the sites the paste cannot tell apart (the text "
        "fits them equally well; they share the confidence), else null."
    )
    groupSize: int = Field(ge=1, description="How many sites that group holds (1: none).")
    ruledOut: bool = Field(
        default=False,
        description="The paste's traceback shows this site did not raise the error: its "
        "innermost frame is another function's line that raises nothing itself.",
    )
    groupReason: str | None = Field(
        default=None,
        description="Why the group cannot be decided even among the catalogued sites: the "
        "interpreter's own lookups print the same message (`KeyError: 'foo'`), so the paste "
        "may come from none of them; null otherwise. `errdex match` exits 4 when only such "
        "groups answer.",
    )


class ScanRef(BaseModel):
    commit: str | None
    ref: str | None
    version: str | None
    origin: str
    scannedAt: str
    datasetVersion: str


class RepoSummary(BaseModel):
    repo: str
    records: int = Field(description="Current records (raised by the latest scanned version).")
    stale: int = Field(description="Records older versions raised and the latest does not.")
    files: int
    commits: list[str] = Field(description="Scanned commits (else tags), newest first.")
    latest: ScanRef | None
    url: str
    api: str
    dataset: str


class RepoList(BaseModel):
    repos: list[RepoSummary]


class RepoDetail(RepoSummary):
    byClass: dict[str, int]
    byType: dict[str, int]
    bySeverity: dict[str, int]


class QueryPackage(BaseModel):
    """OSV's ``package``: the name users install it by (or ``owner/name``)."""

    name: str = Field(min_length=1, max_length=200)
    ecosystem: str | None = Field(default=None, max_length=50, description="Ignored (PyPI).")


class QueryRequest(BaseModel):
    """OSV's query body: a package and a version (or a commit)."""

    package: QueryPackage
    version: str | None = Field(default=None, min_length=1, max_length=100)
    commit: str | None = Field(default=None, min_length=7, max_length=40, pattern=r"^[0-9a-fA-F]+$")
    page_token: str | None = Field(
        default=None, max_length=64, description="A previous answer's `next_page_token`."
    )
    limit: int = Field(default=MAX_PAGE, ge=1, le=MAX_PAGE, description="Records per page.")


class QueryRecord(BaseModel):
    """One record of the release asked for, at its file and line in that release."""

    id: str
    slug: str
    errorClass: str | None
    errorMessage: str
    filePath: str
    lineNumber: int
    stale: bool = Field(description="The newest catalogued release no longer raises it.")
    url: str = Field(description="The error's page.")
    api: str = Field(description="The error's JSON.")


class QueryRelease(BaseModel):
    repo: str
    release: str = Field(description="The catalogued release that matched.")
    commit: str | None
    records: list[QueryRecord]


class QueryAnswer(BaseModel):
    package: QueryPackage
    version: str | None
    commit: str | None
    results: list[QueryRelease] = Field(description="One entry per repository the name finds.")
    next_page_token: str | None = Field(
        default=None, description="Pass it as `page_token` for the next page; null on the last."
    )
