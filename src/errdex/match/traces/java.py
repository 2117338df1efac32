"""Java stack traces, as ``Throwable.printStackTrace`` prints them.

::

    Exception in thread "main" java.lang.IllegalStateException: outer
        at com.x.Y.run(Y.java:42)
        at java.base/java.util.Objects.requireNonNull(Objects.java:233)
        ... 3 more
    Caused by: java.io.IOException: inner
        at com.x.Z.read(Z.java:7)
        ... 5 more
        Suppressed: java.lang.RuntimeException: while closing
                at com.x.Z.close(Z.java:9)

A frame prints the class's binary name, the method and the file's *name*; the path
is the package's folders and that name (``com/x/Y.java``), with the module in front when
one is printed (``java.base/java/util/Objects.java``, as the JDK's ``src.zip`` keeps
it). ``... N more`` stands for the last N frames of the trace it is printed in, which
are filled back in. Java prints the outermost exception first and its causes after;
the errors are returned cause first, as Python prints a chain, and each trace's frames
outermost first. Only text whose header is followed by real ``at`` lines is a trace.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from errdex.match._paste_model import Frame, PastedError, Relation

__all__ = ["frame_path", "parse"]

_NAME = r"[A-Za-z_$][\w$]*"
_HEADER = re.compile(
    r"^(?P<indent>\s*)(?:Exception in thread \"[^\"]*\" |(?P<kind>Caused by|Suppressed): )?"
    rf"(?P<cls>{_NAME}(?:\.{_NAME})*)(?:: (?P<msg>.*)|:)?\s*$"
)
_FRAME = re.compile(
    r"^(?P<indent>\s*)at (?P<prefix>(?:[^\s/()]*/)*)"
    # a hidden class (a lambda's) prints its address: ``Gen$$Lambda$14/0x0000000800c03000``
    rf"(?P<where>{_NAME}(?:\.{_NAME})*(?:/0x[0-9a-fA-F]+)?\.(?:{_NAME}|<init>|<clinit>))"
    r"\((?P<src>Native Method|Unknown Source|(?P<file>[\w$.-]+\.(?:java|kt|scala|groovy))"
    r"(?::(?P<line>\d+))?)\)\s*$"
)
_ANY_FRAME = re.compile(r"^[ \t]*at [^\s(]+\(", re.M)
_MORE = re.compile(r"^\s*\.\.\. (?P<n>\d+) more\s*$")
#: Message lines a header may run on for before its frames (a multi-line message).
_MAX_MESSAGE_LINES = 50


@dataclass
class _Trace:
    error_class: str
    message: str
    indent: int
    kind: str | None
    frames: list[Frame] = field(default_factory=list)  # as printed: innermost first
    more: int = 0
    cause: _Trace | None = None
    suppressed: list[_Trace] = field(default_factory=list)


def frame_path(prefix: str, where: str, file_name: str | None) -> str:
    """``com.x.Y$In.m`` in ``Y.java`` -> ``com/x/Y.java``; a module prefix is kept
    (``java.base/``, its version dropped); an unnamed file is guessed from the class."""
    # ``module/``, ``module@1.0/``, ``loader//`` (no module), ``loader/module@1.0/``
    segments = prefix.split("/")[:-1]
    named = segments[-1] if segments and len(segments) <= 2 else ""
    module = named.split("@", 1)[0]
    cls = where.rpartition(".")[0].split("/", 1)[0]
    package, _, simple = cls.rpartition(".")
    if file_name is None:
        file_name = simple.split("$", 1)[0] + ".java"
    path = (package.replace(".", "/") + "/" if package else "") + file_name
    return f"{module}/{path}" if module else path


def _frame(m: re.Match[str]) -> Frame:
    where = m.group("where")
    line = m.group("line")
    return Frame(
        path=frame_path(m.group("prefix"), where, m.group("file")),
        line=int(line) if line else None,
        function=where.rpartition(".")[2],
        source=None,
    )


def _indent(text: str) -> int:
    return len(text.expandtabs(4))


Block = tuple[int, int, list[re.Match[str]]]


def _frame_blocks(lines: list[str]) -> list[Block]:
    """``(start, end, matches)`` of each run of frame lines; ``... N more`` ends its run."""
    blocks: list[Block] = []
    start: int | None = None
    found: list[re.Match[str]] = []
    for i, line in enumerate(lines):
        head = line.lstrip()[:4]
        match = _FRAME.match(line) if head.startswith("at ") else None
        if match is None and head == "... ":
            match = _MORE.match(line)
        if match is not None:
            start = i if start is None else start
            found.append(match)
            if match.re is _MORE:
                blocks.append((start, i + 1, found))
                start, found = None, []
        elif start is not None:
            blocks.append((start, i, found))
            start, found = None, []
    if start is not None:
        blocks.append((start, len(lines), found))
    return blocks


def _strong(header: re.Match[str]) -> bool:
    """A header no prose line looks like: ``Caused by:``, a thread, a qualified class or
    a class named as one (``…Exception``, ``…Error``)."""
    cls = header.group("cls")
    return (
        header.group("kind") is not None
        or header.group(0).lstrip().startswith("Exception in thread ")
        or "." in cls
        or cls.endswith(("Exception", "Error", "Throwable"))
    )


def _header_of(lines: list[str], start: int, floor: int) -> int | None:
    """The header line of the frames from ``start``: the nearest strong one above (a
    message may run on for lines), else a plain ``Name: message`` right above."""
    for k in range(start - 1, max(floor, start - 1 - _MAX_MESSAGE_LINES) - 1, -1):
        found = _HEADER.match(lines[k])
        if found is not None and _strong(found):
            return k
    if start - 1 >= floor and _HEADER.match(lines[start - 1]) is not None:
        return start - 1
    return None


def _read(lines: list[str]) -> list[_Trace]:
    """The top-level traces of the text, causes and suppressed ones hung under them."""
    roots: list[_Trace] = []
    stack: list[_Trace] = []  # the open traces, outermost first
    floor = 0
    for start, end, matches in _frame_blocks(lines):
        at = _header_of(lines, start, floor)
        floor = end
        if at is None:
            continue
        header = _HEADER.match(lines[at])
        assert header is not None
        rest = lines[at + 1 : start]
        if header.group("msg") is None and rest:
            continue  # a class alone, then text: not a header with its message
        trace = _Trace(
            error_class=header.group("cls"),
            message="\n".join([header.group("msg") or "", *rest])
            if rest
            else (header.group("msg") or ""),
            indent=_indent(header.group("indent")),
            kind=header.group("kind"),
        )
        for match in matches:
            if match.re is _MORE:
                trace.more = int(match.group("n"))
            else:
                trace.frames.append(_frame(match))
        _attach(trace, stack, roots)
    return roots


def _attach(trace: _Trace, stack: list[_Trace], roots: list[_Trace]) -> None:
    if trace.kind is None:
        stack.clear()
        stack.append(trace)
        roots.append(trace)
        return
    if trace.kind == "Caused by":
        while stack and stack[-1].indent > trace.indent:
            stack.pop()
        owner = stack[-1] if stack else None
        while owner is not None and owner.cause is not None:
            owner = owner.cause
    else:
        while stack and stack[-1].indent >= trace.indent:
            stack.pop()
        owner = stack[-1] if stack else None
    if owner is None:
        trace.kind = None
        _attach(trace, stack, roots)
        return
    if trace.kind == "Caused by":
        owner.cause = trace
        # the cause's own causes are printed at its indent; its suppressed ones deeper
        stack.append(trace)
    else:
        owner.suppressed.append(trace)
        stack.append(trace)


def _resolve(trace: _Trace, enclosing: list[Frame]) -> None:
    """Fill ``... N more`` with the enclosing trace's last N frames, all the way down."""
    if trace.more and enclosing:
        trace.frames.extend(enclosing[-trace.more :])
    for child in trace.suppressed:
        _resolve(child, trace.frames)
    if trace.cause is not None:
        _resolve(trace.cause, trace.frames)


def _flatten(trace: _Trace) -> list[PastedError]:
    out: list[PastedError] = []
    for child in trace.suppressed:
        out.extend(_chained(child, "context"))
    if trace.cause is not None:
        out.extend(_chained(trace.cause, "cause"))
    out.append(
        PastedError(
            error_class=trace.error_class,
            message=trace.message,
            frames=list(reversed(trace.frames)),
            source_format="java",
        )
    )
    return out


def _chained(trace: _Trace, relation: Relation) -> list[PastedError]:
    errors = _flatten(trace)
    errors[-1].relation = relation
    return errors


def parse(text: str) -> list[PastedError]:
    """The errors of every Java stack trace in ``text`` (``[]`` when there is none)."""
    if _ANY_FRAME.search(text) is None:  # one pass in C: most pastes are not Java's
        return []
    errors: list[PastedError] = []
    for root in _read(text.splitlines()):
        _resolve(root, [])
        errors.extend(_flatten(root))
    return errors
