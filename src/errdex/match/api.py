"""``errdex.match()``: from pasted text to ranked records, with the index cached on disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
import shutil
import threading
from pathlib import Path
from typing import Any

from errdex.match.index import MatchIndex
from errdex.match.index_file import cache_root
from errdex.match.paste import PastedError, parse_paste
from errdex.match.rank import Candidate, Clue, Scored, rank
from errdex.store import SqliteStore, StoreError
from errdex.template import MessageTemplate

__all__ = ["cached_index_path", "errors_in", "index_for", "index_path", "match", "match_errors"]

#: Chained causes printed before the final error still point somewhere, but less.
CAUSE_WEIGHT = 0.7

_cache: dict[str, MatchIndex] = {}
_lock = threading.Lock()


def index_path(db_path: str | Path) -> Path:
    """Where the index of a store is saved: ``errdex.db`` -> ``errdex.db.matchindex/``."""
    path = Path(db_path)
    return path.with_name(path.name + ".matchindex")


def cached_index_path(db_path: str | Path, version: int) -> Path:
    """Where the index of a read-only catalogue goes: errdex's cache directory, keyed by
    the catalogue's absolute path and its data version."""
    digest = hashlib.sha256(str(Path(db_path).resolve()).encode()).hexdigest()[:16]
    return cache_root() / "matchindex" / f"{digest}-{version}"


def _writable_beside(db_path: Path) -> bool:
    """A catalogue whose file or folder is read-only (by its mode bits too, which root
    would otherwise ignore) keeps nothing of errdex's beside it."""
    try:
        mode = db_path.stat().st_mode
    except OSError:
        return False
    return bool(mode & 0o222) and os.access(db_path, os.W_OK) and os.access(db_path.parent, os.W_OK)


def index_for(store: SqliteStore) -> MatchIndex:
    """The store's index: from memory, else from disk, else built (and saved) once."""
    version = store.data_version()
    key = str(Path(store.path).resolve()) if store.path != ":memory:" else f":memory:{id(store)}"
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached.version == version:
            return cached
        index = None if store.path == ":memory:" else _saved(Path(store.path), version)
        if index is None:
            index = MatchIndex.build(store.iter_envelopes(), version=version)
            if store.path != ":memory:":
                _save(index, Path(store.path), version)
        _cache[key] = index
        return index


def _saved(db_path: Path, version: int) -> MatchIndex | None:
    """The saved index of this version: beside the catalogue, else in the cache."""
    for directory in (index_path(db_path), cached_index_path(db_path, version)):
        index = MatchIndex.load(directory)
        if index is not None and index.version == version:
            return index
    return None


def _save(index: MatchIndex, db_path: Path, version: int) -> None:
    """Beside a writable catalogue, else in the cache (older versions there removed); a
    catalogue that can be saved nowhere still answers, it just rebuilds next time."""
    if _writable_beside(db_path):
        with contextlib.suppress(OSError):
            index.save(index_path(db_path))
            return
    target = cached_index_path(db_path, version)
    with contextlib.suppress(OSError):
        index.save(target)
        stem = target.name.rsplit("-", 1)[0]
        for old in target.parent.glob(stem + "-*"):
            if old != target and old.is_dir():
                shutil.rmtree(old, ignore_errors=True)


def clues_from(errors: list[PastedError]) -> list[Clue]:
    """The final error counts fully; the causes chained before it count less."""
    clues = []
    for position, error in enumerate(errors):
        final = position == len(errors) - 1
        clues.append(
            Clue(
                error_class=error.error_class,
                message=error.message,
                frames=tuple((f.path, f.line, f.function) for f in error.frames),
                weight=1.0 if final else CAUSE_WEIGHT,
            )
        )
    return clues


#: A paste with no recognisable error but this few lines is taken as a bare message.
BARE_MESSAGE_LINES = 20


def errors_in(text: str | bytes) -> list[PastedError]:
    """The errors of a paste; a short text with no class is taken as a bare message
    (people often paste only the message line)."""
    errors = parse_paste(text)
    if errors:
        return errors
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    bare = text.strip()
    if bare and bare.count("\n") < BARE_MESSAGE_LINES:
        return [PastedError(error_class=None, message=bare, frames=[], source_format="bare")]
    return []


def match_errors(errors: list[PastedError], store: SqliteStore, top: int = 5) -> list[Candidate]:
    """Rank the records of ``store`` for already parsed errors."""
    if not errors:
        return []
    index = index_for(store)
    ranked = rank(clues_from(errors), index, top=top)
    return [_candidate(store, index, scored) for scored in ranked]


def _candidate(store: SqliteStore, index: MatchIndex, scored: Scored) -> Candidate:
    entry = index.entry(scored.index)
    envelope = store.get(entry.id)
    record: dict[str, Any] = envelope["record"] if envelope else {}
    holes = scored.holes
    template = ((envelope or {}).get("evidence") or {}).get("site", {}).get("template")
    if template is not None and holes:
        names = [h.name for h in MessageTemplate.from_json(template).holes]
        if len(names) == len(holes):
            named: dict[str, str] = {}
            for name, value in zip(names, holes.values(), strict=True):
                named.setdefault(name, value)
            holes = named
    return Candidate(
        id=entry.id,
        repo=entry.repo,
        filePath=entry.file_path,
        lineNumber=entry.line,
        errorClass=entry.error_class,
        errorMessage=record.get("errorMessage", ""),
        confidence=round(min(1.0, max(0.0, scored.confidence)), 4),
        holes=holes,
        reasons=scored.reasons,
    )


def match(
    text: str | bytes, db: str | Path | SqliteStore = "errdex.db", top: int = 5
) -> list[Candidate]:
    """The records that best explain a pasted message, traceback, pytest or notebook output.

    Best first, each with a confidence in [0, 1], the values that filled its holes and
    the reasons it was chosen; ``[]`` when nothing matches or the paste holds no error.
    """
    errors = errors_in(text)
    if isinstance(db, SqliteStore):
        return match_errors(errors, db, top)
    if not Path(db).exists():
        raise StoreError(f"no errdex database at {db}: run `errdex scan` first")
    with SqliteStore(db) as store:
        return match_errors(errors, store, top)
