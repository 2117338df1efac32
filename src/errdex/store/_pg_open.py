"""Opening an errdex PostgreSQL database: connect, recognise it, create its tables, refuse others.

The tables are created in the connection's current schema under an advisory lock, so
two processes opening one new database at once create them once. A database that has
tables but no errdex ``meta`` row is someone else's and is refused untouched.
"""

from __future__ import annotations

from typing import Any

import psycopg

from ._pg_layout import LAYOUT_VERSION, MIGRATIONS, SCHEMA
from .base import shown_url
from .errors import StoreError

__all__ = ["Connection", "connect", "repo_lock", "shown_url"]

Connection = psycopg.Connection[tuple[Any, ...]]

#: The advisory lock key of the layout (creating tables) and, with a repo, of its writes.
_LOCK = "SELECT pg_advisory_xact_lock(hashtextextended(%s, 0))"


def connect(url: str, *, reader: bool = False) -> Connection:
    """An autocommit connection to the errdex database at ``url``, its tables ready.

    A ``reader`` connection is read-only and does not create tables: the site's readers
    open a database that a writer (``errdex scan``, ``serve``'s start) has opened before.
    """
    try:
        conn: Connection = psycopg.connect(url, autocommit=True, connect_timeout=30)
    except psycopg.Error as exc:
        raise StoreError(f"cannot connect to the errdex database {shown_url(url)}: {exc}") from exc
    try:
        if reader:
            conn.execute("SET default_transaction_read_only = on")
            _check_identity(conn, url, reader=True)
        else:
            _prepare(conn, url)
    except BaseException as exc:
        conn.close()
        if isinstance(exc, psycopg.Error):
            raise StoreError(f"cannot open the errdex database {shown_url(url)}: {exc}") from exc
        raise
    return conn


def repo_lock(conn: Connection, repo: str) -> None:
    """Inside a transaction: wait for, then hold until it ends, the write lock of ``repo``,
    so that scans of one repository commit in the order of their scan ids."""
    conn.execute(_LOCK, (f"errdex:repo:{repo}",))


def _tables(conn: Connection) -> set[str]:
    rows = conn.execute(
        "SELECT table_name FROM information_schema.tables WHERE table_schema = current_schema()"
    )
    return {str(name) for (name,) in rows}


def _prepare(conn: Connection, url: str) -> None:
    if "meta" in _tables(conn):
        if _check_identity(conn, url) < LAYOUT_VERSION:
            _migrate(conn, url)
        return
    with conn.transaction():
        conn.execute(_LOCK, ("errdex:layout",))
        tables = _tables(conn)  # again, under the lock: another process may have made them
        if not tables:
            conn.execute(SCHEMA)  # our own DDL, several statements and no parameters
            return
    _check_identity(conn, url)


def _migrate(conn: Connection, url: str) -> None:
    """Upgrade an older errdex layout in place, once, under the layout lock."""
    with conn.transaction():
        conn.execute(_LOCK, ("errdex:layout",))
        version = _check_identity(conn, url)
        while version < LAYOUT_VERSION:
            conn.execute(MIGRATIONS[version])  # our own DDL, no parameters
            version += 1
            conn.execute("UPDATE meta SET value = %s WHERE key = 'schema_version'", (str(version),))


def _check_identity(conn: Connection, url: str, *, reader: bool = False) -> int:
    tables = _tables(conn)
    meta: dict[str, str] = {}
    if "meta" in tables:
        try:
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
        except psycopg.Error:
            meta = {}
    if meta.get("application") != "errdex":
        shown = ", ".join(sorted(tables)[:8])
        raise StoreError(
            f"{shown_url(url)} is a PostgreSQL database but not an errdex store (it has the "
            f"tables {shown}); errdex will not write into it: give an empty database instead"
        )
    try:
        version = int(meta["schema_version"])
    except (KeyError, ValueError):
        raise StoreError(
            f"{shown_url(url)} is an errdex store without a valid schema_version in its "
            "meta table; it is damaged: rescan into a new database"
        ) from None
    migratable = all(v in MIGRATIONS for v in range(version, LAYOUT_VERSION))
    if version > LAYOUT_VERSION or not migratable or (reader and version < LAYOUT_VERSION):
        newer = version > LAYOUT_VERSION
        advice = (
            "upgrade errdex to use it"
            if newer
            else "open it once with errdex scan or serve, which upgrade it"
            if migratable
            else "rescan into a new database"
        )
        raise StoreError(
            f"{shown_url(url)} has errdex database layout {version}; this errdex reads layout "
            f"{LAYOUT_VERSION}: {advice}"
        )
    return version
