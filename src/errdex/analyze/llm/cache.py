"""Model answers and run accounting, kept in the store's own SQLite file or a local cache.

``llm_answers`` holds each validated answer under (content hash, model, prompt
version): the same evidence shown to the same model with the same prompt is paid for
once, whichever commit or run it comes from. An answer is written the moment it
arrives, each in its own commit, so an interrupted run loses nothing it paid for.
``llm_runs`` keeps one row per run with its calls, tokens, cache hits and cost
estimate, updated as the run goes so that even a killed run leaves its count.

The tables live beside the store's and never touch them; names start with ``llm_``.

Where (:meth:`AnswerCache.for_store`): an SQLite catalogue keeps them in its own file,
as it always has. Any other store (PostgreSQL) gets them in a local SQLite file,
``llm-answers.sqlite3`` in errdex's cache directory, which is honestly a cache: an
answer is keyed by the hash of everything the model was shown, so it is right for any
catalogue that shows the same evidence, and deleting the file costs only paying for
those answers again. The run rows go with the answers: they account for the calls made
from this machine, and no reader of the catalogue needs them.
"""

from __future__ import annotations

import json
import sqlite3
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from errdex.record import iso_now
from errdex.source.git import default_cache_dir
from errdex.store import SqliteStore, Store, StoreError

__all__ = ["RUN_COUNTS", "AnswerCache", "CachedAnswer", "local_cache_path"]

#: The local answer cache of stores that are not an SQLite file, in errdex's cache folder.
LOCAL_CACHE = "llm-answers.sqlite3"


def local_cache_path() -> Path:
    """Where a PostgreSQL catalogue's model answers are cached on this machine."""
    return default_cache_dir().parent / LOCAL_CACHE


_SCHEMA = """
CREATE TABLE IF NOT EXISTS llm_answers (
    content_hash   TEXT NOT NULL,
    model          TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    answer         TEXT NOT NULL,
    tokens_in      INTEGER NOT NULL,
    tokens_out     INTEGER NOT NULL,
    calls          INTEGER NOT NULL,
    run_id         INTEGER,
    created_at     TEXT NOT NULL,
    PRIMARY KEY (content_hash, model, prompt_version)
);
CREATE TABLE IF NOT EXISTS llm_runs (
    id             INTEGER PRIMARY KEY AUTOINCREMENT,
    repo           TEXT,
    model          TEXT NOT NULL,
    prompt_version TEXT NOT NULL,
    status         TEXT NOT NULL,
    started_at     TEXT NOT NULL,
    finished_at    TEXT,
    records        INTEGER NOT NULL DEFAULT 0,
    up_to_date     INTEGER NOT NULL DEFAULT 0,
    cache_hits     INTEGER NOT NULL DEFAULT 0,
    calls          INTEGER NOT NULL DEFAULT 0,
    repairs        INTEGER NOT NULL DEFAULT 0,
    retries        INTEGER NOT NULL DEFAULT 0,
    failed         INTEGER NOT NULL DEFAULT 0,
    written        INTEGER NOT NULL DEFAULT 0,
    tokens_in      INTEGER NOT NULL DEFAULT 0,
    tokens_out     INTEGER NOT NULL DEFAULT 0,
    cost_usd       REAL NOT NULL DEFAULT 0,
    price_basis    TEXT NOT NULL DEFAULT ''
)
"""

#: The counters of ``llm_runs``, as :meth:`AnswerCache.update_run` takes them.
RUN_COUNTS = (
    "records",
    "up_to_date",
    "cache_hits",
    "calls",
    "repairs",
    "retries",
    "failed",
    "written",
    "tokens_in",
    "tokens_out",
    "cost_usd",
)


@dataclass(frozen=True, slots=True)
class CachedAnswer:
    """A stored answer: the validated fields and what obtaining them cost."""

    answer: dict[str, Any]
    tokens_in: int
    tokens_out: int
    calls: int


