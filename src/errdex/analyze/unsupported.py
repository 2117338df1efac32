"""A type test that turns away a case the library does not support, not a wrong type.

``URLopener.open_ftp(url)`` raises ``URLError("ftp error: proxy support for ftp protocol
currently not implemented")`` when ``not isinstance(url, str)``: ``URLopener.open``
passes a ``(host, url)`` tuple there when an ftp proxy is set. "Pass `url` to
`open_ftp()` as an instance of `str`", "check isinstance(url, str)" and the strategy
``type-guard`` (blind review stop 35, record 03) tell the caller to fix a type they never
passed; the cause is the configuration the message names. Known by an ``isinstance``
test as the condition and a message that says something is not supported or
implemented, and names no type (``"unsupported type: %r"`` is a type requirement, and
``tarfile``'s "String names are not supported ... Use a function" says what to pass).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from .guards import CONDITION_KINDS, code, has_private, isinstance_checks, parse_guard
from .quoting import quote, stated_cause
from .sites import SiteView

if TYPE_CHECKING:  # background's rules read it, and gathered imports background
    from .gathered import Gathered

__all__ = ["turned_away", "unsupported_solution"]

#: The message says the library does not do it.
_UNSUPPORTED = re.compile(
    r"\bnot\s+(?:(?:currently|yet|been)\s+)*(?:implemented|supported)\b|\bunsupported\b"
    r"|\bno support\b",
    re.IGNORECASE,
)
#: A message about the value's type: the type test is then the requirement.
_TYPE_WORDS = re.compile(
    r"\b(?:types?|instances?|class|strings?|str|bytes|integers?|int|floats?|lists?|tuples?"
    r"|dict(?:ionar(?:y|ies))?|mappings?|sequences?|functions?|callables?|objects?)\b",
    re.IGNORECASE,
)


def turned_away(site: SiteView) -> bool:
    """The one condition on the way is ``not isinstance(p, T)`` (the raise fires for
    any other type) and the message says a feature is not supported, without a word on
    types or the types the test names. ``isinstance(x, str)`` firing for a ``str`` is
    avoided by another type, and an outer type test leaves the inner condition the cause."""
    if site.template.is_opaque:
        return False
    text = " ".join(site.template.literals)
    if not _UNSUPPORTED.search(text) or _TYPE_WORDS.search(text):
        return False
    checks = _innermost_checks(site)
    if not checks or any(fires_when_instance for _, _, fires_when_instance in checks):
        return False
    named = {t.strip("() ").rpartition(".")[2] for _, types, _ in checks for t in types.split(",")}
    return not any(re.search(rf"\b{re.escape(n)}\b", text) for n in named if n)


def _innermost_checks(site: SiteView) -> list[tuple[str, str, bool]]:
    """The isinstance tests of the one condition on the way, where it is a type test
    alone (none behind a handler: the raise then translates a caught error; none beside
    other conditions, which stay a cause the caller controls)."""
    conditions = [guard for guard in site.guards if guard["kind"] in CONDITION_KINDS]
    if len(conditions) != 1:
        return []
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            return []
        if guard["kind"] in CONDITION_KINDS:
            node = parse_guard(str(guard["text"]))
            while isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
                node = node.operand
            if not (isinstance(node, ast.Call) and getattr(node.func, "id", "") == "isinstance"):
                return []  # other tests beside it (``mode == "fast" and …``) stay a cause
            return isinstance_checks(str(guard["text"]))
    return []


def _callee(g: Gathered) -> str | None:
    """How a caller writes the raising call (``Opener.open_ftp()``), or None."""
    from .param_requirement import call_name  # it imports gathered, which imports this

    return call_name(g.site.qualname, g.func) if g.func is not None else None


def unsupported_solution(g: Gathered) -> tuple[str, list[str]] | None:
    """The message's own words on what is not supported and the type the test turns
    away: a caller of the raising function passes the type it tests for; where the
    library passes the value on itself (``URLopener.open`` hands ``open_ftp`` a tuple
    when an ftp proxy is set), no type the caller picks avoids it."""
    if not turned_away(g.site):
        return None
    cause = stated_cause(g.site.template)
    said = f" ({quote(cause)})" if cause else ""
    subject, types, _ = _innermost_checks(g.site)[0]
    turned = f"any {code(subject)} that is not an instance of {code(types)}"
    callee = _callee(g)
    direct = (
        f"Calling {code(callee)} yourself, pass {code(subject)} as an instance of "
        f"{code(types)}; where the library passes {code(subject)} on for you, "
        if callee and not has_private(callee)
        else "The library passes it on itself: "
    )
    return (
        f"The message says what the library does not support{said}: the type test before "
        f"it turns away {turned}. {direct}avoid the setup the message names.",
        ["site.template", "site.guards"],
    )
