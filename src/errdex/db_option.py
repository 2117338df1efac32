"""The ``--db`` option's type: an SQLite file path, or a PostgreSQL URL taken as given.

One type for every verb, so ``--db postgresql://host/errdex`` works wherever a file does.
"""

from __future__ import annotations

from typing import Any

import click

from errdex.store import is_server_url

__all__ = ["DbLocation"]


class DbLocation(click.ParamType):  # type: ignore[type-arg]  # generic only from click 8.2
    """A file path checked as ``click.Path(dir_okay=False, exists=exists)``, or a
    ``postgresql://`` URL passed through (the store says if it cannot connect)."""

    name = "path|url"

    def __init__(self, *, exists: bool = False) -> None:
        self._path = click.Path(dir_okay=False, exists=exists)

    def convert(self, value: Any, param: click.Parameter | None, ctx: click.Context | None) -> Any:
        if isinstance(value, str) and is_server_url(value):
            return value
        return self._path.convert(value, param, ctx)
