"""``errdex.match()``: from pasted text to ranked records, with the index cached on disk."""

from __future__ import annotations

import contextlib
import hashlib
import os
import re
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from errdex.match._paste_model import (
    BARE,
    EXCEPTION_GROUP,
    LOGGING,
    PYTEST,
    TRACEBACK,
    WARNING,
    PastedError,
)
from errdex.match.index import MatchIndex
from errdex.match.index_file import cache_root
from errdex.match.rank import Candidate, Clue, Scored, rank
from errdex.match.rank_frames import frame_place, hands_over, raises_nothing
from errdex.match.rank_lone import undecided_reason
from errdex.match.server_index import server_index_path
from errdex.match.versions import attach, store_tables
from errdex.store import SqliteStore, Store, StoreError, is_server_url, open_store
from errdex.template import MessageTemplate

__all__ = [
    "UNDECIDED",
    "Answer",
    "answer_errors",
    "answers",
    "cached_index_path",
    "chains",
    "errors_in",
    "index_for",
    "index_path",
    "match",
    "match_errors",
]

#: Chained causes printed before the final error still point somewhere, but less.
CAUSE_WEIGHT = 0.7
#: ... and less than even when the final error's traceback is whole: it was raised at its
#: innermost frame, or below it in code that prints none, never at a cause's site
#: elsewhere (one on that frame's line is the final error's own evidence).
CAUSE_WEIGHT_WHOLE = 0.45

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


def index_for(store: Store) -> MatchIndex:
    """The store's index: from memory, else from disk, else built (and saved) once; a
    database server's index is keyed by its URL, saved in the cache (no folder is beside
    it): :func:`errdex.match.server_index.server_index_path`."""
    version = store.data_version()
    on_disk = isinstance(store, SqliteStore) and store.path != ":memory:"
    key = str(Path(store.path).resolve()) if on_disk else f":memory:{id(store)}"
    server = server_index_path(store.path) if is_server_url(store.path) else None
    if server is not None:
        key = store.path
    with _lock:
        cached = _cache.get(key)
        if cached is not None and cached.version == version:
            return cached
        index = _saved(Path(store.path), version) if on_disk else None
        if server is not None:
            index = MatchIndex.load(server)
            index = index if index is not None and index.version == version else None
        if index is None:
            index = MatchIndex.build(store.iter_envelopes(), version=version)
            if on_disk:
                _save(index, Path(store.path), version)
            elif server is not None:
                with contextlib.suppress(OSError):  # unsaved, it still answers
                    index.save(server)
        attach(index, store_tables(store))  # pastes from older releases (match/versions.py)
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
                import shutil  # here: shutil loads lzma and bz2, which a hook need not pay

                shutil.rmtree(old, ignore_errors=True)


def clues_from(errors: list[PastedError]) -> list[Clue]:
    """The final error counts fully; the causes chained before it count less."""
    clues = []
    cause_weight = CAUSE_WEIGHT_WHOLE if errors and _whole(errors[-1]) else CAUSE_WEIGHT
    for position, error in enumerate(errors):
        final = position == len(errors) - 1
        clues.append(
            Clue(
                error_class=error.error_class,
                message=error.message,
                frames=tuple((f.path, f.line, f.function) for f in error.frames),
                weight=1.0 if final else cause_weight,
                truncated=error.truncated,
                final=final,
                calls=_called(error.frames[-1].source) if error.frames else (),
                whole=_whole(error),
                hands_over=bool(error.frames) and hands_over(error.frames[-1].source),
                silent_line=bool(error.frames) and raises_nothing(error.frames[-1].source),
                warning=error.source_format == WARNING,
                modules_read=_modules_read(error) if error.source_format == WARNING else (),
            )
        )
    return clues


