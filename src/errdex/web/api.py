"""The JSON API: records, search, match, repositories and datasets.

``/api/errors/{id}`` answers with the stored JSON joined as bytes (never re-parsed),
so its record keys are in seed 000's order and the call costs one indexed lookup, plus
three for the releases spliced into its evidence (``evidence.versions``: scans,
versions, windows).
Every error is ``{"detail": "..."}`` with its status, as :class:`ApiError` declares.
"""

from __future__ import annotations

import base64
import binascii
import json
from typing import Annotated, Any

from fastapi import APIRouter, HTTPException, Path, Query
from fastapi.responses import Response, StreamingResponse

from errdex.web.catalogue import RepoInfo
from errdex.web.models import (
    ApiError,
    Envelope,
    MatchCandidate,
    MatchRequest,
    QueryAnswer,
    QueryPackage,
    QueryRequest,
    RepoDetail,
    RepoList,
    SearchHitModel,
    SearchPage,
)
from errdex.web.search import MAX_OFFSET, SearchHit, SearchQuery, SearchUnavailable
from errdex.web.settings import MAX_MATCH_BYTES
from errdex.web.state import WebState
from errdex.web.versions import (
    MAX_PAGE,
    ReleaseRecords,
    package_repos,
    record_versions,
    release_records,
)
from errdex.web.views import api_path, attachment, record_path, repo_path

__all__ = [
    "MAX_QUERY",
    "api_router",
    "decode_cursor",
    "decode_page_token",
    "encode_cursor",
    "encode_page_token",
    "query_answer",
    "run_search",
    "with_versions",
]

#: Longest search text accepted: a long message fits, a whole log does not.
MAX_QUERY = 4000
RECORD_ID = r"^[0-9a-f]{16}$"
NAME = r"^[^/\s]+$"

_NOT_FOUND: dict[int | str, dict[str, Any]] = {
    404: {"model": ApiError, "description": "No such record or repository."}
}


def encode_cursor(offset: int) -> str:
    return base64.urlsafe_b64encode(f"o{offset}".encode()).decode().rstrip("=")


