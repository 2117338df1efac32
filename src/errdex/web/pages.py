"""The HTML pages: home, search, repository, error and match; no JavaScript anywhere.

Forms use GET (search, filters: shareable URLs) or POST (a pasted traceback is too big
for a URL). An error page lives at ``/repos/<owner>/<name>/errors/<id>/<slug>``; any
other spelling of it (old slug, short ``/errors/<id>``) redirects there.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Annotated, Any
from urllib.parse import urlencode

from fastapi import APIRouter, Form, HTTPException, Query, Request
from fastapi.responses import HTMLResponse, RedirectResponse, Response

from errdex.web.api import MAX_QUERY, run_search
from errdex.web.catalogue import ErrorFilters
from errdex.web.search import MAX_OFFSET, SearchHit, SearchQuery
from errdex.web.settings import MAX_MATCH_BYTES
from errdex.web.state import WebState
from errdex.web.versions import record_versions
from errdex.web.views import cut, error_view, pin_text, record_path, repo_path

if TYPE_CHECKING:
    from errdex.match.rank import Candidate

__all__ = ["PAGE_SIZE", "pages_router"]

#: Errors per page on search and repository pages.
PAGE_SIZE = 50
_LAST_PAGE = MAX_OFFSET // PAGE_SIZE + 1

Page = Annotated[int, Query(ge=1, le=_LAST_PAGE)]


def _page_urls(base: str, params: dict[str, Any], page: int, more: bool) -> dict[str, str | None]:
    """Previous and next links that keep the filters (empty ones dropped)."""
    kept = {k: v for k, v in params.items() if v}

    def url(n: int) -> str:
        query = urlencode({**kept, **({"page": n} if n > 1 else {})})
        return f"{base}?{query}" if query else base

    return {
        "prev_url": url(page - 1) if page > 1 else None,
        "next_url": url(page + 1) if more and page < _LAST_PAGE else None,
    }


def _hit_view(hit: SearchHit | dict[str, Any], repo: str | None = None) -> dict[str, Any]:
    data = hit.to_json() if isinstance(hit, SearchHit) else dict(hit)
    data.setdefault("repo", repo)
    data["url"] = record_path(data["repo"], data["id"], data["slug"])
    data["title"] = cut(data["errorMessage"] or "(no message)")
    return data


def pages_router(state: WebState) -> APIRouter:
    router = APIRouter(include_in_schema=False)
    catalogue, templates = state.catalogue, state.templates

    def not_found(what: str) -> HTTPException:
        return HTTPException(404, what)

    @router.get("/")
    def home() -> HTMLResponse:
        repos = [
            {
                "repo": info.repo,
                "url": repo_path(info.repo),
                "records": info.records,
                "version": (info.latest or {}).get("version"),
                "pin": pin_text(info.commits[0] if info.commits else None),
            }
            for info in catalogue.repos()
        ]
        return templates.render("home.html", {"repos": repos})

    @router.get("/search")
    def search_page(
        q: Annotated[str, Query(max_length=MAX_QUERY)] = "",
        repo: Annotated[str | None, Query(max_length=200)] = None,
        error_class: Annotated[str | None, Query(alias="class", max_length=200)] = None,
        page: Page = 1,
    ) -> HTMLResponse:
        context: dict[str, Any] = {"q": q, "quick_q": q, "repo": repo, "error_class": error_class}
        hits: list[dict[str, Any]] = []
        more = False
        if q.strip() or repo or error_class:
            offset = (page - 1) * PAGE_SIZE
            found, more = run_search(
                state, SearchQuery(q, repo or None, error_class or None, PAGE_SIZE, offset)
            )
            hits = [_hit_view(h) for h in found]
        params = {"q": q, "repo": repo, "class": error_class}
        context.update(hits=hits, first=(page - 1) * PAGE_SIZE + 1)
        context.update(_page_urls("/search", params, page, more))
        return templates.render("search.html", context)

    @router.get("/repos/{owner}/{name}")
    def repo_page(
        owner: str,
        name: str,
        error_class: Annotated[str | None, Query(alias="class", max_length=200)] = None,
        error_type: Annotated[str | None, Query(alias="type", max_length=50)] = None,
        severity: Annotated[str | None, Query(max_length=50)] = None,
        file: Annotated[str | None, Query(max_length=500)] = None,
        page: Page = 1,
    ) -> HTMLResponse:
        repo = f"{owner}/{name}"
        info = catalogue.repo(repo)
        if info is None:
            raise not_found(f"No repository {repo} in this catalogue.")
        filters = ErrorFilters(
            error_class or None, error_type or None, severity or None, file or None
        )
        offset = (page - 1) * PAGE_SIZE
        rows, total = catalogue.repo_errors(repo, filters, PAGE_SIZE, offset)
        base = repo_path(repo)
        params = {"class": error_class, "type": error_type, "severity": severity, "file": file}
        context: dict[str, Any] = {
            "info": info,
            "url": base,
            "api": f"/api/repos/{repo}",
            "dataset": f"/datasets/{owner}/{name}.jsonl",
            "pin": pin_text(info.commits[0] if info.commits else None),
            "filters": filters,
            "hits": [_hit_view(row, repo) for row in rows],
            "total": total,
            "first": offset + 1,
        }
        context.update(_page_urls(base, params, page, offset + len(rows) < total))
        return templates.render("repo.html", context)

    @router.get("/repos/{owner}/{name}/errors/{record_id}/{slug}")
    async def error_page(
        request: Request, owner: str, name: str, record_id: str, slug: str
    ) -> Response:
        page = catalogue.page(record_id)
        if page is None:
            raise not_found(f"No error {record_id} in this catalogue.")
        record = page.record
        if record["repo"] != f"{owner}/{name}" or record["slug"] != slug:
            return RedirectResponse(record_path(record["repo"], record_id, record["slug"]), 301)
        versions = record_versions(catalogue.reader(), record_id, record["repo"])
        view = error_view(page, state.issues_url, str(request.base_url), dict(versions or {}))
        return templates.render(
            "record.html", {"view": view, "repo_url": repo_path(record["repo"])}
        )

    @router.get("/repos/{owner}/{name}/errors/{record_id}")
    @router.get("/errors/{record_id}")
    async def error_short(record_id: str) -> RedirectResponse:
        """Short and partial links to an error go to its one canonical URL."""
        found = catalogue.locate(record_id)
        if found is None:
            raise not_found(f"No error {record_id} in this catalogue.")
        return RedirectResponse(record_path(found[0], record_id, found[1]), 301)

    @router.get("/match")
    def match_form() -> HTMLResponse:
        return templates.render("match.html", {"text": "", "answers": []})

    @router.post("/match", max_body_size=MAX_MATCH_BYTES)
    def match_page(text: Annotated[str, Form()] = "") -> HTMLResponse:
        from errdex.match.api import answers as answers_for
        from errdex.match.rank import FOLD_BELOW

        def shown(candidate: Candidate) -> dict[str, Any]:
            data = candidate.to_json()
            found = catalogue.locate(data["id"])
            slug = found[1] if found else "error"
            data["url"] = record_path(data["repo"], data["id"], slug)
            data["title"] = cut(data["errorMessage"] or "(no message)")
            data["folded"] = candidate.folded and not candidate.groupReason  # a group: whole
            return data

        answers: list[dict[str, Any]] = []
        if text.strip():
            for answer in answers_for(text, state.db_path, top=5):
                answers.append(
                    {
                        **answer.to_json(),
                        "pasted": answer.pasted,
                        "candidates": [shown(c) for c in answer.candidates],
                        "ruledOut": [shown(c) for c in answer.ruled_out],
                    }
                )
        return templates.render(
            "match.html", {"text": text, "answers": answers, "fold_below": FOLD_BELOW}
        )

    return router
