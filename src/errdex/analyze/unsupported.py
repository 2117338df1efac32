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

import re
from typing import TYPE_CHECKING

from .guards import CONDITION_KINDS, code, isinstance_checks
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
    """The conditions on the way include an ``isinstance`` test and the message says a
    feature is not supported, without a word on types or the types the test names."""
    if site.template.is_opaque:
        return False
    text = " ".join(site.template.literals)
    if not _UNSUPPORTED.search(text) or _TYPE_WORDS.search(text):
        return False
    checks = [
        check
        for guard in site.guards
        if guard["kind"] in CONDITION_KINDS
        for check in isinstance_checks(str(guard["text"]))
    ]
    if not checks:
        return False
    named = {t.strip("() ").rpartition(".")[2] for _, types, _ in checks for t in types.split(",")}
    return not any(re.search(rf"\b{re.escape(n)}\b", text) for n in named if n)


def unsupported_solution(g: Gathered) -> tuple[str, list[str]] | None:
    """The message's own words on what is not supported, and that no other type makes
    the call do it."""
    if not turned_away(g.site):
        return None
    cause = stated_cause(g.site.template)
    said = f" ({quote(cause)})" if cause else ""
    return (
        f"The message says what the library does not support{said}: the type test before "
        f"it turns that case away rather than asking for another type, so no argument of "
        f"another type avoids {code(g.site.error_class or 'it')}; avoid the setup the message names.",
        ["site.template", "site.guards"],
    )
