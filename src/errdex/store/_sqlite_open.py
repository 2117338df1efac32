"""Opening an errdex SQLite file: recognise it, create or migrate its tables, refuse others.

Nothing here opens the database file except through SQLite. Closing any descriptor of a
file drops every POSIX lock the process holds on it, SQLite's included: a server that
peeked at the header with ``open()`` on each refresh let a scan in another process take
the file for its own, checkpoint and delete the WAL under the server's readers, and every
page after that was "database disk image is malformed". SQLite's own connections share
their descriptors and locks, so any number of them in one process is safe.
"""

from __future__ import annotations

import contextlib
import sqlite3
from collections.abc import Iterator
from pathlib import Path

from ._sqlite_layout import CACHE_KIB, LAYOUT_VERSION, MIGRATIONS, SCHEMA, SQLITE_HEADER
from ._sqlite_search import register_functions
from .errors import StoreError

__all__ = ["connect", "connect_reader", "run_script", "transaction"]


def connect(path: str) -> sqlite3.Connection:
    """A connection to the errdex store at ``path`` (or ``":memory:"``), ready to use.

    A new or empty file gets the tables, an older errdex layout is migrated, anything
    else is refused with a :class:`StoreError` rather than written into.
    """
    memory = path == ":memory:"
    if not memory:
        _check_path(Path(path))
    try:
        conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open errdex database {path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    try:
        _prepare(conn, path, memory)
    except BaseException as exc:
        conn.close()
        if isinstance(exc, sqlite3.DatabaseError) and not isinstance(exc, sqlite3.OperationalError):
            raise _unusable(Path(path), exc) from exc
        if isinstance(exc, sqlite3.Error):
            raise StoreError(f"cannot open errdex database {path}: {exc}") from exc
        raise
    return conn


def connect_reader(path: str) -> sqlite3.Connection:
    """A query-only connection to an errdex file already opened with :func:`connect`,
    usable from any thread (one at a time), with search's SQL functions declared."""
    try:
        conn = sqlite3.connect(path, timeout=30.0, isolation_level=None, check_same_thread=False)
        conn.execute("PRAGMA query_only = 1")
    except sqlite3.Error as exc:
        raise StoreError(f"cannot open errdex database {path}: {exc}") from exc
    conn.row_factory = sqlite3.Row
    register_functions(conn)
    return conn


def _check_path(path: Path) -> None:
    """Refuse a directory and create missing parents, without opening the file."""
    if path.is_dir():
        raise StoreError(
            f"{path} is a directory; give errdex a file path for its database "
            f"(for example {path / 'errdex.db'})"
        )
    if path.exists():
        return
    try:
        path.parent.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise StoreError(f"cannot create the directory for {path}: {exc.strerror or exc}") from exc


def _unusable(path: Path, exc: sqlite3.DatabaseError) -> StoreError:
    """Say why SQLite could not read the file: not SQLite at all, or a damaged one.

    The header is read only once SQLite has called the file "not a database", when the
    process holds no lock on it worth keeping.
    """
    if getattr(exc, "sqlite_errorname", "") == "SQLITE_NOTADB":
        try:
            with path.open("rb") as fh:
                head = fh.read(len(SQLITE_HEADER))
        except OSError as err:
            return StoreError(f"cannot read {path}: {err.strerror or err}")
        if head != SQLITE_HEADER:
            return StoreError(
                f"{path} is not an errdex database: it is not a SQLite file at all. "
                "Give errdex a new file path (it creates the database) or remove this file"
            )
    return StoreError(
        f"{path} cannot be used as an errdex database: {exc}; "
        "give errdex a new file path or remove this file"
    )


def _prepare(conn: sqlite3.Connection, path: str, memory: bool) -> None:
    """Recognise, create or migrate the layout; only then switch the file to WAL.

    A current errdex file is opened without taking the write lock, so a read-only
    copy (a published dataset) can still be served.
    """
    version = _check_identity(conn, path) if _tables(conn) else None
    conn.execute(f"PRAGMA cache_size = -{CACHE_KIB}")
    if not memory:
        if conn.execute("PRAGMA journal_mode").fetchone()[0] != "wal":
            conn.execute("PRAGMA journal_mode = WAL")
        conn.execute("PRAGMA synchronous = NORMAL")
    if version == LAYOUT_VERSION:
        return
    with transaction(conn):
        # Check again under the write lock: another process may have done it meanwhile.
        if not _tables(conn):
            run_script(conn, SCHEMA)
        else:
            version = _check_identity(conn, path)
            while version < LAYOUT_VERSION:
                run_script(conn, MIGRATIONS[version])
                version += 1
                conn.execute(
                    "UPDATE meta SET value = ? WHERE key = 'schema_version'", (str(version),)
                )


@contextlib.contextmanager
def transaction(conn: sqlite3.Connection) -> Iterator[None]:
    """One write transaction, taken up front (``BEGIN IMMEDIATE``): committed when the
    block ends, rolled back when anything escapes it."""
    conn.execute("BEGIN IMMEDIATE")
    try:
        yield
        conn.execute("COMMIT")
    except BaseException:
        if conn.in_transaction:
            conn.execute("ROLLBACK")
        raise


def _tables(conn: sqlite3.Connection) -> list[str]:
    rows = conn.execute(
        "SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' "
        "ORDER BY name"
    )
    return [str(row[0]) for row in rows]


def _check_identity(conn: sqlite3.Connection, path: str) -> int:
    """Return the layout version of an errdex file; refuse foreign or newer files."""
    tables = _tables(conn)
    meta: dict[str, str] = {}
    if "meta" in tables:
        with contextlib.suppress(sqlite3.Error):
            meta = {str(k): str(v) for k, v in conn.execute("SELECT key, value FROM meta")}
    if meta.get("application") != "errdex":
        shown = ", ".join(tables[:8]) + (", ..." if len(tables) > 8 else "")
        raise StoreError(
            f"{path} is a SQLite database but not an errdex store (it has the tables "
            f"{shown}); errdex will not write into it: give a new file path instead"
        )
    try:
        version = int(meta["schema_version"])
    except (KeyError, ValueError):
        raise StoreError(
            f"{path} is an errdex store without a valid schema_version in its meta "
            "table; it is damaged: rescan into a new file"
        ) from None
    if version > LAYOUT_VERSION:
        raise StoreError(
            f"{path} was written by a newer errdex (database layout {version}; this "
            f"errdex reads up to layout {LAYOUT_VERSION}): upgrade errdex to use it"
        )
    if version < LAYOUT_VERSION and any(
        v not in MIGRATIONS for v in range(version, LAYOUT_VERSION)
    ):
        raise StoreError(
            f"{path} has database layout {version}, which this errdex cannot migrate "
            f"to layout {LAYOUT_VERSION}: rescan into a new file"
        )
    return version


def run_script(conn: sqlite3.Connection, script: str) -> None:
    """Run ``;``-separated DDL inside the open transaction (``executescript`` would commit it)."""
    for statement in script.split(";"):
        if statement.strip():
            conn.execute(statement)
