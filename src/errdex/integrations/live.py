"""A live exception as errdex's paste model, and its answers from the catalogue.

A hook holds the exception itself, not its printed text: the class object, the frames
with their real paths, ``__cause__``/``__context__`` and the notes. Reading them directly
is exact where parsing would guess (a message that spans lines, a note that looks like a
traceback), and gives the matcher the same :class:`PastedError` list the parser gives for
the printed traceback, in the order it is printed: the first cause first, the exception
that reached the top last; an exception group's members before the group.

This imports the matcher: :mod:`errdex.integrations.hook` imports this module only
when an exception reaches it.
"""

from __future__ import annotations

import json
import sqlite3
import traceback
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.integrations.catalogue import default_db, looks_like_catalogue
from errdex.match._paste_model import (
    EXCEPTION_GROUP,
    SYNTAX_ERROR,
    TRACEBACK,
    Frame,
    PastedError,
    Relation,
)
from errdex.match.api import Answer, answer_errors, cached_index_path, chains, index_path
from errdex.match.layouts import record_keys
from errdex.match.server_index import server_index_path
from errdex.store import Store, StoreError, is_server_url, open_store
from errdex.store.base import shown_url

__all__ = [
    "LiveAnswer",
    "NoIndexYet",
    "answers_for_exception",
    "class_name",
    "errors_from_exception",
    "index_ready",
]

#: Where a repository keeps its importable code (as :mod:`errdex.match.layouts`); given to
#: ``record_keys`` so that it does not load the tag table's prefixes (errdex.source).
_CODE_DIRS = ("src/", "Lib/", "lib/")
#: Deeper chains than this are cut (CPython's own printer has no limit, but cycles and
#: runaway chains must not hang a hook).
MAX_CHAIN = 64


def class_name(cls: type[BaseException]) -> str:
    """The class as a traceback prints it: ``module.Qualname``, bare for builtins and
    ``__main__`` (as :func:`traceback.format_exception_only` does)."""
    name = getattr(cls, "__qualname__", None) or getattr(cls, "__name__", "?")
    module = getattr(cls, "__module__", None)
    if not isinstance(module, str) or module in ("builtins", "__main__"):
        return str(name)
    return f"{module}.{name}"


def _message(exc: BaseException) -> str:
    """What follows ``Class: `` in the traceback; a ``str()`` that fails prints as
    CPython prints it."""
    if isinstance(exc, SyntaxError) and isinstance(exc.msg, str):
        return exc.msg
    try:
        return str(exc)
    except Exception:
        return "<exception str() failed>"


def _notes(exc: BaseException) -> list[str]:
    notes = getattr(exc, "__notes__", None)
    if not isinstance(notes, list | tuple):
        return []
    out = []
    for note in notes:
        try:
            out.append(note if isinstance(note, str) else str(note))
        except Exception:
            out.append("<note str() failed>")
    return out


def _frames(exc: BaseException) -> list[Frame]:
    frames = [
        Frame(
            path=f.filename, line=f.lineno, function=f.name, source=(f.line or "").strip() or None
        )
        for f in traceback.extract_tb(exc.__traceback__)
    ]
    if isinstance(exc, SyntaxError) and exc.filename:
        text = exc.text.strip() if isinstance(exc.text, str) else None
        frames.append(
            Frame(path=str(exc.filename), line=exc.lineno, function=None, source=text or None)
        )
    return frames


def _chain(exc: BaseException, seen: set[int]) -> list[tuple[BaseException, Relation | None]]:
    """``exc`` and what led to it, first cause first, each with how it leads to the next
    (``__cause__`` unless ``__suppress_context__``, else ``__context__``)."""
    out: list[tuple[BaseException, Relation | None]] = []
    current: BaseException | None = exc
    relation: Relation | None = None
    while current is not None and id(current) not in seen and len(out) < MAX_CHAIN:
        seen.add(id(current))
        out.append((current, relation))
        if current.__cause__ is not None:
            current, relation = current.__cause__, "cause"
        elif current.__context__ is not None and not current.__suppress_context__:
            current, relation = current.__context__, "context"
        else:
            current = None
    out.reverse()  # each relation says how its exception leads to the one found before it
    return out


def _errors(exc: BaseException, seen: set[int], in_group: bool) -> list[PastedError]:
    errors: list[PastedError] = []
    for item, relation in _chain(exc, seen):
        group = isinstance(item, BaseExceptionGroup)
        if isinstance(item, BaseExceptionGroup):
            for member in item.exceptions:
                if isinstance(member, BaseException):
                    errors.extend(_errors(member, seen, True))
        if isinstance(item, SyntaxError):
            fmt = SYNTAX_ERROR
        else:
            fmt = EXCEPTION_GROUP if group or in_group else TRACEBACK
        errors.append(
            PastedError(
                error_class=class_name(type(item)),
                message=_message(item),
                frames=_frames(item),
                relation=relation,
                source_format=fmt,
                notes=_notes(item),
            )
        )
    return errors


