"""What a package file's text shows (:mod:`.text_facts`), kept between processes.

A raise whose message rests on a package's attribute stores reads every file of the
package as text (:func:`.text_facts.package_facts`): on jax, 668 files and 0.6 s. A
process keeps those facts for its other files, but ``errdex scan`` is a new process each
time, and an edit anywhere in the package reads such a raising file again. The facts of
one file are a function of its text alone, so the scan (:mod:`errdex.scan_text_facts`)
keeps them in its cache by path and digest of the text, and a new process takes them
from there instead of reading each text again.
"""

from __future__ import annotations

import hashlib
import os
from collections import Counter
from collections.abc import Callable, Hashable, Iterator
from contextlib import contextmanager

__all__ = [
    "FileFacts",
    "Stored",
    "active",
    "first_look",
    "found",
    "keeping",
    "made_before",
    "merge",
    "note",
    "text_digest",
]

#: One file's attribute stores, names defined at some indentation, top-level classes
#: with their bases.
FileFacts = tuple[Counter[str], set[str], list[tuple[str, list[str]]]]
#: Facts by (path, :func:`text_digest` of the text).
Stored = dict[tuple[str, str], FileFacts]


class _Kept:
    """The stored facts (loaded on first need) and those made since, for one scan."""

    def __init__(self, load: Callable[[], Stored]) -> None:
        self.load = load
        self.stored: Stored | None = None
        self.fresh: Stored = {}
        #: Texts and packages (by :mod:`.text_facts`' keys) whose facts this scan has
        #: checked it keeps.
        self.seen: set[Hashable] = set()
        #: The scan's process: a worker forked from it must not use its cache connection.
        self.pid = os.getpid()


_KEPT: list[_Kept] = []


def _kept() -> _Kept | None:
    """The innermost scan's store, when this is the process it was opened in."""
    return _KEPT[-1] if _KEPT and _KEPT[-1].pid == os.getpid() else None


def text_digest(text: str) -> str:
    return hashlib.blake2b(text.encode("utf-8", "surrogatepass"), digest_size=16).hexdigest()


@contextmanager
def keeping(load: Callable[[], Stored]) -> Iterator[Stored]:
    """Within this block, :func:`found` answers from what ``load`` returns (called
    once, when first needed); yields the facts made meanwhile, to keep."""
    kept = _Kept(load)
    _KEPT.append(kept)
    try:
        yield kept.fresh
    finally:
        _KEPT.remove(kept)


def found(rel: str, text: str) -> tuple[str, FileFacts | None]:
    """The text's digest and its stored facts (None: none are, or no scan keeps any)."""
    kept = _kept()
    if kept is None:
        return "", None
    if kept.stored is None:
        kept.stored = kept.load()
    digest = text_digest(text)
    return digest, kept.stored.get((rel, digest))


def note(rel: str, digest: str, facts: FileFacts) -> None:
    """Facts just made from the text with ``digest``: kept by the scan in progress."""
    kept = _kept()
    if kept is not None and digest:
        kept.fresh[(rel, digest)] = facts


def first_look(key: Hashable) -> bool:
    """Whether a scan in this process keeps facts and sees ``key`` (a package's facts
    made before it) for the first time: its files are then checked by
    :func:`made_before`, once per scan, not once per file that asks."""
    kept = _kept()
    if kept is None or key in kept.seen:
        return False
    kept.seen.add(key)
    return True


def made_before(key: tuple[str, int, int], text: str, facts: FileFacts) -> None:
    """Facts of ``text`` the process made before this scan (an earlier scan of it: tags
    one after another, another cache; forked into a worker): kept by this scan too
    unless its cache holds them, as if made now. Checked once per text and scan."""
    kept = _kept()
    if kept is None or key in kept.seen:
        return
    kept.seen.add(key)
    digest, stored = found(key[0], text)
    if stored is None:
        note(key[0], digest, facts)


def active() -> bool:
    """Whether a scan in this process keeps what it reads (a worker need send none back)."""
    return _kept() is not None


def merge(facts: Stored) -> None:
    """Facts a worker process made (under its own :func:`keeping`): kept by the scan."""
    kept = _kept()
    if kept is not None:
        kept.fresh.update(facts)
