"""Node.js / V8 stack traces: ``Class: message`` then ``    at fn (path:line:col)`` lines.

V8 prints the innermost frame first; the errors returned list frames outermost first,
as Python's are. Forms read: ``at fn (loc)``, ``at loc``, ``at async fn``, ``at new X``,
``at X.<computed> [as get]``, ``file:///…`` URLs, ``node:internal/…`` and ``[eval]``
locations, ``eval at`` origins; the uncaught-exception header Node prints above a
crash (``/app/x.js:12``, the source line, a caret), whose source line is the innermost
frame's; the ``{ code: 'ERR_X', … }`` trailer util.inspect adds (kept as a note);
``TypeError [ERR_X]: …`` and ``MyError [Error]: …`` headers; causes printed as
``[cause]: X: …`` inside the trailer or as ``Caused by: X: …`` after the frames
(returned before the error they caused, as Python's chains are).

Strict: text without V8 frame lines or Node's uncaught header gives ``[]``, and so does
a Python traceback that quotes one.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from urllib.parse import unquote

from errdex.match._paste_model import TRACEBACK, Frame, PastedError, Relation

__all__ = ["parse", "parse_frame"]

_FRAME = re.compile(r"^(?P<indent>[ \t]*)at (?P<body>\S.*?)\s*$")
_NAMED = re.compile(r"^(?P<name>[^\s(][^(]*?) \((?P<loc>.*)\)(?: \{)?$")
_LOCATION = re.compile(r"^(?P<path>.+?):(?P<line>\d+)(?::(?P<col>\d+))?$")
_PLACES = re.compile(r"^(?:native|<anonymous>|index \d+|unknown location)$")
_ELIDED = re.compile(r"^\s*\.\.\. \d+ (?:more lines?|lines? matching cause stack trace)")
_HEADER = re.compile(
    r"^(?P<indent>\s*)(?P<prefix>\[cause\]: |Caused by:? |Uncaught )?"
    r"(?P<cls>[A-Za-z_$][\w$]*(?:\.[A-Za-z_$][\w$]*)*)"
    r"(?: \[(?P<tag>[^\]\n]+)\])?(?:: (?P<msg>.*)|:?$)"
)
_ERROR_NAME = re.compile(r"(?:Error|Exception|Rejection|Warning|Fault)$")
_CRASH_AT = re.compile(r"^(?P<path>\S(?:.*\S)?):(?P<line>\d+)$")
_CARET = re.compile(r"^\s*\^+\s*$")
_CODE_FRAME = re.compile(r"^\s*(?:>\s*)?\d*\s*\|")
_NODE_VERSION = re.compile(r"^Node\.js v\d+")
_CODE = re.compile(r"^\s+code: '(?P<code>[^']+)',?$")
_PYTHON = "Traceback (most recent call last):"
#: How far above its frames an error's header is looked for (its message's lines).
MAX_MESSAGE_LINES = 200
#: Whether a text can hold a trace at all (searched once, in C, before any line is read).
_ANY_FRAME = re.compile(r"^[ \t]+at \S", re.M)
_ANY_CARET = re.compile(r"\n[ \t]*\^+[ \t]*\n")


def _frames_in(text: str) -> bool:
    return ("    at " in text or "\tat " in text) and _ANY_FRAME.search(text) is not None


@dataclass(slots=True)
class _Block:
    """One error as printed: header line, frame lines and trailer, by line index."""

    header: int
    first_frame: int
    end: int  # one past the last frame (or past the trailer's closing brace)
    cls: str | None
    message: str
    indent: int
    prefix: str
    frames: list[Frame] = field(default_factory=list)
    notes: list[str] = field(default_factory=list)


def _path(location: str) -> str:
    if location.startswith("file://"):
        path = unquote(location[len("file://") :])
        return path[1:] if re.match(r"^/[A-Za-z]:/", path) else path
    return location


def parse_frame(line: str) -> Frame | None:
    """One V8 frame line, or None when the line is not one."""
    m = _FRAME.match(line)
    if m is None:
        return None
    body = m.group("body").removesuffix(",")  # a frame closing an ``[errors]: [`` member
    named = _NAMED.match(body)
    name: str | None = None
    if named is not None:
        name, location = named.group("name"), named.group("loc")
        if location.startswith("eval at ") and ", " in location:
            location = location.rsplit(", ", 1)[1]
    else:
        location = body.removesuffix(" {")
        for lead in ("async ", "new "):
            location = location.removeprefix(lead)
    found = _LOCATION.match(location)
    if found is None:
        if name is None or not _PLACES.match(location):
            return None
        path, number = location, None
    else:
        if found.group("col") is None and name is None:
            return None  # ``at x:12`` alone is not V8's (which always prints a column)
        path, number = _path(found.group("path")), int(found.group("line"))
    return Frame(path=path, line=number, function=_function(name), source=None)


def _function(name: str | None) -> str | None:
    """``async Axios.request`` -> ``request``; ``new AxiosError`` -> ``AxiosError``."""
    if name is None:
        return None
    name = re.sub(r" \[as [^\]]+\]$", "", name)
    for lead in ("async ", "new "):
        name = name.removeprefix(lead)
    return name.rpartition(".")[2] or name


def _header_at(lines: list[str], start: int, stop: int, crashed: bool) -> int | None:
    """The header of the frames starting at ``stop``: the first error-named
    ``Class: message`` line after ``start``, else the nearest such line above them; any
    line just above them only under Node's crash header (a thrown object's first line)."""
    nearest: int | None = None
    start = max(start, stop - MAX_MESSAGE_LINES)
    for i in range(start, stop):
        m = _HEADER.match(lines[i])
        if m is None:
            continue
        if _ERROR_NAME.search(m.group("cls")) or m.group("tag") or m.group("prefix"):
            return i
        if m.group("msg") is not None:
            nearest = i if nearest is None else nearest
    if nearest is None and crashed and stop > start and lines[stop - 1].strip():
        return stop - 1  # an error whose first line is not ``Class: …`` (a thrown object)
    return nearest


def _indented_under(header: str, frame: str) -> bool:
    """Frames sit deeper than their error: four spaces in Node, two under Mocha's
    numbered failures, more under Jest's; Rust's ``at`` lines sit under no such header."""
    indent = len(header) - len(header.lstrip())
    lead = frame[: len(frame) - len(frame.lstrip())]
    if lead == header[:indent] + "\t":
        return True
    return lead.strip(" ") == "" and indent < len(lead) <= indent + 8


def _message_lines(lines: list[str], indent: int) -> list[str]:
    """A message's lines after its first: up to a Jest code frame (``> 2 | …``) or the
    blank line before it, with the header's indentation taken off."""
    out: list[str] = []
    for text in lines:
        if _CODE_FRAME.match(text):
            break
        out.append(text[indent:])
    while out and not out[-1].strip():
        out.pop()
    return out


