"""``errdex serve``: the site and JSON API over one catalogue file, on uvicorn."""

from __future__ import annotations

import sys

import click

from errdex.store import StoreError
from errdex.web.settings import DEFAULT_ISSUES_URL

__all__ = ["serve"]


@click.command()
@click.option(
    "--db",
    default="errdex.db",
    show_default=True,
    type=click.Path(dir_okay=False, exists=True),
    help="SQLite file written by errdex scan.",
)
@click.option("--host", default="127.0.0.1", show_default=True, help="Address to listen on.")
@click.option(
    "--port", default=8000, show_default=True, type=click.IntRange(0, 65535), help="TCP port."
)
@click.option(
    "--issues-url",
    default=DEFAULT_ISSUES_URL,
    show_default=True,
    metavar="URL",
    help="Where an error page's 'Report an issue' link opens a new issue.",
)
@click.option(
    "--access-log/--no-access-log", default=True, show_default=True, help="Log every request."
)
def serve(db: str, host: str, port: int, issues_url: str, access_log: bool) -> None:
    """Serve the catalogue: pages for people, a JSON API for tools.

    \b
    Pages: /  /search?q=  /repos/OWNER/NAME  /repos/OWNER/NAME/errors/ID/SLUG  /match
    API:   /api/errors/ID  /api/search?q=&repo=&class=&limit=&cursor=  POST /api/match
           /api/repos  /api/repos/OWNER/NAME  /datasets/OWNER/NAME.jsonl
    OpenAPI at /openapi.json, interactive docs at /api/docs.

    The search index is kept in the database file itself and brought up to date at
    start and whenever a scan writes to the file while the server runs.
    """
    import uvicorn

    from errdex.web.app import create_app

    try:
        app = create_app(db, issues_url=issues_url)
    except (StoreError, FileNotFoundError) as exc:
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    click.echo(f"errdex serving {db} on http://{host}:{port}/", err=True)
    uvicorn.run(app, host=host, port=port, access_log=access_log, log_level="info")
