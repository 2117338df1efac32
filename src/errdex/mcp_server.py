"""``errdex mcp``: the catalogue as Model Context Protocol tools, over stdio, for agents.

An agent that hits an error calls these tools instead of guessing: ``search_error``,
``get_error`` and ``list_repos`` keep the names and arguments of err-lookup's server
(the system errdex replaces), and ``match_traceback`` / ``explain_error`` add what it
lacks, the way back from a pasted traceback to the raise site with its hole values.

Every tool returns JSON (structured content, and the same as text for older clients).
Failures an agent can act on (an unknown id, an empty paste, no catalogue yet) are tool
errors with a sentence saying what to do; they never end the server. Tools run on
worker threads, so each call opens its own store connection; the match index and the
catalogue's readers are cached per process.
"""

from __future__ import annotations

import threading
from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from pydantic import Field

from errdex import __version__
from errdex.match.api import UNDECIDED, Answer, answer_errors, errors_in
from errdex.store import Store, StoreError, is_server_url, open_store
from errdex.web.catalogue import Catalogue
from errdex.web.search import SearchQuery, SearchUnavailable
from errdex.web.views import api_path, record_path, repo_path

__all__ = ["ErrdexTools", "build_server", "run"]

#: Largest paste the matching tools take, as the web site's ``POST /api/match`` does.
MAX_PASTE_CHARS = 64 * 1024
#: Most results one call returns.
MAX_LIMIT = 100
#: Related records an explanation lists.
RELATED = 5

_INSTRUCTIONS = (
    "errdex catalogues every place a code base raises or warns, one record per site. "
    "When you hit an error, call match_traceback (or explain_error) with the traceback, "
    "pytest or notebook output exactly as printed; use search_error for a bare message, "
    "get_error for one record's details, list_repos for what is covered."
)

_PASTE = "A traceback, pytest or notebook output, or a message, exactly as printed."


