"""``errdex serve``: the site and JSON API over one catalogue file, on uvicorn."""

from __future__ import annotations

import errno
import socket
import sys
from typing import NoReturn

import click

from errdex.db_option import DbLocation
from errdex.store import StoreError
from errdex.web.settings import DEFAULT_ISSUES_URL

__all__ = ["check_base_url", "serve"]


@click.command()
@click.option(
    "--db",
    default="errdex.db",
    show_default=True,
    type=DbLocation(exists=True),
    help="SQLite file written by errdex scan, or a postgresql:// URL.",
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
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    callback=lambda _ctx, _param, value: check_base_url(value),
    help="The site's public address (https://host[/path]) for the absolute URLs of "
    "/sitemap.xml, /robots.txt and /llms.txt; default: each request's own.",
)
def serve(
    db: str, host: str, port: int, issues_url: str, access_log: bool, base_url: str | None
) -> None:
    """Serve the catalogue: pages for people, a JSON API for tools.

    \b
    Pages: /  /search?q=  /repos/OWNER/NAME  /repos/OWNER/NAME/errors/ID/SLUG  /match
    API:   /api/errors/ID  /api/search?q=&repo=&class=&limit=&cursor=  POST /api/match
           /api/repos  /api/repos/OWNER/NAME  /datasets/OWNER/NAME.jsonl
    OpenAPI at /openapi.json, the API reference at /api/docs.
    For machines: /llms.txt (the API for agents)  /sitemap.xml  /robots.txt

    The search index is kept in the database file itself and brought up to date at
    start and whenever a scan writes to the file while the server runs.
    """
    sock = _listen(host, port)
    import uvicorn

    from errdex.web.app import create_app

    try:
        app = create_app(db, issues_url=issues_url, base_url=base_url)
    except (StoreError, FileNotFoundError) as exc:
        sock.close()
        click.echo(f"error: {exc}", err=True)
        sys.exit(2)
    bound = sock.getsockname()[1]
    shown = f"[{host}]" if ":" in host else host
    click.echo(f"errdex serving {db} on http://{shown}:{bound}/", err=True)
    config = uvicorn.Config(app, host=host, port=bound, access_log=access_log, log_level="info")
    uvicorn.Server(config).run(sockets=[sock])


def check_base_url(value: str | None) -> str | None:
    """``--base-url`` as given, less a trailing slash; only http(s) with a host."""
    if value is None:
        return None
    scheme, sep, rest = value.partition("://")
    if not sep or scheme not in ("http", "https") or not rest.split("/", 1)[0]:
        raise click.BadParameter(
            f"{value!r} is not an http(s) URL such as https://errors.example.org"
        )
    return value.rstrip("/")


def _listen(host: str, port: int) -> socket.socket:
    """The listening address, bound before anything else runs or prints.

    Left to uvicorn, a busy port showed up only after the catalogue was opened, the
    "serving" line printed and the app started, as a log line among others.
    """
    try:
        family, kind, proto, _, address = socket.getaddrinfo(
            host, port, type=socket.SOCK_STREAM, flags=socket.AI_PASSIVE
        )[0]
    except socket.gaierror as exc:
        _stop(f"error: cannot listen on {host}: {exc.strerror}")
    sock = socket.socket(family, kind, proto)
    sock.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)
    try:
        sock.bind(address)
    except OSError as exc:
        sock.close()
        if exc.errno == errno.EADDRINUSE:
            _stop(
                f"error: port {port} on {host} is already in use (another errdex serve, or "
                "another server): stop that one or choose another --port"
            )
        _stop(f"error: cannot listen on {host}:{port}: {exc.strerror or exc}")
    return sock


def _stop(message: str) -> NoReturn:
    click.echo(message, err=True)
    sys.exit(2)
