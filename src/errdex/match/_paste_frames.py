"""Frame header lines: CPython's ``File "x", line N, in f`` and IPython's many spellings.

IPython 9 prints ``Cell In[3], line 5`` and ``File ~/x.py:12, in f(a, b)``; IPython 8.0-8.4
printed ``Input In [3], in f()``; IPython 7 printed ``<ipython-input-3-ab12> in f()`` and
``~/x.py in f(a)``, leaving the line number to the ``---->`` arrow below.
"""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.match._paste_lines import CAP
from errdex.match._paste_model import Frame

_CPYTHON = re.compile(
    r'(?P<indent>\s*)File "(?P<path>[^"]*)", line (?P<line>\d+)(?:, in (?P<func>.*))?\s*$'
)
_IPYTHON_FILE = re.compile(
    r"(?P<indent>\s*)File (?P<path>(?:[A-Za-z]:)?[^\s:\"][^:]*):(?P<line>\d+)(?P<rest>.*)$"
)
_IPYTHON_CELL = re.compile(
    r"(?P<indent>\s*)(?P<path>Cell In ?\[\d+\]), line (?P<line>\d+)(?P<rest>.*)$"
)
_IPYTHON_INPUT = re.compile(r"(?P<indent>\s*)(?P<path>Input In ?\[\d+\])(?P<rest>.*)$")
_IN_FUNCTION = re.compile(r",? in (?P<func>\S.*)$")
_IPYTHON7_PATH_ENDS = (".py", ".pyx", ".pyi", ".ipy", ">")
ARROW = re.compile(r"-+>\s*(?P<line>\d+)(?P<src>.*)$")


class FrameLine(NamedTuple):
    """A parsed frame header; indented headers have their source on the next line."""

    path: str
    line: int | None
    function: str | None
    indent: int
    ipython: bool


def parse_frame(line: str, *, ipython: bool) -> FrameLine | None:
    """A frame header, or None. ``ipython`` also admits IPython 7's loose ``x in f()`` form."""
    head = line[:CAP]
    body = head.lstrip() if head[:1] in (" ", "\t") else head
    if body.startswith("File "):
        if body[5:6] == '"':
            return _cpython_frame(head)
        return _ipython_frame(_IPYTHON_FILE.match(head), with_line=True)
    if body.startswith("Cell In"):
        return _ipython_frame(_IPYTHON_CELL.match(head), with_line=True)
    if body.startswith("Input In"):
        return _ipython_frame(_IPYTHON_INPUT.match(head), with_line=False)
    if body is head and (ipython or head.startswith("<ipython-input-")):
        return _ipython7_frame(head)
    return None


def _cpython_frame(head: str) -> FrameLine | None:
    """``File "x.py", line 3, in f`` (or without ``in f`` for a syntax error's location)."""
    match = _CPYTHON.match(head)
    if match is None:
        return None
    return FrameLine(match["path"], int(match["line"]), match["func"], len(match["indent"]), False)


def _ipython_frame(match: re.Match[str] | None, *, with_line: bool) -> FrameLine | None:
    """An IPython 8+ header: what follows the location must be empty or ``, in f(...)``."""
    if match is None:
        return None
    rest = match["rest"].rstrip()
    function = None
    if rest:
        tail = _IN_FUNCTION.match(rest)
        if tail is None:
            return None
        function = _strip_arguments(tail["func"])
    line = int(match["line"]) if with_line else None
    return FrameLine(match["path"], line, function, len(match["indent"]), True)


def _ipython7_frame(head: str) -> FrameLine | None:
    """``<ipython-input-3-ab12> in f(x)`` or ``~/x.py in f(x)``: no line number printed."""
    text = head.rstrip()
    at = text.find(" in ")
    if at <= 0 or not text.endswith(")") or text[0].isspace():
        return None
    path = text[:at]
    if ": " in path or not (path.startswith("<") or path.endswith(_IPYTHON7_PATH_ENDS)):
        return None
    return FrameLine(path, None, _strip_arguments(text[at + 4 :]), 0, True)


def _strip_arguments(text: str) -> str:
    """``check(value=5, limit=3)`` -> ``check``; ``<cell line: 1>()`` -> ``<cell line: 1>``."""
    text = text.strip()
    if text.endswith(")"):
        at = text.find("(")
        if at > 0:
            return text[:at]
    return text


class Trace:
    """The frames of the traceback being read; the last one stays open for its code line."""

    __slots__ = ("expect_source", "frames", "ipython", "open", "source")

    def __init__(self, ipython: bool) -> None:
        self.ipython = ipython
        self.frames: list[Frame] = []
        self.open: FrameLine | None = None
        self.source: str | None = None
        self.expect_source = False

    def add(self, header: FrameLine) -> None:
        """A new frame header: close the previous frame."""
        self.close()
        self.open = header
        self.ipython = self.ipython or header.ipython
        self.expect_source = header.indent > 0 or not header.ipython

    def arrow(self, line: int, source: str) -> None:
        """IPython's ``----> 12 code`` marks the frame's line (IPython 7 prints it only here)."""
        header = self.open
        if header is None or self.source is not None:
            return
        if header.line is None:
            self.open = header._replace(line=line)
        self.source = source or None
        self.ipython = True

    def code(self, code: str) -> None:
        """The code line CPython prints under a frame header."""
        self.source = code
        self.expect_source = False

    def close(self) -> list[Frame]:
        """Turn the open frame into a :class:`Frame`; return all frames so far."""
        header = self.open
        if header is not None:
            self.frames.append(Frame(header.path, header.line, header.function, self.source))
            self.open = self.source = None
        return self.frames
