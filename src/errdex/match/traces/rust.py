"""Rust panics, their backtraces, and anyhow's ``Error: … Caused by:`` reports.

::

    thread 'main' panicked at src/lib.rs:12:5:          <- Rust ≥ 1.73 (≥ 1.89 adds " (1234)"
    index exceeds length                                   after the thread's name)
    stack backtrace:                                    <- RUST_BACKTRACE=1
       3: smallvec::SmallVec<A>::insert
                 at /usr/share/cargo/registry/smallvec-1.9.0/src/lib.rs:1084:17
    note: run with `RUST_BACKTRACE=1` environment variable to display a backtrace

    thread 'main' panicked at 'index exceeds length', src/lib.rs:12:5   <- before 1.73

    Error: reading config                               <- anyhow, from ``main``
    Caused by:
        0: opening /etc/x.toml
        1: No such file or directory (os error 2)

Rust prints no class: every error has none. The place a panic names is its innermost
frame; backtrace frames come before it, outermost first. Paths are cut to the
repository's own: ``/usr/share/cargo/registry/name-1.2.3/`` (Debian),
``~/.cargo/registry/src/index.crates.io-…/name-1.2.3/``, a git checkout's
``~/.cargo/git/checkouts/name-…/rev/`` and ``./`` go; ``/rustc/<commit>/`` goes too, so
``library/core/src/…`` is rust-lang/rust's own path. Strict: only a ``thread '…'
panicked at`` line, or an ``Error:`` line with a ``Caused by:`` section, is answered.
"""

from __future__ import annotations

import bisect
import re

from errdex.match._paste_model import Frame, PastedError
from errdex.match.traces._cut import cut

__all__ = ["ANYHOW", "FORMAT", "frame_path", "parse"]

FORMAT = "rust-panic"
ANYHOW = "anyhow"

_HEAD = r"^thread '(?P<thread>[^'\n]*)'(?: \(\d+\))? panicked at "
_NEW = re.compile(_HEAD + r"(?P<path>[^\n']+?):(?P<line>\d+):(?P<col>\d+):$", re.M)
_OLD = re.compile(
    _HEAD + r"'(?P<message>.*?)', (?P<path>[^\n]+?):(?P<line>\d+):(?P<col>\d+)$", re.M | re.S
)
_END = re.compile(r"^(?:note: |stack backtrace:|thread ')")
_FRAME = re.compile(r"^\s*(?P<n>\d+):\s+(?:0x[0-9a-f]+ - )?(?P<function>\S.*)$")
_AT = re.compile(r"^\s+at (?P<path>.+?):(?P<line>\d+)(?::\d+)?$")

_REGISTRY = re.compile(
    r"(?:^|/)(?:registry/src/[^/]+|share/cargo/registry|git/checkouts/[^/]+)/[^/]+/(?P<rest>.+)$"
)
_RUSTC = re.compile(r"^/rustc/[0-9a-f]{7,40}/(?P<rest>.+)$")


def frame_path(path: str) -> str:
    """The repository path of a Rust frame's file (see the module docstring)."""
    return cut(path, (_REGISTRY, _RUSTC)) or path.removeprefix("./")


def _short_function(name: str) -> str:
    """``smallvec::SmallVec<A>::insert`` -> ``insert``; closures name their function."""
    name = re.sub(r"<[^<>]*>", "", re.sub(r"<[^<>]*>", "", name))  # two levels of generics
    pieces = [p for p in name.split("::") if p and p != "{{closure}}"]
    last = pieces[-1] if pieces else name
    return re.sub(r"::h[0-9a-f]{16}$", "", last)


