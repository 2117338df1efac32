"""A cached scan's part in keeping what package files' texts show between processes
(:mod:`errdex.extract.python.text_store`): the facts stored by earlier scans are loaded
when an extraction first needs them, and those made meanwhile are written back with
the plan (:meth:`errdex.scan_reuse.Plan.save`). A worker process reads them through a
read-only connection of its own (:func:`stored_texts`): the scan's connection is not
shared across a fork."""

from __future__ import annotations

import logging
import pickle
import sqlite3
from collections.abc import Iterator
from contextlib import closing, contextmanager
from functools import lru_cache
from pathlib import Path

from errdex.extract.python.text_store import Stored, keeping
from errdex.scan_reuse import Plan

__all__ = ["stored_texts", "texts_kept", "texts_source"]

log = logging.getLogger(__name__)


@contextmanager
def texts_kept(plan: Plan | None) -> Iterator[None]:
    """Extractions within this block take package files' text facts from the plan's
    cache (none with ``plan.read`` off) and leave the new ones in ``plan.texts``."""
    if plan is None:
        yield
        return

    def load() -> Stored:
        return plan.cache.texts(plan.scope) if plan.read else {}

    with keeping(load) as fresh:
        plan.texts = fresh
        yield


def texts_source(plan: Plan | None) -> tuple[str, str] | None:
    """Where a worker process finds the stored facts (the cache's file and the scope),
    None when the scan reads none (no cache, or ``plan.read`` off)."""
    if plan is None or not plan.read:
        return None
    return str(plan.cache.path), plan.scope


@lru_cache(maxsize=2)
def stored_texts(path: str, scope: str) -> Stored:
    """The facts stored in the cache at ``path`` for ``scope``, read once per worker
    process (the cache is written only after the workers are done) through a read-only
    connection of its own; none when the cache cannot be read."""
    try:
        uri = Path(path).resolve().as_uri() + "?mode=ro"
        with closing(sqlite3.connect(uri, uri=True, timeout=30)) as conn:
            rows = conn.execute(
                "SELECT path, digest, blob FROM texts WHERE scope = ?", (scope,)
            ).fetchall()
    except sqlite3.Error as exc:
        log.debug("stored text facts not read from %s: %s", path, exc)
        return {}
    return {(rel, digest): pickle.loads(blob) for rel, digest, blob in rows}