def decode_cursor(cursor: str) -> int:
    """The offset a cursor stands for; ValueError for anything this API did not hand out."""
    try:
        text = base64.urlsafe_b64decode(cursor + "=" * (-len(cursor) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise ValueError("not a cursor from this API") from exc
    if not text.startswith("o") or not text[1:].isdigit() or int(text[1:]) > MAX_OFFSET:
        raise ValueError("not a cursor from this API")
    return int(text[1:])


def encode_page_token(repo_index: int, offset: int) -> str:
    """Where the next page of ``/api/query`` starts: which of the package's repositories
    (in the answer's order) and how far into its records."""
    return base64.urlsafe_b64encode(f"q{repo_index}.{offset}".encode()).decode().rstrip("=")


def decode_page_token(token: str) -> tuple[int, int]:
    """``(repository index, offset)`` of a token; ValueError for one this API did not give."""
    try:
        text = base64.urlsafe_b64decode(token + "=" * (-len(token) % 4)).decode()
    except (binascii.Error, UnicodeDecodeError) as exc:
        raise ValueError("not a page token from this API") from exc
    index, dot, offset = text[1:].partition(".")
    if not text.startswith("q") or not dot or not index.isdigit() or not offset.isdigit():
        raise ValueError("not a page token from this API")
    return int(index), int(offset)


def run_search(state: WebState, query: SearchQuery) -> tuple[list[SearchHit], bool]:
    """Search, turning a missing index into 503 (a read-only catalogue never indexed)."""
    try:
        return state.catalogue.search(query)
    except SearchUnavailable as exc:
        raise HTTPException(503, state.search_problem or str(exc)) from exc


def _blank(value: str | None) -> str | None:
    """``?repo=`` means no filter, as in a form submitted with an empty field."""
    return value if value else None


_DATASET_KEY = b',"datasetVersion":'


def with_versions(body: bytes, versions: dict[str, Any] | None) -> bytes:
    """The envelope ``body`` with ``evidence.versions`` spliced in, still not re-parsed:
    the evidence object ends just before the envelope's last key, ``datasetVersion``."""
    at = body.rfind(_DATASET_KEY)
    if versions is None or at < 2 or body[at - 1 : at] != b"}":
        return body
    joint = b"" if body[at - 2 : at - 1] == b"{" else b","
    spliced = json.dumps(versions, ensure_ascii=False, separators=(",", ":")).encode()
    return body[: at - 1] + joint + b'"versions":' + spliced + b"}" + body[at:]


def query_answer(
    state: WebState,
    package: QueryPackage,
    version: str | None,
    commit: str | None,
    *,
    limit: int = MAX_PAGE,
    page_token: str | None = None,
) -> dict[str, Any]:
    """The OSV-like query: one page of the records ``package`` holds at ``version`` (or
    ``commit``), and ``next_page_token`` when more follow (as OSV's API pages)."""
    if not version and not commit:
        raise HTTPException(400, "give the package's version (or a commit) to query")
    try:
        start, offset = decode_page_token(page_token) if page_token else (0, 0)
    except ValueError as exc:
        raise HTTPException(400, f"bad page_token: {exc}") from exc
    store = state.catalogue.reader()
    repos = package_repos(store, package.name)
    if not repos:
        raise HTTPException(404, f"no package or repository {package.name!r} in this catalogue")
    results: list[dict[str, Any]] = []
    known: list[str] = []
    following: str | None = None
    room = limit
    for index in range(start, len(repos)):
        repo = repos[index]
        if room == 0:
            following = encode_page_token(index, 0)
            break
        skip = offset if index == start else 0
        found = release_records(store, repo, version, commit, limit=room, offset=skip)
        if not isinstance(found, ReleaseRecords):
            known += [f"{repo} {label}" for label in found]
            continue
        results.append(_release_json(repo, found))
        room -= len(found.records)
        if found.more:
            following = encode_page_token(index, skip + len(found.records))
            break
    if not results and page_token is None:
        asked = f"version {version}" if version else f"commit {commit}"
        shown = ", ".join(known[-12:]) or "none"
        raise HTTPException(
            404, f"{package.name} has no catalogued release at {asked}; catalogued: {shown}"
        )
    return {
        "package": package,
        "version": version,
        "commit": commit,
        "results": results,
        "next_page_token": following,
    }


def _release_json(repo: str, found: ReleaseRecords) -> dict[str, Any]:
    return {
        "repo": repo,
        "release": found.release.label,
        "commit": found.release.commit,
        "records": [
            {
                **item,
                "url": record_path(repo, item["id"], item["slug"]),
                "api": api_path(item["id"]),
            }
            for item in found.records
        ],
    }


def repo_summary(info: RepoInfo) -> dict[str, Any]:
    owner, _, name = info.repo.partition("/")
    return {
        "repo": info.repo,
        "records": info.records,
        "stale": info.stale,
        "files": info.files,
        "commits": info.commits,
        "latest": info.latest,
        "url": repo_path(info.repo),
        "api": f"/api/repos/{info.repo}",
        "dataset": f"/datasets/{owner}/{name}.jsonl",
    }


def api_router(state: WebState) -> APIRouter:
    router = APIRouter()
    catalogue = state.catalogue

    @router.get(
        "/api/errors/{record_id}",
        tags=["errors"],
        summary="One record: the schema-2 record, errdex's evidence and the dataset version",
        response_model=None,
        responses={200: {"model": Envelope, "description": "The envelope."}, **_NOT_FOUND},
    )
    async def get_error(
        record_id: Annotated[str, Path(pattern=RECORD_ID, description="16 hex digits.")],
    ) -> Response:
        body = catalogue.raw_envelope(record_id)
        if body is None:
            raise HTTPException(404, f"no error record {record_id}")
        versions = record_versions(catalogue.reader(), record_id)
        return Response(
            with_versions(body, dict(versions) if versions else None), media_type="application/json"
        )

    @router.get(
        "/api/query",
        tags=["errors"],
        summary="The records a package holds at one version (OSV-like)",
        description=(
            "`package` is the name it is installed by (or the repository `owner/name`); "
            "`version` a catalogued release (equal as PEP 440 versions), or `commit` a "
            "scanned commit (7 to 40 hex digits). Each record is at its file and line in "
            f"that release. Answers come in pages of `limit` records (at most {MAX_PAGE}); "
            "`next_page_token`, when there is one, is passed back as `page_token` (or "
            "`cursor`) for the next page."
        ),
        response_model=QueryAnswer,
        responses={400: {"model": ApiError}, **_NOT_FOUND},
    )
    def api_query(
        package: Annotated[str, Query(min_length=1, max_length=200)],
        version: Annotated[str | None, Query(min_length=1, max_length=100)] = None,
        commit: Annotated[
            str | None, Query(min_length=7, max_length=40, pattern=r"^[0-9a-fA-F]+$")
        ] = None,
        limit: Annotated[int, Query(ge=1, le=MAX_PAGE)] = MAX_PAGE,
        page_token: Annotated[str | None, Query(max_length=64)] = None,
        cursor: Annotated[str | None, Query(max_length=64)] = None,
    ) -> dict[str, Any]:
        if page_token and cursor and page_token != cursor:
            raise HTTPException(400, "give the page token once (page_token or cursor)")
        token = page_token or cursor
        return query_answer(
            state, QueryPackage(name=package), version, commit, limit=limit, page_token=token
        )

    @router.post(
        "/api/query",
        tags=["errors"],
        summary="The records a package holds at one version, with OSV's query body",
        description=(
            '`{"package": {"name": "attrs"}, "version": "25.4.0"}`, as OSV takes it; '
            "`page_token` asks for the page a previous answer's `next_page_token` named."
        ),
        response_model=QueryAnswer,
        responses={400: {"model": ApiError}, **_NOT_FOUND},
    )
    def api_query_post(body: QueryRequest) -> dict[str, Any]:
        return query_answer(
            state,
            body.package,
            body.version,
            body.commit,
            limit=body.limit,
            page_token=body.page_token,
        )

    @router.get(
        "/api/search",
        tags=["errors"],
        summary="Full-text search over message, class, file and tags",
        description=(
            "Words must all occur (when none has them all, any may); `word*` is a prefix, "
            "and so is a last word of three letters or more. A pasted runtime message "
            "ranks its own record first. Without `q`, records are listed in file order. "
            f"Pages go up to offset {MAX_OFFSET}."
        ),
        response_model=SearchPage,
        responses={400: {"model": ApiError}, 503: {"model": ApiError}},
    )
    def api_search(
        q: Annotated[str, Query(max_length=MAX_QUERY)] = "",
        repo: Annotated[str | None, Query(max_length=200)] = None,
        error_class: Annotated[str | None, Query(alias="class", max_length=200)] = None,
        limit: Annotated[int, Query(ge=1, le=100)] = 20,
        cursor: Annotated[str | None, Query(max_length=64)] = None,
    ) -> SearchPage:
        try:
            offset = decode_cursor(cursor) if cursor else 0
        except ValueError as exc:
            raise HTTPException(400, f"bad cursor: {exc}") from exc
        query = SearchQuery(q, _blank(repo), _blank(error_class), limit, offset)
        hits, more = run_search(state, query)
        items = [
            SearchHitModel(
                **hit.to_json(),
                url=record_path(hit.repo, hit.id, hit.slug),
                api=api_path(hit.id),
            )
            for hit in hits
        ]
        following = offset + limit
        return SearchPage(
            items=items,
            nextCursor=encode_cursor(following) if more and following <= MAX_OFFSET else None,
        )

    @router.post(
        "/api/match",
        tags=["match"],
        summary="From a pasted message or traceback to the records that raised it",
        description=(
            "The same answer as `errdex match --json`: candidates best first, each with a "
            f"confidence, its hole values and the reasons. Bodies over {MAX_MATCH_BYTES} "
            "bytes are refused with 413."
        ),
        response_model=list[MatchCandidate],
        responses={413: {"model": ApiError, "description": "Body too large."}},
        max_body_size=MAX_MATCH_BYTES,
    )
    def api_match(body: MatchRequest) -> list[dict[str, Any]]:
        from errdex.match import match as match_paste

        return [c.to_json() for c in match_paste(body.text, state.db_path, top=body.top)]

    @router.get(
        "/api/repos",
        tags=["repos"],
        summary="Every repository in the catalogue with its counts",
        response_model=RepoList,
    )
    def api_repos() -> dict[str, Any]:
        return {"repos": [repo_summary(info) for info in catalogue.repos()]}

    @router.get(
        "/api/repos/{owner}/{name}",
        tags=["repos"],
        summary="One repository: counts by class, type and severity, scanned versions",
        response_model=RepoDetail,
        responses=_NOT_FOUND,
    )
    def api_repo(
        owner: Annotated[str, Path(pattern=NAME)], name: Annotated[str, Path(pattern=NAME)]
    ) -> dict[str, Any]:
        info = catalogue.repo(f"{owner}/{name}")
        if info is None:
            raise HTTPException(404, f"no repository {owner}/{name} in this catalogue")
        return {
            **repo_summary(info),
            "byClass": info.byClass,
            "byType": info.byType,
            "bySeverity": info.bySeverity,
        }

    @router.get(
        "/datasets/{owner}/{name}.jsonl",
        tags=["repos"],
        summary="A repository's current records, one envelope per line",
        response_class=StreamingResponse,
        responses={
            200: {
                "content": {"application/x-ndjson": {"schema": {"type": "string"}}},
                "description": "JSON lines, as `errdex export --jsonl` writes them.",
            },
            **_NOT_FOUND,
        },
    )
    def dataset(
        owner: Annotated[str, Path(pattern=NAME)], name: Annotated[str, Path(pattern=NAME)]
    ) -> StreamingResponse:
        repo = f"{owner}/{name}"
        if catalogue.repo(repo) is None:
            raise HTTPException(404, f"no repository {repo} in this catalogue")
        return StreamingResponse(
            catalogue.dataset_lines(repo),
            media_type="application/x-ndjson",
            headers={"Content-Disposition": attachment(f"{owner}-{name}.jsonl")},
        )

    return router
