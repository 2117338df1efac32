"""Go panics as the runtime prints them, turned into errors with frames.

::

    panic: pflag: demo flag redefined: name            <- the value (Error()/String()/text)
    [signal SIGSEGV: segmentation violation ...]        <- runtime faults only
                                                        <- a blank line
    goroutine 1 [running]:
    github.com/spf13/pflag.(*FlagSet).AddFlag(0xc000088100, 0xc000000320)
    \t/usr/share/gocode/src/github.com/spf13/pflag/flag.go:855 +0x626
    main.main()
    \t/tmp/demo/main.go:12 +0x12a

A recovered panic that panicked again prints ``panic: first [recovered]`` (Go ≥ 1.23:
``[recovered, repanicked]``) and then ``\\tpanic: second``; the first is read as the
context of the second. ``fatal error: …`` (deadlock, concurrent map writes) reads the
same way. Go prints no class: an error has none, except ``runtime error: …`` (a fault
the runtime raises, ``runtime.Error``), which no source site raises.

Frames are given outermost first, as Python's are. Paths are cut to the repository's
own: a module cache's ``…/pkg/mod/github.com/x/y@v1.2.3/``, a GOPATH's or vendor
folder's ``…/src/github.com/x/y/`` and a ``-trimpath`` build's ``github.com/x/y@v1.2.3/``
go; a Go installation's ``…/go/src/runtime/panic.go`` becomes ``src/runtime/panic.go``
(golang/go's own path). Strict: only a paste with a ``panic:`` (or ``fatal error:``)
line and a ``goroutine N [state]:`` header followed by a Go frame is answered.
"""

from __future__ import annotations

import re

from errdex.match._paste_model import Frame, PastedError
from errdex.match.traces._cut import cut

__all__ = ["FORMAT", "frame_path", "parse"]

FORMAT = "go-panic"

_PANIC = re.compile(r"^(?P<indent>\t?)(?P<kind>panic|fatal error): (?P<message>.*)$")
_RECOVERED = re.compile(r" \[recovered(?:, repanicked)?\]$")
_GOROUTINE = re.compile(r"^goroutine \d+ \[[^\]]*\]:$")
_SIGNAL = re.compile(r"^\[signal [^\]]*\]$")
_CALL = re.compile(r"^(?P<function>\S.*?)\((?P<args>[^()]*|\.\.\.)\)$")
_CREATED = re.compile(r"^created by (?P<function>\S+?)(?: in goroutine \d+)?$")
_FILE = re.compile(
    r"^\t(?P<path>\S.*?):(?P<line>\d+)(?: \+0x[0-9a-f]+)?(?: fp=\S+ sp=\S+ pc=\S+)?$"
)

_MODULE = re.compile(r"(?:^|/)pkg/mod/(?:[^@/]+/)*[^@/]+@[^/]+/(?P<rest>.+)$")
_TRIMPATH = re.compile(r"^(?:[\w.-]+/)+[\w.-]+@v[^/]+/(?P<rest>.+)$")
_GOPATH_ROOT = re.compile(r"(?:^|/)(?:src|vendor)/")
_GOPATH = re.compile(r"(?:[a-z0-9-]+\.)+[a-z]{2,}/[^/]+/[^/]+/(?P<rest>.+)$")
_GOROOT = re.compile(r"(?:^|/)(?:go|go-\d[\d.]*)/(?P<rest>src/.+)$")


def frame_path(path: str) -> str:
    """The repository path a Go frame's file is (see the module docstring)."""
    found = cut(path, (_MODULE, _TRIMPATH))
    if found is not None:
        return found
    for root in reversed(list(_GOPATH_ROOT.finditer(path))):  # the innermost: vendor/ in src/
        m = _GOPATH.match(path, root.end())
        if m is not None:
            return m.group("rest")
    return cut(path, (_GOROOT,)) or path


def _short_function(name: str) -> str:
    """``github.com/x/y.(*T).m.func1`` -> ``m``: the declared name a site records."""
    tail = name.rsplit("/", 1)[-1]
    pieces = tail.split(".")[1:] or [tail]
    while len(pieces) > 1 and (pieces[-1].isdigit() or re.fullmatch(r"func\d+", pieces[-1])):
        pieces.pop()
    return pieces[-1].strip("()*")


def _frames(lines: list[str], start: int) -> tuple[list[Frame], int]:
    """The frames of one goroutine's trace from ``start`` (innermost first, as printed)."""
    frames: list[Frame] = []
    i = start
    while i + 1 < len(lines):
        call = _CALL.match(lines[i]) or _CREATED.match(lines[i])
        file = _FILE.match(lines[i + 1])
        if call is None or file is None:
            break
        function = call.group("function")
        frames.append(
            Frame(
                path=frame_path(file.group("path")),
                line=int(file.group("line")),
                function=_short_function(function),
                source=None,
            )
        )
        i += 2
    return frames, i


def _panics(lines: list[str], start: int, end: int) -> list[tuple[str, str]]:
    """The (kind, message) of each panic printed between ``start`` and the goroutine
    header at ``end``: multi-line values read whole, ``[recovered]`` cut off."""
    found: list[tuple[str, list[str]]] = []
    for line in lines[start:end]:
        m = _PANIC.match(line)
        if m is not None and (not found or m.group("indent") or m.group("kind") == "fatal error"):
            found.append((m.group("kind"), [m.group("message")]))
        elif found and not _SIGNAL.match(line):
            found[-1][1].append(line)
    out = []
    for kind, body in found:
        while body and not body[-1].strip():
            body.pop()
        text = "\n".join(body)
        out.append((kind, _RECOVERED.sub("", text)))
    return out


def _error_class(message: str) -> str | None:
    return "runtime.Error" if message.startswith("runtime error: ") else None


def parse(text: str) -> list[PastedError]:
    """The Go panics of a paste, or ``[]`` when it holds none."""
    if "goroutine " not in text or ("panic: " not in text and "fatal error: " not in text):
        return []
    lines = [line.rstrip(" \r") for line in text.split("\n")]
    errors: list[PastedError] = []
    i = 0
    while i < len(lines):
        m = _PANIC.match(lines[i])
        if m is None or m.group("indent"):
            i += 1
            continue
        header = i + 1
        while header < len(lines) and not _GOROUTINE.match(lines[header]):
            again = _PANIC.match(lines[header])
            if again is not None and not again.group("indent"):
                break  # another panic before any goroutine: the first had no trace
            header += 1
        if header >= len(lines) or not _GOROUTINE.match(lines[header]):
            i = header
            continue
        frames, after = _frames(lines, header + 1)
        if not frames:
            i = header + 1
            continue
        panics = _panics(lines, i, header)
        frames.reverse()  # outermost first, as Python's tracebacks are read
        for position, (kind, message) in enumerate(panics):
            last = position == len(panics) - 1
            errors.append(
                PastedError(
                    error_class=_error_class(message),
                    message=message,
                    frames=frames if last else [],
                    relation=None if last else "context",
                    source_format=FORMAT,
                    notes=["Go fatal error (cannot be recovered)"] if kind == "fatal error" else [],
                )
            )
        i = after
    return errors
