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


def _read(lines: list[str]) -> list[_Trace]:
    """The top-level traces of the text, causes and suppressed ones hung under them."""
    roots: list[_Trace] = []
    stack: list[_Trace] = []  # the open traces, outermost first
    i = 0
    while i < len(lines):
        header = _HEADER.match(lines[i])
        if header is None:
            i += 1
            continue
        message_lines = [header.group("msg") or ""]
        j = i + 1
        while j < len(lines) and j - i <= _MAX_MESSAGE_LINES:
            if _FRAME.match(lines[j]) or _MORE.match(lines[j]):
                break
            message_lines.append(lines[j])
            j += 1
        if j >= len(lines) or not (_FRAME.match(lines[j]) or _MORE.match(lines[j])):
            i += 1
            continue
        if header.group("msg") is None:
            message_lines = message_lines[1:] if len(message_lines) > 1 else []
            if message_lines:  # a class alone, then text: not this header's message
                i += 1
                continue
        trace = _Trace(
            error_class=header.group("cls"),
            message="\n".join(message_lines),
            indent=_indent(header.group("indent")),
            kind=header.group("kind"),
        )
        i = j
        while i < len(lines):
            frame = _FRAME.match(lines[i])
            if frame is not None:
                trace.frames.append(_frame(frame))
                i += 1
                continue
            more = _MORE.match(lines[i])
            if more is not None:
                trace.more = int(more.group("n"))
                i += 1
            break
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
    if "at " not in text:
        return []
    errors: list[PastedError] = []
    for root in _read(text.splitlines()):
        _resolve(root, [])
        errors.extend(_flatten(root))
    return errors
