"""Line-level recognisers shared by every paste format: exception lines, boundaries, notes.

Every pattern here is anchored at the start of a line and avoids nested or overlapping
quantifiers, so a match costs time linear in the (capped) line length.
"""

from __future__ import annotations

import re
from typing import NamedTuple

# Classification looks at most at this many characters of a line; messages keep the rest.
CAP = 4000

_NAME = re.compile(r"[^\W\d]\w*(?:\.(?:<locals>|[^\W\d]\w*))*")
_ERROR_SUFFIXES = (
    "Error",
    "Exception",
    "Warning",
    "Exit",
    "Interrupt",
    "Iteration",
    "Failure",
    "Fault",
    "Timeout",
)
_PROSE_WORDS = frozenset({"Error", "Warning"})
_CAMEL = re.compile(r"[a-z][A-Z]")
_SYNTAX_CLASSES = frozenset({"SyntaxError", "IndentationError", "TabError"})
#: The last part of a module-qualified class that need not be capitalised: a private class,
#: or a module's lower-case error (``re.error``, ``ftplib.error_proto``, ``socket.herror``).
_MODULE_ERROR = re.compile(r"_+[A-Z]\w+|[a-z]*error(?:_[a-z]+)?")

CHAIN = re.compile(
    r"\s*(?:(?P<cause>The above exception was the direct cause of the following exception:)"
    r"|(?P<context>During handling of the above exception, another exception occurred:))\s*$"
)
TRACEBACK_HEADER = re.compile(
    r"(?P<indent>\s*)(?:Exception Group )?Traceback \(most recent call last\):?\s*$"
)
IPYTHON_HEADER = re.compile(r"(?P<cls>\S+)\s+Traceback \(most recent call last\)\s*$")
WARNING_LINE = re.compile(
    r"(?P<indent>\s*)(?P<path>(?:[A-Za-z]:)?[^\s:][^:]*):(?P<line>\d+): "
    r"(?P<cls>[^\W\d][\w.]*Warning)(?:: (?P<msg>.*)|:?\s*$)"
)
_BOUNDARY = re.compile(
    r"\s*Traceback \(most recent call last\)"
    r"|\s*During handling of the above exception, another exception occurred:"
    r"|\s*The above exception was the direct cause of the following exception:"
    r"|\s*(?:\+ )?Exception Group Traceback \(most recent call last\)"
    r"|\S+ +Traceback \(most recent call last\)"
    r"|={3,}(?: |$)|_{3,}(?: |$)|(?:_ ){3,}|-+ Captured |-- Docs: "
    r"|(?:FAILED|ERROR|PASSED|SKIPPED|XFAIL|XPASS) "
    r"|(?:CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG):"
    r"|\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d"
    r"|>>> |In \[\d+\]: |\$ |```"
)
_JAX_NOTE = "\n--------------------\nFor simplicity, JAX has removed its internal frames"
_JAX_UNFILTERED = "\n\nThe stack trace below excludes JAX-internal frames.\n"


class ExceptionLine(NamedTuple):
    """The first line of ``format_exception_only``: the class and the message's first line."""

    cls: str
    first: str


def parse_exception_line(line: str, *, strict: bool) -> ExceptionLine | None:
    """``Class: message``, ``module.Class: message`` or bare ``Class``.

    ``strict`` is for lines seen outside a traceback, where prose like ``Note: ...`` must not
    pass for an error: the name must then look like an exception class.
    """
    match = _NAME.match(line, 0, CAP)
    if match is None:
        return None
    name, rest = match.group(), line[match.end() :]
    if rest.startswith(": "):
        first = rest[2:]
    elif rest in ("", ":") or rest.isspace() or (rest[0] == ":" and rest[1:].isspace()):
        first = ""
    else:
        return None
    bare = not rest.startswith(": ")
    if not plausible_class(name) or (strict and not _looks_like_error(name, bare=bare)):
        return None
    return ExceptionLine(name, first)


def plausible_class(name: str) -> bool:
    """In a traceback's last line any dotted name, or a capitalised one, is the class."""
    return "." in name or name[:1].isupper()


def _looks_like_error(name: str, *, bare: bool) -> bool:
    """Outside a traceback: an error-like suffix, a module path, or (with a message) CamelCase."""
    last = name.rpartition(".")[2]
    if "." in name and _MODULE_ERROR.fullmatch(last):
        return True  # ``pkg._PrivateError``, ``re.error``, ``ftplib.error_proto``
    if len(last) < 2 or not last[0].isupper():
        return False
    if "." in name:
        return True
    if last.endswith(_ERROR_SUFFIXES):
        return last not in _PROSE_WORDS
    return not bare and _CAMEL.search(last) is not None


def assertion_line(line: str) -> ExceptionLine | None:
    """pytest's rewritten asserts print ``assert 2 == 3`` with no class: it is AssertionError."""
    if line.startswith("assert ") or line == "assert":
        return ExceptionLine("AssertionError", line)
    return None


def is_syntax_class(cls: str | None) -> bool:
    """SyntaxError and its subclasses print the ``File/line/code/^`` layout."""
    return cls is not None and cls.rpartition(".")[2] in _SYNTAX_CLASSES


def is_boundary(line: str, following: str | None) -> bool:
    """Whether ``line`` starts something new, so a message or warning before it has ended."""
    head = line[:CAP]
    if _BOUNDARY.match(head) is not None or WARNING_LINE.match(head) is not None:
        return True
    return (
        following is not None
        and head.startswith("-----")
        and not head.strip("-").strip()
        and IPYTHON_HEADER.match(following[:CAP]) is not None
    )


def split_notes(message: str) -> tuple[str, list[str]]:
    """Move JAX's filtered-traceback texts out of the message into notes."""
    at = message.find(_JAX_NOTE)
    if at >= 0:
        return message[:at], [message[at + 1 :]]
    at = message.find(_JAX_UNFILTERED)
    if at >= 0:
        return message[:at], [message[at + 2 :].rstrip("\n")]
    return message, []


def trim_trailing_blank(parts: list[str]) -> list[str]:
    """Drop trailing blank lines (terminal padding), keeping at least the first line."""
    end = len(parts)
    while end > 1 and not parts[end - 1].strip():
        end -= 1
    return parts[:end]
