"""Parse what a developer pastes back: tracebacks, pytest and IPython output, warnings, logs.

:func:`parse_paste` finds every error in the text and returns them in the order printed, so
that the last one is the error finally raised. Each error keeps its class and message as
printed (ANSI colour codes removed), its frames outermost first, and how it leads to the next
error (``cause`` for ``raise ... from``, ``context`` for an error raised while handling).

Two orderings are worth knowing:

* an exception group's members are listed before the group's own chain, so the group (the
  error finally raised) still comes last and every ``relation`` points at its neighbour;
* a logging record followed by a traceback (``logger.exception``) is reported as the
  traceback's errors, the last of them carrying the record's own message as its first note.

A message runs from its ``Class: `` line to the next line that starts something else (a new
traceback, a chain separator, a pytest section, a log record, a warning, a prompt), so text
pasted after an error without such a line is read as part of its message.

:mod:`._paste_stream` holds the line stream, message reading and the output in chain order;
this module holds the handlers that recognise each kind of line. The parser reads each
line a bounded number of times, looks at most at the first
:data:`~errdex.match._paste_lines.CAP` characters of a line to classify it, and uses only
linear regular expressions: time grows linearly with the size of the paste.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field

from errdex._gc import gc_paused
from errdex.match._paste_console import parse_log
from errdex.match._paste_frames import ARROW, Trace, parse_frame
from errdex.match._paste_groups import GROUP_START, Item, Members, build, collect
from errdex.match._paste_lines import (
    CAP,
    CHAIN,
    IPYTHON_HEADER,
    TRACEBACK_HEADER,
    WARNING_LINE,
    ExceptionLine,
    parse_exception_line,
    split_notes,
    trim_trailing_blank,
)
from errdex.match._paste_model import (
    IPYTHON,
    LOGGING,
    PYTEST,
    TRACEBACK,
    WARNING,
    Frame,
    PastedError,
    Relation,
)
from errdex.match._paste_pytest import (
    DEF,
    E_START,
    ENTRY_SEPARATOR,
    LOCATION,
    SOURCE_MARK,
    SUMMARY,
    Failure,
    drop_repeated_summaries,
    exception_text,
    location_error,
    read_e_block,
)
from errdex.match._paste_screen import Screen
from errdex.match._paste_stream import Stream
from errdex.match._paste_text import normalize

__all__ = ["Frame", "PastedError", "Relation", "parse_paste"]

_PYTEST_HEADER = re.compile(r"(?:={3,}|_{3,}) .* (?:={3,}|_{3,})\s*$")
_FRAME_WORDS = ("File ", "Cell In", "Input In")
_MARKER = re.compile(r"\s*[~^]+\s*$")
_LOG_LOOKAHEAD = 20
#: Lines a traceback inside a warning's message may span, at most.
_EMBED_LOOKAHEAD = 2000


def parse_paste(text: str | bytes) -> list[PastedError]:
    """Every error in the paste, in the order printed; the last is the one finally raised."""
    context = _Context()
    with gc_paused():  # millions of small acyclic objects: no full GC scans
        clean = normalize(text)
        errors = _Parser(clean.split("\n"), context, Screen.of_text(clean)).run()
    if context.summaries:
        errors = drop_repeated_summaries(errors, context.summaries)
    if context.pytest:
        for error in errors:
            if error.source_format == TRACEBACK:
                error.source_format = PYTEST
    return errors


@dataclass(slots=True)
class _Context:
    """What the whole paste has shown so far, shared by nested group parsers."""

    pytest: bool = False
    summaries: set[int] = field(default_factory=set)


class _Parser(Stream):
    """One stream of lines; each group member is parsed by a parser of its own."""

    def __init__(
        self,
        items: Sequence[Item],
        context: _Context,
        screen: Screen | None = None,
        *,
        in_group: bool = False,
    ) -> None:
        super().__init__(
            items, screen if screen is not None else Screen.of_items(items), in_group=in_group
        )
        self.context = context
        self.failure = Failure()
        self.handlers: tuple[Callable[[str, str], bool], ...] = (
            self._chain,
            self._traceback,
            self._ipython,
            self._group,
            self._frames,
            self._section,
            self._e_block,
            self._summary,
            self._logging,
            self._warning,
            self._location,
            self._pytest_source,
            self._bare,
        )

    def run(self) -> list[PastedError]:
        """Parse the whole stream and return its errors."""
        items, end = self.items, len(self.items)
        while (at := self.screen.next_start(self.at, end)) < end:
            self.at = at
            item = items[at]
            if isinstance(item, Members):
                self._members(item)
            else:
                self._step(item)
        self.at = end
        self._flush_failure()
        self._unlink()
        return self.out

    def _step(self, line: str) -> None:
        """Offer the line to each handler in turn; skip it if none takes it."""
        head = line[:CAP]
        start = self.at
        for handler in self.handlers:
            if handler(line, head):
                break
        if self.at == start:  # nothing consumed the line: skip it (and never loop forever)
            self.at += 1

    # -- tracebacks -----------------------------------------------------------------------

    def _chain(self, line: str, head: str) -> bool:
        """``The above exception was the direct cause…`` / ``During handling…``."""
        match = CHAIN.match(head)
        if match is None:
            return False
        self._flush_failure()
        relation: Relation = "cause" if match["cause"] else "context"
        if self.out and not self._linked():
            self.out[-1].relation = relation
        self.at += 1
        return True

    def _traceback(self, line: str, head: str) -> bool:
        """``Traceback (most recent call last):``, possibly indented as a whole."""
        match = TRACEBACK_HEADER.match(head)
        if match is None:
            return False
        if match["indent"] and self.failure.function is not None:
            return False  # a docstring's doctest in the source ``--tb=long`` lists
        self._read_traceback(self.at + 1, len(match["indent"]), None, ipython=False)
        return True

    def _ipython(self, line: str, head: str) -> bool:
        """IPython's ``ValueError      Traceback (most recent call last)`` header."""
        match = IPYTHON_HEADER.match(head)
        if match is None or parse_exception_line(match["cls"], strict=False) is None:
            return False
        self._read_traceback(self.at + 1, 0, match["cls"], ipython=True)
        return True

    def _frames(self, line: str, head: str) -> bool:
        """A frame with no header above it: the paste starts mid-traceback."""
        parsed = parse_frame(line, ipython=False)
        if parsed is None:
            return False
        base = 0 if parsed.ipython else max(0, parsed.indent - 2)
        self._read_traceback(self.at, base, None, ipython=parsed.ipython)
        return True

    def _read_traceback(self, start: int, base: int, cls: str | None, *, ipython: bool) -> None:
        """Frames, then the exception line and its message; or frames alone if it is missing."""
        self._flush_failure()
        trace = Trace(ipython)
        items, end = self.items, len(self.items)
        at = start
        while at < end:
            item = items[at]
            if not isinstance(item, str):
                break
            line = item[base:] if base and item[:base].isspace() else item
            if self._trace_line(trace, line):
                at += 1
                continue
            self.at = at
            if self._ends_here(at, line):
                break
            exception = parse_exception_line(line, strict=False)
            if exception is not None:
                self._exception(exception, trace, base)
                return
            break
        self.at = at
        frames = trace.close()
        if frames or cls is not None:
            self._emit(PastedError(cls, "", frames, None, self._format(cls, trace), []))

    def _trace_line(self, trace: Trace, line: str) -> bool:
        """Consume a frame header, its code, markers, IPython context lines or a blank line."""
        first = line[:1]
        if first == " " or first == "\t":
            if trace.expect_source and not line.lstrip().startswith(_FRAME_WORDS):
                if not line.isspace() and _MARKER.match(line, 0, CAP) is None:
                    trace.code(line.strip())
                return True
        elif not line:
            return True
        header = parse_frame(line, ipython=trace.ipython)
        if header is not None:
            trace.add(header)
            return True
        if first == "-":
            arrow = ARROW.match(line, 0, CAP)
            if arrow is not None and trace.open is not None:
                trace.arrow(int(arrow["line"]), arrow["src"].strip())
                return True
        return first == " " or first == "\t" or line.isspace()

    def _exception(self, exception: ExceptionLine, trace: Trace, base: int) -> None:
        """The traceback's last line and the rest of its message."""
        frames = trace.close()
        message, notes = self._read_message(exception.first, base)
        fmt = self._format(exception.cls, trace)
        self._emit(PastedError(exception.cls, message, frames, None, fmt, notes))

    # -- exception groups -----------------------------------------------------------------

    def _group(self, line: str, head: str) -> bool:
        """``  + Exception Group Traceback``: the group and its members, parsed recursively."""
        if GROUP_START.match(head) is None:
            return False
        self._flush_failure()
        tokens, end = collect(self.items, self.at)
        if not tokens:
            return False
        nested = _Parser(build(tokens, tokens[0].depth), self.context, in_group=True)
        errors = nested.run()
        if not self._linked():
            self.chain_start = len(self.out)
        self._hoist(errors[: nested.chain_start])
        for error in errors[nested.chain_start :]:
            self._emit(error)
        self.at = end
        return True

    def _members(self, block: Members) -> None:
        """The members of the group just read, listed before that group's chain."""
        found: list[PastedError] = []
        for tokens in block.members:
            stream = build(tokens, block.depth)
            found.extend(_Parser(stream, self.context, in_group=True).run())
        self._hoist(found)
        self.at += 1

    # -- pytest ---------------------------------------------------------------------------

    def _flush_failure(self) -> None:
        """Emit the pytest failure being gathered, if it has its exception."""
        failure, self.failure = self.failure, Failure()
        if failure.error is None:
            return
        failure.error.frames = failure.frames
        self.context.pytest = True
        self._emit(failure.error)

    def _section(self, line: str, head: str) -> bool:
        """``=== FAILURES ===``, ``___ test_x ___`` and the ``_ _ _`` between entries."""
        if ENTRY_SEPARATOR.match(head) is not None:
            self.failure.function = self.failure.source = None
            self.at += 1
            return True
        if _PYTEST_HEADER.match(head) is None:
            return False
        self._flush_failure()
        self.context.pytest = True
        self.at += 1
        return True

    def _e_block(self, line: str, head: str) -> bool:
        """pytest's ``E   Class: message`` lines."""
        match = E_START.match(head)
        if match is None:
            return False
        if self.failure.error is not None:
            self._flush_failure()
        text, self.at = read_e_block(self.items, self.at, len(match[1]))
        self.failure.error = exception_text(text, PYTEST)
        return True

    def _location(self, line: str, head: str) -> bool:
        """``path:12: `` (long), ``path:12: in f`` (short) or ``path:12: Class: msg`` (line)."""
        match = LOCATION.match(head)
        if match is None:
            return False
        rest = line[match.start("rest") :]
        path, number = match["path"], int(match["line"])
        if not rest.strip():
            self.failure.frames.append(self.failure.frame_here(path, number))
        elif rest.startswith("in "):
            self._short_frame(path, number, rest[3:].strip())
        else:
            return self._closing_location(path, number, rest)
        self.at += 1
        return True

    def _short_frame(self, path: str, number: int, function: str) -> None:
        """A ``--tb=short`` frame, with its code on the next, indented line."""
        code = self._text(self.at + 1)
        source = None
        if code is not None and code[:1] == " " and code.strip():
            source = code.strip()
            self.at += 1
        self.failure.frames.append(Frame(path, number, function, source))
        self.failure.function = self.failure.source = None

    def _closing_location(self, path: str, number: int, rest: str) -> bool:
        """The location that ends a failure; under ``--tb=line`` it also names the error."""
        exception = location_error(rest)
        failure = self.failure
        if exception is None and failure.error is not None and _names_class(rest, failure.error):
            # ``--tb=long`` closes with the class's own name, whatever it looks like
            # (``_DirectUrlRequiredKeyError``, ``error``): the ``E`` block above named it
            exception = ExceptionLine(failure.error.error_class or rest.strip(), "")
        if exception is None:
            return False
        if failure.error is None:
            if self._repeats_last(exception):
                self.at += 1
                return True
            message, notes = split_notes(exception.first)
            failure.error = PastedError(exception.cls, message, [], None, PYTEST, notes)
        failure.frames.append(failure.frame_here(path, number))
        self._flush_failure()
        self.at += 1
        return True

    def _repeats_last(self, exception: ExceptionLine) -> bool:
        """``--tb=line`` prints a native traceback (a group's) and then its location line."""
        if not self.out:
            return False
        last = self.out[-1]
        return last.error_class == exception.cls and last.message.startswith(exception.first)

    def _pytest_source(self, line: str, head: str) -> bool:
        """Remember a ``long`` entry's ``def`` name and ``>`` line for its location line."""
        match = DEF.match(head)
        if match is not None:
            if self.failure.function is None:
                self.failure.function = match["name"]
            self.at += 1
            return True
        match = SOURCE_MARK.match(head)
        if match is None:
            return False
        self.failure.source = match["src"].strip()
        self.at += 1
        return True

    def _summary(self, line: str, head: str) -> bool:
        """``FAILED tests/x.py::test_y - Class: message`` in the short test summary."""
        match = SUMMARY.match(head)
        if match is None or not _is_node_id(match["node"]):
            return False
        self._flush_failure()
        self.at += 1
        if match["text"] is not None:
            error = exception_text([line[match.start("text") :]], PYTEST)
            error.truncated = error.message.endswith("...")
            self.context.pytest = True
            self.context.summaries.add(id(error))
            self._emit(error)
        return True

    # -- warnings, logging, bare lines ----------------------------------------------------

    def _warning(self, line: str, head: str) -> bool:
        """``path:12: UserWarning: message`` and the code line printed under it."""
        match = WARNING_LINE.match(head)
        if match is None or self.failure.error is not None:
            return False
        self._flush_failure()
        indent = len(match["indent"])
        parts = [line[match.start("msg") :] if match["msg"] is not None else ""]
        source = None
        self.at += 1
        while (nxt := self._text(self.at)) is not None and nxt.strip():
            embedded = self._embedded_traceback(self.at, indent)
            if embedded is not None:  # ``warn(... + traceback.format_exc())``
                end, source = embedded
                parts.extend(self._text(k) or "" for k in range(self.at, end))
                self.at = end + 2  # the blank line, then the code line
                break
            if len(nxt) - len(nxt.lstrip()) > indent:
                source = nxt.strip()
                self.at += 1
                break
            if self._ends_here(self.at, nxt):
                break
            parts.append(nxt)
            self.at += 1
        frame = Frame(match["path"], int(match["line"]), None, source)
        self._emit(PastedError(match["cls"], "\n".join(parts), [frame], None, WARNING, []))
        return True

    def _embedded_traceback(self, at: int, indent: int) -> tuple[int, str] | None:
        """A traceback inside a warning's message: (where its message ends, the warning's
        code line). Only a traceback the warning's own code line closes is the message's:
        a traceback printed after a warning without one is an error of its own."""
        if TRACEBACK_HEADER.match(self._text(at) or "", 0, CAP) is None:
            return None
        k, limit = at + 1, min(len(self.items), at + _EMBED_LOOKAHEAD)
        while k < limit:
            while (text := self._text(k)) is not None and text[:1] in (" ", "\t"):
                k += 1  # frames, code lines, carets
            if not (text or "").strip():
                return None  # no exception line after the frames
            while (text := self._text(k)) is not None and text.strip():
                k += 1  # the exception line and the rest of its message
            end = k
            while (text := self._text(k)) is not None and not text.strip() and k < limit:
                k += 1
            if text is None:
                return None
            if CHAIN.match(text[:CAP]) is not None:
                k += 1
                while (text := self._text(k)) is not None and not text.strip() and k < limit:
                    k += 1
                if TRACEBACK_HEADER.match((text or "")[:CAP]) is None:
                    return None
                k += 1
                continue
            if (
                len(text) - len(text.lstrip()) > indent
                and not (self._text(k + 1) or "")[:1].isspace()
            ):
                return (end, text.strip()) if k == end + 1 else None
            return None
        return None

    def _logging(self, line: str, head: str) -> bool:
        """A log record; one followed by a traceback reports that traceback's errors."""
        record = parse_log(line)
        if record is None:
            return False
        self._flush_failure()
        self._unlink()
        self.at += 1
        if not record.reported:
            return True
        traceback_at = self._traceback_after(self.at)
        if traceback_at is None:
            self._emit(PastedError(None, record.message, [], None, LOGGING, []))
            return True
        parts = [record.message]
        parts.extend(self._text(k) or "" for k in range(self.at, traceback_at))
        self.at = traceback_at
        start = len(self.out)
        self._read_logged_chain()
        logged = self.out[start:]
        message = "\n".join(trim_trailing_blank(parts))
        if not logged:
            self._emit(PastedError(None, message, [], None, LOGGING, []))
            return True
        for error in logged:
            if error.source_format in (TRACEBACK, IPYTHON):
                error.source_format = LOGGING
        logged[-1].notes.insert(0, message)
        return True

    def _traceback_after(self, at: int) -> int | None:
        """Where a traceback starts within a few lines after a log record, if it does."""
        for k in range(at, min(len(self.items), at + _LOG_LOOKAHEAD)):
            line = self._text(k)
            if line is None:
                return None
            head = line[:CAP]
            if TRACEBACK_HEADER.match(head) or GROUP_START.match(head):
                return k
            if self._ends_here(k, line):
                return None
        return None

    def _read_logged_chain(self) -> None:
        """The traceback a log record printed, with all of its chain."""
        while (line := self._text(self.at)) is not None:
            head = line[:CAP]
            if not head.strip():
                self.at += 1
            elif not (
                self._chain(line, head) or self._traceback(line, head) or self._group(line, head)
            ):
                return

    def _bare(self, line: str, head: str) -> bool:
        """``Class: message`` with no traceback (inside a group, any exception line)."""
        exception = parse_exception_line(line, strict=not self.in_group)
        if exception is None:
            return False
        self._flush_failure()
        message, notes = self._read_message(exception.first, 0)
        fmt = self._format(exception.cls, None)
        self._emit(PastedError(exception.cls, message, [], None, fmt, notes))
        return True


def _is_node_id(node: str) -> bool:
    """A pytest node id: ``tests/x.py::test_y`` (or a file, for collection errors)."""
    return "::" in node or ".py" in node


def _names_class(rest: str, error: PastedError) -> bool:
    """Whether a closing location's tail is the short name of the error its ``E`` block
    printed (``_Private``, ``error``: names the class parser does not take for classes)."""
    name = rest.strip()
    return (
        bool(name) and name.isidentifier() and (error.error_class or "").rpartition(".")[2] == name
    )