_CALLED = re.compile(r"([A-Za-z_][A-Za-z0-9_]*)\s*\(")
#: Formats that print every Python frame an error passed: CPython's traceback, also as
#: logging prints it and inside an exception group; and pytest's report, whose ``long``,
#: ``short``, ``auto`` and ``native`` styles print every frame from the test function
#: in, but for those of a function that sets ``__tracebackhide__`` (then the printed line
#: calls the hidden function, whose sites :func:`.rank_frames.rule_out_by_innermost`
#: keeps); its ``line`` style prints one location with no function, which rules nothing
#: out. IPython leaves out frames by more rules than that: not whole.
_WHOLE_FORMATS = frozenset({TRACEBACK, LOGGING, EXCEPTION_GROUP, PYTEST})
#: A note saying frames were left out (JAX: "JAX has removed its internal frames").
_FRAMES_LEFT_OUT = re.compile(
    r"\b(?:removed|exclude[sd]?|hidden|hides|filtered)\b.*\bframes\b", re.I
)


def _whole(error: PastedError) -> bool:
    """Whether the error's frames are all of them (``Clue.whole``)."""
    return (
        error.source_format in _WHOLE_FORMATS
        and bool(error.frames)
        and not any(_FRAMES_LEFT_OUT.search(note) for note in error.notes)
    )


#: ``from a.b import c`` and ``a.b.c`` on a line: modules whose names it reads.
_FROM_IMPORT = re.compile(r"\bfrom\s+([A-Za-z_][\w.]*)\s+import\b")
_DOTTED = re.compile(r"(?<![\w.])([A-Za-z_]\w*(?:\.[A-Za-z_]\w*)+)")


def _modules_read(error: PastedError) -> tuple[str, ...]:
    """The modules (as paths: ``click/core``) a warning's printed line reads a name of."""
    source = error.frames[-1].source if error.frames else None
    if not source:
        return ()
    found = [m.replace(".", "/") for m in _FROM_IMPORT.findall(source)]
    found += [chain.rsplit(".", 1)[0].replace(".", "/") for chain in _DOTTED.findall(source)]
    return tuple(dict.fromkeys(found))


def _called(source: str | None) -> tuple[str, ...]:
    """The names a frame's source line calls, innermost last: what C it may have reached."""
    return tuple(_CALLED.findall(source)) if source else ()


#: A paste with no recognisable error but this few lines is taken as a bare message.
BARE_MESSAGE_LINES = 20


def errors_in(text: str | bytes) -> list[PastedError]:
    """The errors of a paste; a short text with no class is taken as a bare message
    (people often paste only the message line)."""
    from errdex.match._paste_text import normalize
    from errdex.match.foreign import TRACE_PARSERS, foreign_errors
    from errdex.match.paste import parse_paste  # not needed to answer parsed errors (the hook)

    if TRACE_PARSERS:
        errors = foreign_errors(normalize(text))
        if errors:
            return errors
    errors = parse_paste(text)
    if errors:
        return errors
    if isinstance(text, bytes):
        text = text.decode("utf-8", errors="replace")
    bare = text.strip()
    if bare and bare.count("\n") < BARE_MESSAGE_LINES:
        return [PastedError(error_class=None, message=bare, frames=[], source_format="bare")]
    return []


#: What one answer says about its error.
MATCHED = "matched"  # candidates below
NO_MATCH = "no match"  # the class is catalogued, but no site's message fits
NOT_CATALOGUED = "not catalogued"  # no catalogued site raises this class
NO_ERROR = "no error"  # the paste held no error: not even its text matches a message
#: Candidates below, a group the text cannot decide: the interpreter prints the same
#: message (``KeyError: 'foo'``), so the answer may be none of them (:mod:`.rank_lone`).
UNDECIDED = "undecided"


@dataclass
class Answer:
    """One error of a paste (a pytest failure, a traceback with its chain) and its candidates."""

    error: int  # position among the paste's answers, from 0
    error_class: str | None
    message: str
    status: str  # MATCHED, UNDECIDED, NO_MATCH, NOT_CATALOGUED or NO_ERROR
    candidates: list[Candidate] = field(default_factory=list)
    #: Why nothing answers it, where more can be said than the status (see ``ruled_out``),
    #: or why its group cannot be decided (UNDECIDED).
    reason: str = ""
    #: Sites whose message fits but which the paste's traceback shows did not raise it,
    #: when no other site does: the raise is below the innermost frame, not catalogued.
    ruled_out: list[Candidate] = field(default_factory=list)

    @property
    def group(self) -> list[Candidate]:
        """The sites the paste cannot tell apart, confidence shared among them (``[]``
        when the best candidate stands alone): the text decides the group, not the site."""
        return [c for c in self.candidates if c.group == 0]

    @property
    def pasted(self) -> str:
        """The error as pasted, on one line: ``Class: first line of the message``."""
        first = self.message.split("\n", 1)[0]
        text = f"{self.error_class}: {first}" if self.error_class else first
        return text if len(text) <= PASTED_CHARS else text[: PASTED_CHARS - 1] + "…"

    def to_json(self) -> dict[str, Any]:
        return {
            "error": self.error,
            "errorClass": self.error_class,
            "message": self.message,
            "status": self.status,
            "candidates": [c.to_json() for c in self.candidates],
            "group": _group_json(self.group, self.reason if self.status == UNDECIDED else None),
            "reason": self.reason,
            "ruledOut": [c.to_json() for c in self.ruled_out],
        }


