"""A raise that reports a use of an object after its close or in a state that forbids it.

``dbm.dumb``'s ``key in db`` after ``db.close()`` raises ``error('DBM object has already
been closed')``, an ``OSError``; ``imaplib``'s ``IMAP4.select`` before ``login`` raises
``error("command SELECT illegal in state NONAUTH, ...")``. Both classes read like
failures of the world outside the call, and errdex said "catch OSError where the program
must go on" (blind review stop 35, record 07): catching hides a bug of the calling code,
which the caller fixes by not using the object then. Known by the message's words and a
condition over the object's own state (``self._index is None``, ``self.state not in
...``); a peer that closed the connection (``"Connection closed by server"``) is no
mistake of the caller and is left alone.
"""

from __future__ import annotations

import re

from .gathered import Gathered, class_phrase
from .guards import CONDITION_KINDS, free_names
from .quoting import quote, stated_cause

__all__ = ["misuse_kind", "misuse_solution"]

#: The object itself was closed: "has already been closed", "on closed file",
#: "read from closed file", "Event loop is closed".
_CLOSED = re.compile(
    r"\b(?:is|was|has been|have been|already)\s+(?:already\s+)?(?:been\s+)?closed\b"
    r"|\b(?:on|from|to|of)\s+(?:a\s+|the\s+)?closed\b"
    r"|\bafter\s+(?:close|shutdown)\b",
    re.IGNORECASE,
)
#: The call is not allowed in the object's current state: "command %s illegal in state %s".
_STATE = re.compile(
    r"\b(?:illegal|not allowed|not permitted|invalid)\s+in\s+(?:the\s+)?(?:current\s+)?state\b"
    r"|\bwrong state\b",
    re.IGNORECASE,
)
#: Another party closed it, or the data ended: nothing the caller did wrong.
_OUTSIDE = re.compile(
    r"\b(?:by|from)\s+(?:the\s+)?(?:server|peer|remote|host|other end)\b|\bremote\b"
    r"|\bunexpected(?:ly)?\b|\bEOF\b|\bconnection\b",
    re.IGNORECASE,
)


def _reads_self(g: Gathered) -> bool:
    """A condition on the way reads the object (``self``): its state, not an argument; or
    a method raises with no condition at all (``shelve``'s ``_ClosedDict``, the class a
    closed shelf's dict becomes)."""
    if g.func is not None and g.func.cls is not None and not g.site.guards:
        return True
    for guard in g.site.guards:
        if guard["kind"] in CONDITION_KINDS:
            names = free_names(str(guard["text"])) or set()
            if "self" in names:
                return True
    return False


def misuse_kind(g: Gathered) -> str | None:
    """``"closed"`` or ``"state"`` when the message says the object was used after its
    close or in a state that forbids the call, over a check of the object's own state;
    None otherwise (an assertion's check is the method's purpose; a warning goes on)."""
    if g.site.kind != "raise" or g.site.error_class == "AssertionError":
        return None
    if g.site.template.is_opaque or not _reads_self(g):
        return None
    text = " ".join(g.site.template.literals)
    if _OUTSIDE.search(text):
        return None
    if _CLOSED.search(text):
        return "closed"
    if _STATE.search(text):
        return "state"
    return None


def misuse_solution(g: Gathered, call: str | None) -> tuple[str, list[str]] | None:
    """What the calling code does instead of catching: use the object only while it is
    open, or only in a state that allows the call."""
    kind = misuse_kind(g)
    if kind is None:
        return None
    cause = stated_cause(g.site.template)
    said = f" ({quote(cause)})" if cause else ""
    what = f"call {call}" if call else "use it"
    if kind == "closed":
        text = (
            f"The message says the object was already closed{said}: using it after its "
            f"close is a mistake of the calling code, not a failure to catch; {what} only "
            f"while the object is open (after its close, open or make a new one), "
            f"rather than catching "
            f"{class_phrase(g)}."
        )
    else:
        text = (
            f"The message says the call is not allowed in the object's current state{said}: "
            f"{what} only after the calls that put the object in a state that allows it, "
            f"rather than catching {class_phrase(g)}."
        )
    return text, ["site.template", "site.guards"]
