"""pytest's report layouts: ``E`` blocks, ``path:line:`` locations, sections and summaries.

A failure's pieces arrive in an order that depends on ``--tb``: in ``short`` the frames come
first and the ``E`` block last; in ``long`` the ``E`` block comes before the last location
line; in ``line`` an ``E`` block is followed by ``/abs/path.py:12: Class: message``. So frames
and the exception are gathered in a :class:`Failure` and emitted once it is complete.
"""

from __future__ import annotations

import bisect
import re
from collections.abc import Sequence
from dataclasses import dataclass, field

from errdex.match._paste_lines import (
    CAP,
    ExceptionLine,
    assertion_line,
    parse_exception_line,
    split_notes,
    trim_trailing_blank,
)
from errdex.match._paste_model import Frame, PastedError

E_START = re.compile(r"E( {3,})(?=\S)")
SECTION = re.compile(r"(?:={3,}|_{3,})(?: |$)")
ENTRY_SEPARATOR = re.compile(r"(?:_ ){3,}_?\s*$")
SUMMARY = re.compile(r"(?:FAILED|ERROR) (?P<node>\S.*?)(?: - (?P<text>.*))?$")
LOCATION = re.compile(r"(?P<path>(?:[A-Za-z]:)?[^\s:][^:]*):(?P<line>\d+): ?(?P<rest>.*)$")
DEF = re.compile(r"\s{4,}(?:async\s+)?def\s+(?P<name>[^\W\d]\w*)\s*\(")
SOURCE_MARK = re.compile(r">\s{3,}(?P<src>\S.*)$")
_NOT_RAISED = ("DID NOT RAISE", "DID NOT WARN")


@dataclass(slots=True)
class Failure:
    """What is known so far of the failure being read."""

    frames: list[Frame] = field(default_factory=list)
    error: PastedError | None = None
    function: str | None = None
    source: str | None = None

    def frame_here(self, path: str, line: int) -> Frame:
        """The frame a ``long`` location line closes, from the ``def`` and ``>`` lines seen."""
        frame = Frame(path, line, self.function, self.source)
        self.function = self.source = None
        return frame


def read_e_block(lines: Sequence[object], start: int, width: int) -> tuple[list[str], int]:
    """The text of an ``E`` block: ``E`` plus ``width`` spaces, or ``width + 1`` spaces."""
    text: list[str] = []
    at = start
    pad = " " * (width + 1)
    while at < len(lines):
        line = lines[at]
        if not isinstance(line, str):
            break
        if line[:1] == "E" and (len(line) == 1 or line[1] == " "):
            body = line[1:]
            text.append(body[min(width, len(body) - len(body.lstrip(" "))) :])
        elif at > start and line.startswith(pad):
            text.append(line[width + 1 :])
        else:
            break
        at += 1
    return text, at


def exception_text(text: list[str], source_format: str) -> PastedError:
    """An error from ``format_exception_only`` text (an ``E`` block or a summary's tail)."""
    text = trim_trailing_blank(text) if text else [""]
    head = _first_line(text[0])
    if head is None:
        cls, first = None, text[0]
    else:
        cls, first = head
    message, notes = split_notes("\n".join([first, *text[1:]]))
    return PastedError(cls, message, [], None, source_format, notes)


def _first_line(line: str) -> ExceptionLine | None:
    """The class and first message line, or AssertionError for a rewritten ``assert``."""
    return parse_exception_line(line, strict=False) or assertion_line(line)


def location_error(rest: str) -> ExceptionLine | None:
    """The tail of a closing location line: ``ValueError``, ``Class: message``, ``assert …``."""
    return _first_line(rest[:CAP])


def is_not_raised(error: PastedError) -> bool:
    """``pytest.raises``/``warns`` complaining that nothing happened: not the library's error."""
    cls = error.error_class or ""
    return cls.rpartition(".")[2] == "Failed" and error.message.startswith(_NOT_RAISED)


def drop_repeated_summaries(errors: list[PastedError], summaries: set[int]) -> list[PastedError]:
    """Drop ``FAILED x - Class: msg`` lines that repeat an error the report already showed.

    pytest cuts long summary lines with ``...``, so a summary repeats an error when that error's
    message starts with what the summary kept; sorted first lines make each check a bisection.
    """
    shown: dict[str, list[str]] = {}
    whole: list[str] = []  # ``Class: message`` as shown, for a summary cut inside the class
    for error in errors:
        if id(error) not in summaries:
            shown.setdefault(_short(error.error_class), []).append(error.message)
            if error.error_class:
                whole.append(f"{error.error_class}: {error.message}")
    for messages in (*shown.values(), whole):
        messages.sort()
    return [
        e
        for e in errors
        if id(e) not in summaries or not (_repeats(e, shown) or _cut_in_class(e, whole))
    ]


def _short(cls: str | None) -> str:
    """The class without its module: the summary and the ``E`` block may differ there."""
    return (cls or "").rpartition(".")[2]


def _repeats(summary: PastedError, shown: dict[str, list[str]]) -> bool:
    """Whether a shown message of the same class starts with the summary's text."""
    return _starts_one(shown.get(_short(summary.error_class), []), summary.message)


def _cut_in_class(summary: PastedError, whole: list[str]) -> bool:
    """A summary cut before its class ended (``FAILED t.py::x - packaging.requirements.
    InvalidR...``) reads as a message with no class: it repeats an error shown if that
    error's ``Class: message`` starts with it."""
    return (
        summary.error_class is None
        and summary.message.endswith("...")
        and _starts_one(whole, summary.message)
    )


def _starts_one(texts: list[str], summary: str) -> bool:
    """Whether one of the sorted ``texts`` starts with the summary, its ``...`` cut off."""
    prefix = summary.removesuffix("...")
    at = bisect.bisect_left(texts, prefix)
    return at < len(texts) and texts[at].startswith(prefix)