def errors_from_exception(exc: BaseException) -> list[PastedError]:
    """The errors of ``exc`` in the order a traceback prints them: its chain (first cause
    first, ``relation`` saying "cause" or "context"), an exception group's members (each
    with its own chain) before the group; the notes in ``notes``, not in the message."""
    return _errors(exc, set(), False)


@dataclass
class LiveAnswer(Answer):
    """An :class:`Answer` with what the block shows besides: the best candidate's
    envelope, where its file is on this machine (the exception's frame in it), the
    catalogue it came from and the errors it answers."""

    envelope: dict[str, Any] | None = None
    local_path: str | None = None
    db: str | None = None
    errors: list[PastedError] = field(default_factory=list)


def _local_path(candidate_path: str, line: int, errors: list[PastedError]) -> str | None:
    """The real path of the frame that is the candidate's raise site, if one is: the
    record's ``filePath`` as the repository has it (``src/click/types.py``), or as it is
    installed (``…/site-packages/click/types.py``, ``…/python3.11/json/decoder.py``)."""
    keys = record_keys(candidate_path.replace("\\", "/"), _CODE_DIRS)
    tails = ["/" + key.lstrip("/") for key in keys]
    for error in reversed(errors):
        for frame in reversed(error.frames):
            path = frame.path.replace("\\", "/")
            if frame.line == line and any(path.endswith(t) or path == t[1:] for t in tails):
                return frame.path
    return None


class NoIndexYet(StoreError):
    """The catalogue's match index was never built, and the caller would rather not wait
    for it to be (building takes seconds to minutes on a large catalogue)."""


def index_ready(store: Store) -> bool:
    """Whether a saved match index of the store's current version exists (beside the
    catalogue or in the cache), judged from its ``meta.json`` without loading it. A
    database server's index is saved in the cache (:func:`server_index_path`)."""
    version = store.data_version()
    path = Path(store.path)
    directories = [index_path(path), cached_index_path(path, version)]
    if is_server_url(store.path):
        directories = [server_index_path(store.path)]
    for directory in directories:
        try:
            meta = json.loads((directory / "meta.json").read_text(encoding="utf-8"))
        except (OSError, ValueError):
            continue
        if isinstance(meta, dict) and meta.get("version") == version:
            return True
    return False


def answers_for_exception(
    exc: BaseException, *, db: str | Path | None = None, top: int = 3, build_index: bool = True
) -> list[Answer]:
    """One answer per independent error of ``exc`` (as :func:`errdex.match.api.answer_errors`).

    ``db`` defaults to :func:`errdex.integrations.catalogue.default_db`; a
    ``postgresql://`` URL (a string) reads that database. Returns ``[]``
    when there is no catalogue there; never creates one. A file that is there but is not
    an SQLite catalogue raises :class:`errdex.store.StoreError`, as does a broken one.
    The answers are :class:`LiveAnswer` objects: :func:`errdex.integrations.block.render_text`
    shows their condition, permalink and fix from the envelope they carry. With
    ``build_index=False`` a catalogue whose match index was never built raises
    :class:`NoIndexYet` instead of building it (errdex's excepthook: a failing program
    should not hang for a minute).
    """
    given = db if db is not None else default_db()
    if isinstance(given, str) and is_server_url(given):
        return _answers(exc, given, top, build_index)
    path = Path(given) if given is not None else None
    if path is None or not path.exists():
        return []
    if not looks_like_catalogue(path):
        raise StoreError(f"{path} is not an errdex catalogue (not an SQLite file)")
    return _answers(exc, path, top, build_index)


def _answers(exc: BaseException, path: str | Path, top: int, build_index: bool) -> list[Answer]:
    errors = errors_from_exception(exc)
    if not errors:
        return []
    try:
        with open_store(path) as store:
            if not build_index and not index_ready(store):
                raise NoIndexYet(f"the catalogue {shown_url(str(path))} has no match index yet")
            return _explained(errors, store, top, shown_url(str(path)))
    except sqlite3.Error as error:
        raise StoreError(f"cannot read errdex catalogue {path}: {error}") from error


def _explained(errors: list[PastedError], store: Store, top: int, db: str) -> list[Answer]:
    out: list[Answer] = []
    for answer, chain in zip(answer_errors(errors, store, top), chains(errors), strict=True):
        live = LiveAnswer(**vars(answer), db=db, errors=chain)
        if live.candidates:
            best = live.candidates[0]
            live.envelope = store.get(best.id)
            live.local_path = _local_path(best.filePath, best.lineNumber, chain)
        out.append(live)
    return out
