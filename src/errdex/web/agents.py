"""What the site says to machines: ``/llms.txt`` for agents, ``/sitemap.xml`` and
``/robots.txt`` for crawlers.

Absolute URLs need the site's public address: ``errdex serve --base-url`` when given
(a server behind a proxy sees its own loopback address), else the request's. A
catalogue with more URLs than one sitemap may hold (50,000, sitemaps.org) gets a
sitemap index at ``/sitemap.xml`` whose pages are ``/sitemaps/N.xml``.
"""

from __future__ import annotations

from collections.abc import Iterator
from typing import Annotated
from xml.sax.saxutils import escape

from fastapi import APIRouter, HTTPException, Path, Request
from fastapi.responses import PlainTextResponse, Response

from errdex.web.settings import MAX_MATCH_BYTES
from errdex.web.state import WebState
from errdex.web.views import record_path, repo_path

__all__ = ["SITEMAP_URLS", "agents_router"]

#: Most URLs one sitemap file may list (sitemaps.org); a module setting so tests can lower it.
SITEMAP_URLS = 50_000

_SITEMAP_NS = "http://www.sitemaps.org/schemas/sitemap/0.9"


def agents_router(state: WebState, base_url: str | None = None) -> APIRouter:
    """The routes; ``base_url`` (``https://errors.example.org``) overrides the request's."""
    router = APIRouter(include_in_schema=False)
    catalogue = state.catalogue

    def base(request: Request) -> str:
        return (base_url or str(request.base_url)).rstrip("/")

    def fixed_urls() -> list[str]:
        """The home page, then every repository's page."""
        return ["/", *(repo_path(info.repo) for info in catalogue.repos())]

    def total_urls() -> int:
        return len(fixed_urls()) + sum(info.records for info in catalogue.repos())

    def page_urls(page: int) -> Iterator[str]:
        """The paths of sitemap page ``page`` (from 0): fixed pages first, then records."""
        start, size = page * SITEMAP_URLS, SITEMAP_URLS
        fixed = fixed_urls()
        yield from fixed[start : start + size]
        shown = max(0, min(len(fixed) - start, size))
        offset = max(0, start - len(fixed))
        for repo, record_id, slug in catalogue.record_links(size - shown, offset):
            yield record_path(repo, record_id, slug)

    def pages() -> int:
        return max(1, -(-total_urls() // SITEMAP_URLS))

    def urlset(root: str, paths: Iterator[str]) -> Response:
        body = [f'<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="{_SITEMAP_NS}">\n']
        body += [f"<url><loc>{escape(root + path)}</loc></url>\n" for path in paths]
        body.append("</urlset>\n")
        return Response("".join(body), media_type="application/xml")

    @router.get("/sitemap.xml")
    def sitemap(request: Request) -> Response:
        root = base(request)
        count = pages()
        if count == 1:
            return urlset(root, page_urls(0))
        body = [f'<?xml version="1.0" encoding="UTF-8"?>\n<sitemapindex xmlns="{_SITEMAP_NS}">\n']
        body += [
            f"<sitemap><loc>{escape(f'{root}/sitemaps/{n}.xml')}</loc></sitemap>\n"
            for n in range(1, count + 1)
        ]
        body.append("</sitemapindex>\n")
        return Response("".join(body), media_type="application/xml")

    @router.get("/sitemaps/{number}.xml")
    def sitemap_page(request: Request, number: Annotated[int, Path(ge=1)]) -> Response:
        if number > pages():
            raise HTTPException(404, f"no sitemap page {number}")
        return urlset(base(request), page_urls(number - 1))

    @router.get("/robots.txt")
    def robots(request: Request) -> PlainTextResponse:
        lines = [
            "User-agent: *",
            "Disallow: /search",  # endless query pages; the sitemap lists every record
            "Disallow: /datasets/",  # whole catalogues, for tools rather than crawlers
            "Allow: /",
            "",
            f"Sitemap: {base(request)}/sitemap.xml",
        ]
        return PlainTextResponse("\n".join(lines) + "\n")

    @router.get("/llms.txt")
    def llms(request: Request) -> PlainTextResponse:
        example = next(iter(catalogue.record_links(1, 0)), None)
        return PlainTextResponse(
            llms_text(base(request), example), media_type="text/markdown; charset=utf-8"
        )

    return router


def llms_text(root: str, example: tuple[str, str, str] | None) -> str:
    """The llms.txt document (llmstxt.org): what errdex is, the API with one example
    each (a real record of this catalogue when it has one), the record envelope."""
    repo, record_id, slug = example or ("OWNER/NAME", "0123456789abcdef", "SLUG")
    owner, _, name = repo.partition("/")
    return f"""# errdex

> A catalogue of every error a code base can raise: one record per raise, warn or assert
> site, with its message template, class, the condition that fires it, what it means and
> how to fix it, and the way back from a pasted traceback to the line that raised it.

This site serves one errdex catalogue as pages for people and as a JSON API for tools.
Every record has a stable id (16 hex digits) and a canonical page,
`/repos/OWNER/NAME/errors/ID/SLUG`. To find the raise site of an error you hit,
POST the traceback (or pytest or notebook output, or the bare message) to `/api/match`.
Agents with MCP can run `errdex mcp --db FILE` locally instead (tools search_error,
get_error, list_repos, match_traceback, explain_error).

## API

- [Match a paste]({root}/api/match): `POST`, JSON body `{{"text": "...", "top": 5}}` (at most
  {MAX_MATCH_BYTES} bytes); returns candidates best first, each with `confidence`, `holes` (the
  values that filled the message's placeholders) and `reasons`. Example:
  `curl -s -X POST {root}/api/match -H 'content-type: application/json' -d '{{"text": "ValueError: size 12 is too large"}}'`
- [Search]({root}/api/search?q=too+large): full-text search over message, class, file and tags;
  `q`, `repo`, `class`, `limit` (1-100), `cursor` (from `nextCursor`). Example:
  `{root}/api/search?q=too+large&repo={repo}`
- [One record]({root}/api/errors/{record_id}): the record envelope below. Example:
  `{root}/api/errors/{record_id}`
- [Repositories]({root}/api/repos): every repository with its counts and latest scan. Example:
  `{root}/api/repos`
- [One repository]({root}/api/repos/{repo}): counts by class, type and severity. Example:
  `{root}/api/repos/{repo}`
- [A repository's dataset]({root}/datasets/{owner}/{name}.jsonl): every current record, one
  envelope per line (JSON lines). Example: `{root}/datasets/{owner}/{name}.jsonl`

## Record envelope

`GET /api/errors/ID` returns `{{"record": {{...}}, "evidence": {{...}}, "datasetVersion": "..."}}`:

- `record`: the schema-2 record: `id`, `repo`, `slug`, `errorMessage` (the template, with
  `{{name}}` holes), `messagePattern` (a regular expression for runtime messages), `errorClass`,
  `errorType`, `severity`, `filePath`, `lineNumber`, `githubUrl`, `sourceCode`,
  `documentation`, `triggerScenarios`, `solutions`, `exampleFix`, `tags`.
- `evidence`: how errdex knows: the site (its guards, the conditions that raise), related
  records, the tests that exercise it, the analyst that wrote the prose.
- `datasetVersion`: when the scan that wrote the record finished.

An example page: {root}{record_path(repo, record_id, slug)}

## Optional

- [OpenAPI document]({root}/openapi.json): every endpoint and schema.
- [API reference]({root}/api/docs)
- [Sitemap]({root}/sitemap.xml): every error page.
"""
