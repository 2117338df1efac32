"""Where records live: the :class:`Store` interface and its SQLite implementation.

Callers open a store with :func:`open_store` and use only :class:`Store`, so the
embedded SQLite file and a later PostgreSQL server are interchangeable.
"""

from __future__ import annotations

from pathlib import Path

from errdex.store.base import (
    RecordStatus,
    RecordVersion,
    RepoStats,
    ScanInfo,
    ScanSummary,
    Store,
    StoreStats,
)
from errdex.store.errors import StoreError
from errdex.store.sqlite import LAYOUT_VERSION, SqliteStore

__all__ = [
    "LAYOUT_VERSION",
    "RecordStatus",
    "RecordVersion",
    "RepoStats",
    "ScanInfo",
    "ScanSummary",
    "SqliteStore",
    "Store",
    "StoreError",
    "StoreStats",
    "open_store",
]

_SERVER_SCHEMES = ("postgres://", "postgresql://")


def open_store(location: str | Path) -> Store:
    """Open the store at a file path (SQLite) or, later, a database URL.

    One entry point so the CLI's ``--db`` option need not know which backends exist.
    """
    text = str(location)
    if text.startswith(_SERVER_SCHEMES):
        raise StoreError(
            f"{text.split('://', 1)[0]} stores are not supported yet; give a file path "
            "for an SQLite database instead"
        )
    if text.startswith("sqlite:///"):
        text = text[len("sqlite:///") :]
    return SqliteStore(text)