def _group_json(group: list[Candidate], undecided: str | None) -> dict[str, Any] | None:
    """One answer's group as data: its size, the confidence its sites share, their ids,
    and whether the text leaves more than them open (``undecided``: why, else null)."""
    if not group:
        return None
    return {
        "size": group[0].groupSize,
        "confidence": round(sum(c.confidence for c in group), 4),
        "ids": [c.id for c in group],
        "undecided": undecided is not None,
        "reason": undecided,
    }


#: How much of a pasted error each candidate repeats (``Candidate.pasted``).
PASTED_CHARS = 200


def chains(errors: list[PastedError]) -> list[list[PastedError]]:
    """The paste's errors cut into independent ones: a chain (``raise … from``, handling)
    stays whole, and an exception group's members go with the group that follows them."""
    out: list[list[PastedError]] = []
    current: list[PastedError] = []
    for error in errors:
        current.append(error)
        if error.relation is None and error.source_format != EXCEPTION_GROUP:
            out.append(current)
            current = []
    if current:
        out.append(current)
    return out


def answer_errors(errors: list[PastedError], store: Store, top: int = 5) -> list[Answer]:
    """One answer per independent error of the paste, in the order printed."""
    if not errors:
        return []
    index = index_for(store)
    answers = []
    for position, chain in enumerate(chains(errors)):
        final = chain[-1]
        ranked = rank(clues_from(chain), index, top=top)
        found = [_candidate(store, index, scored) for scored in ranked]
        if final.source_format == BARE and final.error_class is None:
            found = [c for c in found if _says_enough(c, final.message)]
            thrown = _base_error(final) if not any(s.full_match for s in ranked) else None
            if thrown is not None:
                fits = [s for s in rank(clues_from([thrown]), index, top=top) if s.full_match]
                if fits:
                    found, final = [_candidate(store, index, scored) for scored in fits], thrown
        answer = Answer(position, final.error_class, final.message, MATCHED, found)
        for candidate in found:
            candidate.error, candidate.pasted = position, answer.pasted
        if found and all(c.ruledOut for c in found):
            answer.candidates, answer.ruled_out = [], found
            answer.status, answer.reason = NOT_CATALOGUED, _below_innermost(final, len(found))
        elif found and found[0].groupReason:
            answer.status, answer.reason = UNDECIDED, _undecided(final, found[0].groupSize)
        elif not found:
            answer.status = _status(final, index)
        answers.append(answer)
    return answers


#: Literal characters a message with no class and no frame must share with a template.
PROSE_LITERAL_CHARS = 8
#: The first line JavaScript prints for its base ``Error``, which the paste parser takes
#: for prose (``Error: could not connect`` from a CLI) when it stands alone.
_BASE_ERROR = re.compile(r"Error: (?P<message>\S.*)", re.DOTALL)


def _base_error(error: PastedError) -> PastedError | None:
    """``Error: msg`` pasted alone, read as class ``Error`` (its answers are taken only
    where the whole line fits no template and a template fits ``msg``, so prose of this
    shape that fits nothing still answers "no error")."""
    found = _BASE_ERROR.fullmatch(error.message)
    if found is None:
        return None
    return PastedError("Error", found["message"], source_format=error.source_format)