class AnswerCache:
    """The ``llm_answers`` and ``llm_runs`` tables on an open store connection."""

    def __init__(self, conn: sqlite3.Connection, *, create: bool = True) -> None:
        """Create the tables if missing; ``create=False`` (a dry run) writes nothing and
        treats missing tables as an empty cache."""
        self._conn = conn
        if create:
            for statement in _SCHEMA.split(";"):
                if statement.strip():
                    conn.execute(statement)
        self._ready = create or (
            conn.execute(
                "SELECT 1 FROM sqlite_master WHERE type = 'table' AND name = 'llm_answers'"
            ).fetchone()
            is not None
        )

    @classmethod
    def for_store(cls, store: Store, *, create: bool = True) -> AnswerCache:
        """The cache of ``store``: in its own file for SQLite, else the local cache file
        (see the module docstring); ``create=False`` writes nothing anywhere."""
        if isinstance(store, SqliteStore):
            return cls(store.connection, create=create)
        path = local_cache_path()
        if not create and not path.is_file():
            return cls(sqlite3.connect(":memory:"), create=False)
        try:
            path.parent.mkdir(parents=True, exist_ok=True)
            conn = sqlite3.connect(path, timeout=30.0, isolation_level=None)
            if create:
                conn.execute("PRAGMA journal_mode = WAL")
        except (OSError, sqlite3.Error) as exc:
            raise StoreError(f"cannot open the model-answer cache {path}: {exc}") from exc
        return cls(conn, create=create)

    # -- answers ----------------------------------------------------------------------

    def get(self, content_hash: str, model: str, prompt_version: str) -> CachedAnswer | None:
        if not self._ready:
            return None
        row = self._conn.execute(
            "SELECT answer, tokens_in, tokens_out, calls FROM llm_answers "
            "WHERE content_hash = ? AND model = ? AND prompt_version = ?",
            (content_hash, model, prompt_version),
        ).fetchone()
        if row is None:
            return None
        return CachedAnswer(json.loads(row[0]), int(row[1]), int(row[2]), int(row[3]))

    def has(self, content_hash: str, model: str, prompt_version: str) -> bool:
        if not self._ready:
            return False
        row = self._conn.execute(
            "SELECT 1 FROM llm_answers WHERE content_hash = ? AND model = ? AND prompt_version = ?",
            (content_hash, model, prompt_version),
        ).fetchone()
        return row is not None

    def put(
        self,
        content_hash: str,
        model: str,
        prompt_version: str,
        answer: dict[str, Any],
        *,
        tokens_in: int,
        tokens_out: int,
        calls: int,
        run_id: int | None,
    ) -> None:
        """Keep an answer (committed at once: the connection is in autocommit mode)."""
        self._conn.execute(
            "INSERT INTO llm_answers (content_hash, model, prompt_version, answer, tokens_in, "
            "tokens_out, calls, run_id, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?) "
            "ON CONFLICT (content_hash, model, prompt_version) DO UPDATE SET "
            "answer = excluded.answer, tokens_in = excluded.tokens_in, "
            "tokens_out = excluded.tokens_out, calls = excluded.calls, "
            "run_id = excluded.run_id, created_at = excluded.created_at",
            (
                content_hash,
                model,
                prompt_version,
                json.dumps(answer, ensure_ascii=False, separators=(",", ":")),
                tokens_in,
                tokens_out,
                calls,
                run_id,
                iso_now(),
            ),
        )

    def answers(self) -> int:
        if not self._ready:
            return 0
        return int(self._conn.execute("SELECT COUNT(*) FROM llm_answers").fetchone()[0])

    # -- runs -------------------------------------------------------------------------

    def start_run(self, repo: str | None, model: str, prompt_version: str, price_basis: str) -> int:
        cursor = self._conn.execute(
            "INSERT INTO llm_runs (repo, model, prompt_version, status, started_at, price_basis) "
            "VALUES (?, ?, ?, 'running', ?, ?)",
            (repo, model, prompt_version, iso_now(), price_basis),
        )
        assert cursor.lastrowid is not None
        return cursor.lastrowid

    def update_run(
        self, run_id: int, counts: Mapping[str, float], status: str | None = None
    ) -> None:
        """Store the running totals; a final ``status`` also stamps ``finished_at``."""
        assignments = ", ".join(f"{name} = ?" for name in RUN_COUNTS)
        values: list[Any] = [counts[name] for name in RUN_COUNTS]
        if status is not None:
            assignments += ", status = ?, finished_at = ?"
            values += [status, iso_now()]
        self._conn.execute(f"UPDATE llm_runs SET {assignments} WHERE id = ?", [*values, run_id])

    def runs(self, limit: int = 20) -> list[dict[str, Any]]:
        """The latest runs, newest first, as dicts of their columns."""
        if not self._ready:
            return []
        cursor = self._conn.execute("SELECT * FROM llm_runs ORDER BY id DESC LIMIT ?", (limit,))
        names = [d[0] for d in cursor.description]
        return [dict(zip(names, row, strict=True)) for row in cursor]