class ErrdexTools:
    """The tools' work over one catalogue file, apart from the protocol (tested directly
    and through a real stdio session)."""

    def __init__(self, db: str | Path, base_url: str | None = None) -> None:
        self.db = str(db)
        #: The site serving this catalogue (``errdex serve``): page URLs become absolute.
        self.base_url = (base_url or "").rstrip("/")
        self._catalogue: Catalogue | None = None
        self._lock = threading.Lock()

    # -- the catalogue ------------------------------------------------------------------

    def _require(self) -> None:
        if not is_server_url(self.db) and not Path(self.db).is_file():
            raise ToolError(
                f"no errdex catalogue at {self.db}: run `errdex scan` first, "
                "or start the server with --db pointing at one"
            )

    def _open(self) -> Store:
        self._require()
        try:
            return open_store(self.db)
        except StoreError as exc:
            raise ToolError(f"cannot open the catalogue {self.db}: {exc}") from exc

    def catalogue(self) -> Catalogue:
        """The read-only catalogue, its aggregates refreshed when a scan wrote since."""
        self._require()
        with self._lock:
            if self._catalogue is None:
                with self._open():  # validates the file (a foreign one is refused here)
                    pass
                self._catalogue = Catalogue(self.db)
            catalogue = self._catalogue
        catalogue.note_version()
        return catalogue

    # -- tools ----------------------------------------------------------------------------

    def search_error(
        self,
        message: Annotated[str, Field(description="The raw error message verbatim.")],
        repo: Annotated[str | None, Field(description="Optional 'owner/name' filter.")] = None,
        limit: Annotated[int, Field(description="Max results (default 5).")] = 5,
    ) -> dict[str, Any]:
        if not message.strip():
            raise ToolError("message is empty: pass the error message verbatim")
        limit = max(1, min(limit, MAX_LIMIT))
        with self._open() as store:
            try:
                store.refresh_search()
            except SearchUnavailable as exc:
                raise ToolError(f"search is unavailable: {exc}") from exc
        try:
            hits, more = self.catalogue().search(SearchQuery(message, repo or None, None, limit))
        except SearchUnavailable as exc:
            raise ToolError(f"search is unavailable: {exc}") from exc
        matches = [
            {
                **hit.to_json(),
                "url": self.base_url + record_path(hit.repo, hit.id, hit.slug),
                "api": self.base_url + api_path(hit.id),
            }
            for hit in hits
        ]
        return {"matches": matches, "more": more}

    def get_error(
        self,
        id: Annotated[str | None, Field(description="The record id (16 hex digits).")] = None,
        repo: Annotated[str | None, Field(description="'owner/name', with slug.")] = None,
        slug: Annotated[str | None, Field(description="The record's slug, with repo.")] = None,
    ) -> dict[str, Any]:
        catalogue = self.catalogue()
        record_id = id or self._by_slug(catalogue, repo, slug)
        page = catalogue.page(record_id)
        if page is None:
            raise ToolError(
                f"no error record {record_id} in this catalogue: search_error finds ids"
            )
        record = page.record
        return {
            "record": record,
            "evidence": page.evidence,
            "datasetVersion": page.dataset_version,
            "stale": page.stale,
            "url": self.base_url + record_path(record["repo"], record["id"], record["slug"]),
            "markdown": markdown(record),
        }

    @staticmethod
    def _by_slug(catalogue: Catalogue, repo: str | None, slug: str | None) -> str:
        if not (repo and slug):
            raise ToolError("pass id, or repo and slug")
        found = catalogue.find_slug(repo, slug)
        if found is None:
            raise ToolError(f"no error {slug} in {repo}: search_error finds ids and slugs")
        return found

    def list_repos(self) -> dict[str, Any]:
        repos = []
        for info in self.catalogue().repos():
            latest = info.latest or {}
            repos.append(
                {
                    "repo": info.repo,
                    "description": None,
                    "errorCount": info.records,
                    "stale": info.stale,
                    "files": info.files,
                    "commit": latest.get("commit"),
                    "version": latest.get("version"),
                    "scannedAt": latest.get("scannedAt"),
                    "datasetVersion": latest.get("datasetVersion"),
                    "url": self.base_url + repo_path(info.repo),
                }
            )
        return {"repos": repos}

    def match_traceback(
        self,
        text: Annotated[str, Field(description=_PASTE)],
        top: Annotated[int, Field(description="Candidates per error (default 5).")] = 5,
    ) -> dict[str, Any]:
        answers = self._answers(text, top)
        return {"answers": [self._answer_json(a) for a in answers]}

    def explain_error(self, text: Annotated[str, Field(description=_PASTE)]) -> dict[str, Any]:
        answers = self._answers(text, 5)
        explained = []
        with self._open() as store:
            for answer in answers:
                item = self._answer_json(answer)
                # an undecided group names no site: no one site's explanation stands for it
                decided = answer.candidates and answer.status != UNDECIDED
                item["explanation"] = _explanation(store, answer) if decided else None
                explained.append(item)
        return {"answers": explained}

    def _answers(self, text: str, top: int) -> list[Answer]:
        if not text.strip():
            raise ToolError(
                "the paste is empty: pass the traceback, pytest or notebook output as printed"
            )
        if len(text) > MAX_PASTE_CHARS:
            raise ToolError(f"the paste is longer than {MAX_PASTE_CHARS} characters: send its end")
        errors = errors_in(text)
        if not errors:
            raise ToolError("no error found in the paste: paste a message or a traceback")
        with self._open() as store:
            try:
                return answer_errors(errors, store, max(1, min(top, MAX_LIMIT)))
            except StoreError as exc:
                raise ToolError(str(exc)) from exc

    def _answer_json(self, answer: Answer) -> dict[str, Any]:
        data = answer.to_json()
        data["pasted"] = answer.pasted
        catalogue = self.catalogue()
        for candidate in data["candidates"]:
            found = catalogue.locate(candidate["id"])
            candidate["url"] = self.base_url + record_path(
                candidate["repo"], candidate["id"], found[1] if found else "error"
            )
        return data


