"""Parts of a file an extractor read but left out, for the scan's summary.

A file an extractor cannot read at all is skipped whole (``ExtractError``) and the scan
names it with its reason. A part it could not read inside a file it did read (a Cython
function whose signature its argument reader does not understand: that function's
generated argument errors are missing, the file's raises stay) would otherwise vanish
without a word: the extractor notes it here, and the scan counts and names it beside the
skipped files (``errdex scan``'s "parts left out").
"""

from __future__ import annotations

from collections.abc import Iterator
from contextlib import contextmanager
from contextvars import ContextVar

__all__ = ["collecting", "note_left_out"]

_NOTES: ContextVar[list[str] | None] = ContextVar("errdex_left_out", default=None)


def note_left_out(what: str) -> None:
    """Note that ``what`` (a sentence naming the part and why) was left out of the file
    being extracted; nothing when no scan is collecting."""
    notes = _NOTES.get()
    if notes is not None and what not in notes:
        notes.append(what)


@contextmanager
def collecting() -> Iterator[list[str]]:
    """The notes made while the block extracts one file, in the order made."""
    notes: list[str] = []
    token = _NOTES.set(notes)
    try:
        yield notes
    finally:
        _NOTES.reset(token)