def _trailer_end(lines: list[str], start: int, indent: int, notes: list[str]) -> int:
    """Past the ``}`` that closes a ``{ code: …, … }`` trailer opened on line ``start - 1``."""
    depth_indent = " " * indent
    for i in range(start, len(lines)):
        line = lines[i]
        if line.rstrip() == depth_indent + "}":
            return i + 1
        code = _CODE.match(line)
        if code is not None and len(line) - len(line.lstrip()) == indent + 2:
            notes.append(f"code: {code.group('code')}")
    return len(lines)


def _blocks(lines: list[str]) -> tuple[list[_Block], list[tuple[int, str, int, str]]]:
    """The errors printed, in order, and the uncaught headers (line, path, number, source)."""
    blocks: list[_Block] = []
    crashes: list[tuple[int, str, int, str]] = []
    boundary = 0
    crashed = False  # the text since ``boundary`` follows Node's crash header
    i = 0
    while i < len(lines):
        line = lines[i]
        # cheap tests first: most lines of a long paste are neither frames nor headers
        crash = (
            _CRASH_AT.match(line)
            if i + 2 < len(lines) and "^" in lines[i + 2] and _CARET.match(lines[i + 2])
            else None
        )
        if crash is not None:
            crashes.append((i, _path(crash.group("path")), int(crash.group("line")), lines[i + 1]))
            boundary = i = i + 3
            crashed = True
            continue
        if line.startswith("Node.js v") and _NODE_VERSION.match(line):
            boundary = i = i + 1
            continue
        if "at " not in line or parse_frame(line) is None:
            i += 1
            continue
        header = _header_at(lines, boundary, i, crashed)
        if header is not None and not _indented_under(lines[header], line):
            header = None  # frames are indented under their error
        first = i
        frames: list[Frame] = []
        while i < len(lines):
            frame = parse_frame(lines[i])
            if frame is not None:
                frames.append(frame)
            elif not _ELIDED.match(lines[i]):
                break
            i += 1
        crashed = False
        if header is None:
            boundary = i
            continue
        m = _HEADER.match(lines[header])
        indent = len(lines[header]) - len(lines[header].lstrip())
        cls = m.group("cls") if m is not None and m.group("msg") is not None else None
        first_message = (
            m.group("msg") if m is not None and cls is not None else lines[header].strip()
        )
        if (
            m is not None
            and m.group("cls")
            and m.group("msg") is None
            and m.group("prefix") is None
        ):
            cls, first_message = m.group("cls"), ""  # ``Error`` with no message
        message = "\n".join(
            [first_message or "", *_message_lines(lines[header + 1 : first], indent)]
        )
        block = _Block(
            header,
            first,
            i,
            cls,
            message.rstrip("\n"),
            indent,
            (m.group("prefix") or "") if m else "",
        )
        if m is not None and m.group("tag") and re.fullmatch(r"[A-Z][A-Z0-9_]+", m.group("tag")):
            block.notes.append(f"code: {m.group('tag')}")
        block.frames = frames
        blocks.append(block)
        if lines[i - 1].rstrip().endswith(" {"):
            # a trailer: its ``[cause]:`` errors are blocks of their own, read on from here
            block.end = _trailer_end(lines, i, indent, block.notes)
        boundary = i
    return blocks, crashes