def _explanation(store: Store, answer: Answer) -> dict[str, Any]:
    """What ``errdex explain`` shows of the best candidate: where, why, what it means, the fix."""
    best = answer.candidates[0]
    envelope = store.get(best.id) or {"record": {}, "evidence": {}}
    record: dict[str, Any] = envelope["record"]
    evidence: dict[str, Any] = envelope.get("evidence") or {}
    related = []
    for other in (evidence.get("related") or [])[:RELATED]:
        found = store.get(other)
        if found:
            r = found["record"]
            related.append(
                {
                    "id": r["id"],
                    "errorMessage": r["errorMessage"],
                    "filePath": r["filePath"],
                    "lineNumber": r["lineNumber"],
                }
            )
    return {
        "id": best.id,
        "confidence": best.confidence,
        "holes": best.holes,
        "reasons": best.reasons,
        "errorMessage": record.get("errorMessage", best.errorMessage),
        "errorClass": best.errorClass,
        "thrownAt": {
            "filePath": best.filePath,
            "lineNumber": best.lineNumber,
            "githubUrl": record.get("githubUrl"),
        },
        "sourceCode": record.get("sourceCode"),
        "sourceCodeStart": record.get("sourceCodeStart"),
        "conditions": (evidence.get("site") or {}).get("guards") or [],
        "documentation": record.get("documentation"),
        "triggerScenarios": record.get("triggerScenarios"),
        "solutions": record.get("solutions") or [],
        "related": related,
    }


def markdown(record: dict[str, Any]) -> str:
    """One record as Markdown an agent can quote, as err-lookup's get_error returns it."""
    lines = [f"# {record.get('errorCode') or record.get('errorMessage', '')[:80]}", ""]
    lines.append(f"**Repo:** {record.get('repo')}")
    lines.append(f"**Message:** `{record.get('errorMessage', '')}`")
    if record.get("errorClass"):
        lines.append(f"**Class:** {record['errorClass']}")
    lines.append(f"**Severity:** {record.get('severity')}")
    lines.append(f"**Raised at:** {record.get('filePath')}:{record.get('lineNumber')}")
    if record.get("documentation"):
        lines += ["", "## What it means", str(record["documentation"])]
    if record.get("solutions"):
        lines += ["", "## Solutions"]
        lines += [f"{n}. {s}" for n, s in enumerate(record["solutions"], 1)]
    if record.get("githubUrl"):
        lines += ["", f"Source: {record['githubUrl']}"]
    return "\n".join(lines)


def build_server(db: str | Path, base_url: str | None = None) -> MCPServer:
    """The MCP server over the catalogue at ``db`` (which may not exist yet: tools say so);
    with ``base_url``, the site that serves it, the URLs the tools return are absolute."""
    tools = ErrdexTools(db, base_url)
    server: MCPServer = MCPServer(
        name="errdex", version=__version__, instructions=_INSTRUCTIONS, log_level="WARNING"
    )
    server.add_tool(
        tools.search_error,
        name="search_error",
        description=(
            "Full-text search of the catalogued error messages. Pass the raw message "
            "verbatim; repo ('owner/name') narrows it, limit caps the matches (default 5)."
        ),
    )
    server.add_tool(
        tools.get_error,
        name="get_error",
        description=(
            "One record by id, or by repo and slug: the schema-2 record, errdex's evidence, "
            "its page URL and a Markdown summary (what it means, solutions). Cite the URL."
        ),
    )
    server.add_tool(
        tools.list_repos, name="list_repos", description="The repositories this catalogue covers."
    )
    server.add_tool(
        tools.match_traceback,
        name="match_traceback",
        description=(
            "Paste a traceback, pytest or notebook output, or a message, exactly as printed: "
            "one answer per error, each with ranked raise sites, their confidence, the "
            "values that filled the message's holes and the reasons they were chosen."
        ),
    )
    server.add_tool(
        tools.explain_error,
        name="explain_error",
        description=(
            "Like match_traceback, and for each error explain the best site: where it is "
            "raised, the condition that fired, the hole values, what it means, how to fix it."
        ),
    )
    return server


def run(db: str | Path, base_url: str | None = None) -> None:
    """Serve the tools on stdin/stdout until the client closes them."""
    build_server(db, base_url).run("stdio")
