"""What each run gave, by the content hash of what decided it: ``verify`` resumes and
repeats for free.

A run is keyed by the program's text, whether warnings were errors, the interpreter
(executable and version), the import roots given, and the repository's version and
commit as the record says them, so an upgraded package or another Python runs again.
The checks against a record are cheap and made afresh from the cached run, so an edited
record never meets a stale verdict. It is a SQLite file of its own in errdex's cache
directory (``$XDG_CACHE_HOME/errdex/verify-cache.sqlite``, else ``~/.cache/errdex/…``;
``ERRDEX_VERIFY_CACHE`` names another), written after every run: an interrupted
``verify`` loses nothing it finished. It holds JSON only.
"""

from __future__ import annotations

import hashlib
import json
import os
import sqlite3
import threading
from pathlib import Path
from typing import Any

from errdex.match.index_file import cache_root

from .sandbox import RunResult

__all__ = ["CACHE_FORMAT", "VerifyCache", "default_cache_path", "run_key"]

#: Bump when a cached result's meaning changes (the wrapper or the result's keys).
CACHE_FORMAT = 1


def default_cache_path() -> Path:
    given = os.environ.get("ERRDEX_VERIFY_CACHE", "")
    return Path(given) if given else cache_root() / "verify-cache.sqlite"


def run_key(program: str, *, warns: bool, interpreter: tuple[str, str], context: Any) -> str:
    """The content hash of one run: program, interpreter, repository version, import roots."""
    blob = json.dumps(
        [CACHE_FORMAT, program, warns, list(interpreter), context], sort_keys=True, default=str
    )
    return hashlib.sha256(blob.encode("utf-8")).hexdigest()


class VerifyCache:
    """Thread-safe get/put of run results (one connection, one lock)."""

    def __init__(self, path: Path | str | None = None) -> None:
        self.path = Path(path) if path is not None else default_cache_path()
        self.path.parent.mkdir(parents=True, exist_ok=True)
        self._lock = threading.Lock()
        self._db = sqlite3.connect(self.path, check_same_thread=False, timeout=30)
        self._db.execute("PRAGMA journal_mode=WAL")
        # a commit per run, as before, but not an fsync per run (6 ms each on this machine,
        # a tenth of a snippet's time): in WAL mode a killed verify still keeps every run it
        # committed; only the operating system's crash may lose the last ones
        self._db.execute("PRAGMA synchronous=NORMAL")
        self._db.execute(
            "CREATE TABLE IF NOT EXISTS runs (key TEXT PRIMARY KEY, result TEXT NOT NULL)"
        )
        self._db.commit()

    def get(self, key: str) -> RunResult | None:
        with self._lock:
            row = self._db.execute("SELECT result FROM runs WHERE key = ?", (key,)).fetchone()
        if row is None:
            return None
        try:
            return RunResult.from_json(json.loads(row[0]))
        except (ValueError, TypeError, KeyError):
            return None

    def put(self, key: str, result: RunResult) -> None:
        blob = json.dumps(result.to_json())
        with self._lock:
            self._db.execute("INSERT OR REPLACE INTO runs VALUES (?, ?)", (key, blob))
            self._db.commit()

    def close(self) -> None:
        with self._lock:
            self._db.close()
