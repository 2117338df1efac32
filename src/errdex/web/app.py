"""The web app: pages and JSON API over one errdex SQLite file.

:func:`create_app` checks the file (opening it as a store validates or migrates it),
brings the search index up to date before the first request, then polls the store's
write counters every few seconds: a scan running beside the server shows up in search
and counts without a restart, and no request ever rebuilds anything.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from collections.abc import AsyncIterator
from pathlib import Path

from fastapi import FastAPI, Request
from fastapi.exceptions import RequestValidationError
from fastapi.responses import FileResponse, JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException as StarletteHTTPException

from errdex import __version__
from errdex.store import is_server_url, open_store
from errdex.web.agents import agents_router
from errdex.web.api import api_router
from errdex.web.apidocs import reference
from errdex.web.catalogue import Catalogue
from errdex.web.middleware import CatchErrors, DeclaredBodyLimit, HeadAsGet
from errdex.web.pages import pages_router
from errdex.web.search import SearchUnavailable
from errdex.web.settings import DEFAULT_ISSUES_URL, MAX_MATCH_BYTES, POLL_SECONDS
from errdex.web.state import WebState
from errdex.web.validation import validation_detail, validation_text

__all__ = ["create_app"]

log = logging.getLogger("errdex.web")

_STATIC = Path(__file__).parent / "static"
_JSON_PREFIXES = ("/api/", "/datasets/", "/openapi.json")
_TITLES = {
    400: "Bad request",
    404: "Not found",
    405: "Method not allowed",
    413: "Too large",
    422: "Bad request",
    503: "Unavailable",
}


def _wants_json(request: Request) -> bool:
    return request.url.path.startswith(_JSON_PREFIXES)


def refresh_search(state: WebState) -> None:
    """Re-index what scans changed; runs on a worker thread with its own connection."""
    with open_store(state.db_path) as store:
        try:
            if store.refresh_search():
                log.info("search index refreshed")
            state.search_problem = None
        except SearchUnavailable as exc:
            state.search_problem = f"search is unavailable: {exc}"
            log.warning(state.search_problem)


async def _poll(state: WebState, seconds: float) -> None:
    """Notice writes to the store; re-index until a refresh after them has succeeded."""
    behind = False
    while True:
        await asyncio.sleep(seconds)
        try:
            behind = state.catalogue.note_version() or behind
            if behind:
                await asyncio.to_thread(refresh_search, state)
                behind = False
        except Exception:  # keep serving what we have; the next poll tries again
            log.exception("could not refresh from %s", state.db_path)


def create_app(
    db: str | Path,
    *,
    issues_url: str = DEFAULT_ISSUES_URL,
    poll_seconds: float = POLL_SECONDS,
    base_url: str | None = None,
) -> FastAPI:
    """The app for the catalogue at ``db`` (which must exist: serving never creates one);
    ``base_url`` is the public address absolute URLs use (else each request's)."""
    path = str(db)
    if not is_server_url(path) and not Path(path).is_file():
        raise FileNotFoundError(f"no errdex database at {path}: run `errdex scan` first")
    open_store(path).close()  # refuse a foreign file now, not on the first request
    state = WebState(db_path=path, catalogue=Catalogue(path), issues_url=issues_url)

    @contextlib.asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        await asyncio.to_thread(refresh_search, state)
        state.catalogue.note_version()
        poller = asyncio.create_task(_poll(state, poll_seconds))
        try:
            yield
        finally:
            poller.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await poller
            state.catalogue.close()

    app = FastAPI(
        title="errdex",
        version=__version__,
        summary="Every error a library can raise, one record per raise site.",
        lifespan=lifespan,
        docs_url=None,  # our own page below: Swagger UI's script comes from a CDN
        redoc_url=None,
    )
    app.state.web = state

    def too_large(request: Request) -> Response:
        detail = f"request bodies are limited to {MAX_MATCH_BYTES} bytes"
        if _wants_json(request):
            return JSONResponse({"detail": detail}, 413)
        return _problem(state, 413, detail)

    app.add_middleware(DeclaredBodyLimit, limit=MAX_MATCH_BYTES, refuse=too_large)
    app.include_router(api_router(state))
    app.include_router(pages_router(state))
    app.include_router(agents_router(state, base_url))
    app.mount("/static", StaticFiles(directory=_STATIC), name="static")

    @app.get("/api/docs", include_in_schema=False)
    def api_docs(request: Request) -> Response:
        document = app.openapi()
        operations, schemas = reference(document, str(request.base_url).rstrip("/"))
        context = {
            "title": app.title,
            "version": app.version,
            "summary": app.summary or "",
            "openapi_version": document.get("openapi", ""),
            "operations": operations,
            "schemas": schemas,
        }
        return state.templates.render("apidocs.html", context)

    @app.get("/favicon.ico", include_in_schema=False)
    def favicon() -> FileResponse:
        """Browsers ask for it on every page that names none (JSON, the docs)."""
        return FileResponse(_STATIC / "favicon.svg", media_type="image/svg+xml")

    @app.exception_handler(StarletteHTTPException)
    async def http_error(request: Request, exc: StarletteHTTPException) -> Response:
        if _wants_json(request):
            return JSONResponse({"detail": exc.detail}, exc.status_code, headers=exc.headers)
        return _problem(state, exc.status_code, str(exc.detail))

    @app.exception_handler(RequestValidationError)
    async def bad_request(request: Request, exc: RequestValidationError) -> Response:
        if _wants_json(request):
            return JSONResponse({"detail": validation_detail(exc.errors())}, 422)
        return _problem(state, 422, validation_text(exc.errors()))

    def server_error(request: Request) -> Response:
        if _wants_json(request):
            return JSONResponse({"detail": "internal error; see the server log"}, 500)
        return _problem(state, 500, "Something went wrong on our side.")

    # The last added is outermost: HEAD runs as GET through everything, a 500 included.
    app.add_middleware(CatchErrors, answer=server_error)
    app.add_middleware(HeadAsGet)
    return app


def _problem(state: WebState, status: int, detail: str) -> Response:
    heading = _TITLES.get(status, "Error")
    return state.templates.render(
        "problem.html", {"status": status, "heading": heading, "detail": detail}, status
    )