def _says_enough(candidate: Candidate, message: str) -> bool:
    """Whether a bare message, with no class to say it is an error, fits ``candidate``
    by more than a word or two: ``{} for {!r}`` fits any sentence holding " for "."""
    literal = len(message) - sum(len(v) for v in candidate.holes.values())
    return literal >= PROSE_LITERAL_CHARS and 3 * literal >= len(message)


def _below_innermost(error: PastedError, sites: int) -> str:
    """Why an error whose every fitting site its traceback rules out is not catalogued."""
    frame = error.frames[-1]
    return (
        f"not catalogued: the traceback ends at {frame_place(frame.path, frame.line)} in "
        f"{frame.function}(), a line that "
        "raises nothing itself, so the error was raised below it by code that prints no "
        "frame (compiled code or the interpreter), which the catalogue does not hold; "
        f"{sites} catalogued site(s) raising this message elsewhere would have printed a "
        "frame of their own"
    )


def _undecided(error: PastedError, sites: int) -> str:
    """Why an undecided group's answer is no answer yet (:data:`UNDECIDED`)."""
    cls = (error.error_class or "").rpartition(".")[2]
    return (
        f"undecided: this {cls} is {undecided_reason(cls)} ({sites} catalogued site(s) raise "
        f"{cls} with one value and nothing else)"
    )


def _status(error: PastedError, index: MatchIndex) -> str:
    """Why nothing fits: no error at all, a class no site raises, or no message fits."""
    if error.source_format == BARE and error.error_class is None:
        return NO_ERROR
    if error.error_class and not index.has_class(error.error_class.rpartition(".")[2]):
        return NOT_CATALOGUED
    return NO_MATCH


def match_errors(errors: list[PastedError], store: Store, top: int = 5) -> list[Candidate]:
    """Rank the records of ``store`` for already parsed errors: the candidates of every
    answer, answer by answer (``Candidate.error``), each answer's best first."""
    return [c for answer in answer_errors(errors, store, top) for c in answer.candidates]


def _hole_names(template: MessageTemplate) -> list[str]:
    """What each hole's value is called: its name, or for a positional hole (``%s``,
    ``{}``) how the source writes it and its place (``%s#2``)."""
    names = []
    for position, hole in enumerate(template.holes, 1):
        names.append(f"{hole.text}#{position}" if hole.name.isdigit() else hole.name)
    return names


def _candidate(store: Store, index: MatchIndex, scored: Scored) -> Candidate:
    entry = index.entry(scored.index)
    envelope = store.get(entry.id)
    record: dict[str, Any] = envelope["record"] if envelope else {}
    holes = scored.holes
    template = ((envelope or {}).get("evidence") or {}).get("site", {}).get("template")
    if template is not None and holes:
        names = _hole_names(MessageTemplate.from_json(template))
        if len(names) >= len(holes):  # fewer values: a message cut short
            named: dict[str, str] = {}
            for name, value in zip(names, holes.values(), strict=False):
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
        group=0 if scored.group_size > 1 or scored.undecided else None,
        groupSize=scored.group_size,
        ruledOut=scored.ruled_out,
        groupReason=undecided_reason(entry.error_class) if scored.undecided else None,
    )


def answers(text: str | bytes, db: str | Path | Store = "errdex.db", top: int = 5) -> list[Answer]:
    """One :class:`Answer` per error of the paste (each pytest failure, each traceback with
    its chain), in the order printed; ``[]`` when the paste holds nothing at all."""
    errors = errors_in(text)
    if not isinstance(db, (str, Path)):
        return answer_errors(errors, db, top)
    if not is_server_url(db) and not Path(db).exists():
        raise StoreError(f"no errdex database at {db}: run `errdex scan` first")
    with open_store(db) as store:
        return answer_errors(errors, store, top)


def match(text: str | bytes, db: str | Path | Store = "errdex.db", top: int = 5) -> list[Candidate]:
    """The records that best explain a pasted message, traceback, pytest or notebook output.

    Each candidate has a confidence in [0, 1], the values that filled its holes and the
    reasons it was chosen. A paste with several errors (pytest's failures) gets up to
    ``top`` candidates for each, answer by answer (``Candidate.error`` says which), each
    answer's best first; ``[]`` when nothing matches or the paste holds no error.
    """
    return [c for answer in answers(text, db, top) for c in answer.candidates]
