"""Where records live: the :class:`Store` interface, SQLite and PostgreSQL.

Callers open a store with :func:`open_store` and use only :class:`Store`, so the
embedded SQLite file and a shared PostgreSQL database are interchangeable.
"""

from __future__ import annotations

from pathlib import Path

from errdex.store.base import (
    NotedSource,
    RecordStatus,
    RecordVersion,
    RepoStats,
    ScanInfo,
    ScanSummary,
    Store,
    StoreStats,
    is_server_url,
)
from errdex.store.errors import StoreError
from errdex.store.sqlite import LAYOUT_VERSION, SqliteStore

__all__ = [
    "LAYOUT_VERSION",
    "NotedSource",
    "RecordStatus",
    "RecordVersion",
    "RepoStats",
    "ScanInfo",
    "ScanSummary",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreStats",
    "is_server_url",
    "open_store",
]


def open_store(location: str | Path, *, reader: bool = False) -> Store:
    """Open the store at a file path (SQLite) or a ``postgresql://`` URL.

    One entry point so the CLI's ``--db`` option need not know which backends exist.
    ``reader=True`` opens a read-only store for one thread of a server (the file or
    database must have been opened as a store before).
    """
    text = str(location)
    if is_server_url(text):
        from errdex.store.postgres import PostgresStore  # psycopg loads only when used

        return PostgresStore(text, reader=reader)
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]
    return SqliteStore(text, reader=reader)