def _backtrace(lines: list[str], start: int) -> tuple[list[Frame], int]:
    """Frames of a ``stack backtrace:`` from ``start`` (innermost first, as printed)."""
    frames: list[Frame] = []
    i = start
    while i < len(lines):
        m = _FRAME.match(lines[i])
        if m is None:
            break
        function = m.group("function")
        i += 1
        while i < len(lines) and _AT.match(lines[i]):
            at = _AT.match(lines[i])
            assert at is not None
            frames.append(
                Frame(
                    frame_path(at.group("path")),
                    int(at.group("line")),
                    _short_function(function),
                    None,
                )
            )
            i += 1
    return frames, i


def _panic(lines: list[str], m: re.Match[str], message: str, body_end: int) -> PastedError:
    """One panic: its message, its backtrace if one follows, its location innermost."""
    location = Frame(frame_path(m.group("path")), int(m.group("line")), None, None)
    frames: list[Frame] = []
    i = body_end
    while i < len(lines) and lines[i].startswith("note: "):
        i += 1
    if i < len(lines) and lines[i].strip() == "stack backtrace:":
        frames, _ = _backtrace(lines, i + 1)
    at = [(f.path, f.line) for f in frames]
    if (location.path, location.line) in at:  # what is inside it is the panic machinery
        frames = frames[at.index((location.path, location.line)) :]
        frames.reverse()
    else:
        frames.reverse()
        frames.append(location)
    return PastedError(error_class=None, message=message, frames=frames, source_format=FORMAT)


def _panics(text: str) -> list[PastedError]:
    lines = text.split("\n")
    errors: list[tuple[int, PastedError]] = []
    offsets = [0]
    for line in lines:
        offsets.append(offsets[-1] + len(line) + 1)

    def line_of(pos: int) -> int:
        return bisect.bisect_right(offsets, pos) - 1

    for m in _NEW.finditer(text):
        first = line_of(m.start()) + 1
        end = first
        while end < len(lines) and not _END.match(lines[end]):
            end += 1
        body = lines[first:end]
        while body and not body[-1].strip():
            body.pop()
        errors.append((m.start(), _panic(lines, m, "\n".join(body), end)))
    for m in _OLD.finditer(text):
        end = line_of(m.end()) + 1
        errors.append((m.start(), _panic(lines, m, m.group("message"), end)))
    return [e for _, e in sorted(errors, key=lambda p: p[0])]


_ERROR = re.compile(r"^Error: (?P<message>.*)$")
_CAUSE = re.compile(r"^    (?:(?P<n>\d+): )?(?P<message>.*)$")


def _anyhow(text: str) -> list[PastedError]:
    """anyhow's report: the error, then its causes outermost first (deepest last)."""
    lines = text.split("\n")
    for i, line in enumerate(lines):
        m = _ERROR.match(line)
        if m is None:
            continue
        j = i + 1
        head = [m.group("message")]
        while j < len(lines) and lines[j].strip() and lines[j] != "Caused by:":
            head.append(lines[j])
            j += 1
        while j < len(lines) and not lines[j].strip():
            j += 1
        if j >= len(lines) or lines[j] != "Caused by:":
            continue
        causes: list[list[str]] = []
        numbered = False
        for cause_line in lines[j + 1 :]:
            c = _CAUSE.match(cause_line)
            if c is None or not cause_line.strip():
                break
            if c.group("n") is not None or not causes:
                numbered = numbered or c.group("n") is not None
                causes.append([c.group("message")])
            elif numbered and cause_line.startswith("       "):
                causes[-1].append(cause_line[7:])
            else:
                causes[-1].append(cause_line[4:])
        if not causes:
            continue
        chain = [
            PastedError(None, "\n".join(c), [], relation="cause", source_format=ANYHOW)
            for c in reversed(causes)
        ]
        chain.append(PastedError(None, "\n".join(head), [], source_format=ANYHOW))
        return chain
    return []


def parse(text: str) -> list[PastedError]:
    """The Rust panics (or the anyhow report) of a paste, or ``[]`` when it holds none."""
    if "panicked at " in text:
        found = _panics(text)
        if found:
            return found
    if "Caused by:" in text and "Error: " in text:
        return _anyhow(text)
    return []
