"""``errdex mcp``: start the Model Context Protocol server on stdio (see :mod:`errdex.mcp_server`)."""

from __future__ import annotations

import click

from errdex.web.commands import check_base_url

__all__ = ["mcp_command"]

#: What to say when the optional SDK is missing from the environment.
INSTALL_HINT = (
    "errdex mcp needs the MCP Python SDK: pip install 'errdex[mcp]' (or pip install 'mcp>=2')"
)


@click.command("mcp")
@click.option(
    "--db",
    default="errdex.db",
    show_default=True,
    type=click.Path(dir_okay=False),
    help="SQLite catalogue written by errdex scan.",
)
@click.option(
    "--base-url",
    default=None,
    metavar="URL",
    callback=lambda _ctx, _param, value: check_base_url(value),
    help="The errdex serve site of this catalogue: the page URLs tools return become absolute.",
)
def mcp_command(db: str, base_url: str | None) -> None:
    """Serve the catalogue to agents: a Model Context Protocol server on stdin/stdout.

    \b
    Tools: search_error, get_error, list_repos, match_traceback, explain_error.
    Register it in an MCP client, e.g.:
      {"mcpServers": {"errdex": {"command": "errdex", "args": ["mcp", "--db", "/path/errdex.db"]}}}

    A catalogue that does not exist yet is not fatal: every tool answers with how to make one.
    """
    try:
        from errdex.mcp_server import run
    except ModuleNotFoundError as exc:
        if exc.name is None or not exc.name.startswith("mcp"):
            raise
        raise click.ClickException(INSTALL_HINT) from exc
    run(db, base_url)