def _relation(block: _Block, outer: _Block) -> Relation | None:
    """How ``block`` leads to ``outer``, printed before it: a cause, a member printed
    inside its trailer (an AggregateError's ``[errors]``), or None (it stands alone)."""
    if block.prefix.startswith("Caused by"):
        return "cause"
    if block.header >= outer.end or block.indent <= outer.indent:
        return None
    return "cause" if block.prefix.startswith("[cause]") else "context"


def parse(text: str) -> list[PastedError]:
    """The Node/V8 errors of a paste, causes before the errors they caused; ``[]`` when
    the text carries no V8 frame line and no uncaught-exception header."""
    if _PYTHON in text or not (_frames_in(text) or _ANY_CARET.search(text)):
        return []
    lines = text.split("\n")
    blocks, crashes = _blocks(lines)
    if not blocks:
        return [_crash_only(lines, c) for c in crashes[:1] if c[0] + 3 < len(lines)]
    for _, path, number, source in crashes:
        for block in blocks:
            innermost = block.frames[0] if block.frames else None
            if innermost is not None and innermost.path == path and innermost.line == number:
                block.frames[0] = Frame(path, number, innermost.function, source.strip())
                break
    # a chain: an error and the causes printed after it (inside or below it)
    chains: list[list[tuple[_Block, Relation | None]]] = []
    for block in blocks:
        relation = None
        if chains:
            relation = next(
                (r for outer, _ in chains[-1] if (r := _relation(block, outer)) is not None), None
            )
        if relation is not None:
            chains[-1].append((block, relation))
        else:
            chains.append([(block, None)])
    # printed outer first; returned innermost first, each leading to the one after it
    return [
        PastedError(
            error_class=block.cls,
            message=block.message,
            frames=list(reversed(block.frames)),
            relation=relation,
            source_format=TRACEBACK,
            notes=block.notes,
        )
        for chain in chains
        for block, relation in reversed(chain)
    ]


def _crash_only(lines: list[str], crash: tuple[int, str, int, str]) -> PastedError:
    """A crash with no stack (``throw 'text'``): the value printed under the caret."""
    at, path, number, source = crash
    rest = [
        text
        for text in lines[at + 3 :]
        if text.strip() and not text.startswith("(Use `node") and not _NODE_VERSION.match(text)
    ]
    message = rest[0].strip() if rest else ""
    m = _HEADER.match(message)
    cls = m.group("cls") if m is not None and m.group("msg") is not None else None
    text = m.group("msg") if m is not None and cls is not None else message
    return PastedError(
        error_class=cls,
        message=text or "",
        frames=[Frame(path, number, None, source.strip())],
        source_format=TRACEBACK,
    )
