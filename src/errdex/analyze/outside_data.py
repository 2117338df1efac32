"""Whether a raise reports data from outside the program (a server's reply, a file's
contents, a directory's entries), which the caller catches rather than checks.

A caller controls what it passes and the state its own calls left; it does not control
what a socket, a file or a server returns. ``http.client.parse_headers`` raises
``LineTooLong`` when ``len(line) > _MAXLINE`` with ``line = fp.readline(...)``: the
comparison reads like an out-of-range argument, but the line is the server's. So the
families of a caller's mistake (:data:`USAGE_FAMILIES`) are not given from the guard or
the message where the condition reads such data, or where the class is a protocol or
I/O family of the library's own (``ftplib.error_proto``, ``smtplib.SMTPException``, an
``OSError`` subclass), unless the condition reads the caller's own arguments.
"""

from __future__ import annotations

import re

from .facts import FuncFacts
from .guards import CONDITION_KINDS, free_names
from .sites import SiteView

__all__ = ["USAGE_FAMILIES", "from_outside", "innermost", "protocol_class", "reads_outside"]

#: Families of a mistake in the calling code (a bad argument, a misuse of an object, an
#: internal check): catching one "where the program must go on" hides the mistake, so no
#: catch advice is written for them. Failures of the world outside the call (I/O,
#: network, a malformed input file, a timeout) keep it.
USAGE_FAMILIES = frozenset(
    {
        "type-mismatch",
        "invalid-value",
        "missing-attribute",
        "internal-assertion",
        "shape-mismatch",
        "empty-input",
        "out-of-range",
        "invalid-state",
    }
)

#: A call that returns what came from outside: a read from a file or socket, a server's
#: reply (``getresp``, ``voidcmd``, ``_read_status``), a directory's entries.
_READ_CALL = re.compile(
    r"(?:\.|\b)_*(?:read(?:line|lines|1|into|_\w+)?|recv\w*|get_?(?:multi)?line"
    r"|get_?resp\w*|get_?reply|void(?:resp|cmd)|sendcmd|listdir|scandir)\s*\("
)
#: A name that holds a server's reply (``resp``, ``ftplib``'s ``treply``).
_REPLY_NAME = re.compile(r"^_*(?:\w*reply|resp|response)$")
#: A library class named for a wire protocol or its replies: ``HTTPException``,
#: ``NNTPDataError``, ``ftplib.error_proto``, ``SMTPResponseException``.
_PROTOCOL_WORDS = re.compile(
    r"HTTP|FTP|SMTP|NNTP|POP3|IMAP|[Pp]roto(?:col)?(?!type)|Reply|Response|Remote|Server"
)


def protocol_class(site: SiteView, ancestors: frozenset[str]) -> bool:
    """A library's own class (not a builtin) of a protocol family, by its name or a
    base's, or derived from ``OSError``: ``smtplib.SMTPException``, ``gzip.BadGzipFile``."""
    own = site.canonical_class or ""
    if not own or own.startswith("builtins."):
        return False
    if "builtins.OSError" in ancestors:
        return True
    names = {n.rpartition(".")[2] for n in ancestors if not n.startswith("builtins.")}
    names.add(own.rpartition(".")[2])
    return any(_PROTOCOL_WORDS.search(n) for n in names)


def innermost(site: SiteView) -> str | None:
    """The condition closest to the raise, unless a handler is closer (then the raise
    translates a caught error, and an outer condition says nothing of its cause)."""
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            return None
        if guard["kind"] in CONDITION_KINDS:
            return str(guard["text"])
    return None


def _binding_lines(site: SiteView, func: FuncFacts, name: str) -> list[str]:
    """The source lines (from the record's window) where the function binds ``name``."""
    window = site.window()
    if window is None:
        return []
    lines, at = window
    out = []
    for line in func.bound_lines.get(name, ()):
        index = at + line - site.line
        if 0 <= index < len(lines):
            out.append(lines[index])
    return out


def _outside_name(site: SiteView, func: FuncFacts, name: str, seen: frozenset[str]) -> bool:
    if _REPLY_NAME.match(name):
        return True
    ref = func.local_calls.get(name) or func.local_binds.get(name, ("", ()))[1]
    if ref and ref[-1] and _READ_CALL.search(f".{ref[-1]}("):
        return True
    head = ref[0] if ref and ref[0] not in seen and ref[0] != name else ""
    if head and _outside_name(site, func, head, seen | {name}):  # ``left = resp.find('(')``
        return True
    return any(_READ_CALL.search(text) for text in _binding_lines(site, func, name))


def reads_outside(site: SiteView, func: FuncFacts | None) -> bool:
    """The condition closest to the raise reads a local bound to what a read returned
    (``line = fp.readline(_MAXLINE + 1)``, ``for entry in os.listdir(...)``), a value
    derived from one, or a name that holds a server's reply (``resp``)."""
    text = innermost(site)
    if func is None or text is None:
        return False
    names = free_names(text) or set()
    return any(_outside_name(site, func, n, frozenset()) for n in sorted(names))


def from_outside(
    site: SiteView, ancestors: frozenset[str], func: FuncFacts | None, subject: str | None
) -> bool:
    """The raise reports data from outside: its condition reads such data, or its class is
    a protocol or I/O family and the condition does not read the caller's arguments."""
    if reads_outside(site, func):
        return True
    return subject != "argument" and protocol_class(site, ancestors)
