"""Where the error the site raises is turned into another before a caller sees it.

Two places, both certain or not said: a handler of the raising function itself
(``site.conversion``, found by the extractor, :mod:`errdex.extract.python.converted`),
or, for a private function, the handler of every caller that reaches it
(``plistlib._BinaryPlistParser._read_object`` raises ``InvalidFileException``, and
``parse``, its only caller, catches ``ValueError`` around the call and raises a new
``InvalidFileException()``): the error still happens and a traceback prints it, as the
cause or context of the one raised there, which is the one a caller gets. The converting
``raise`` is itself a site: its line, class and message come from its record.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from errdex.evidence import EntryPoint
from errdex.extract.source_lines import source_lines

from .chain_parts import Conversion
from .facts import FuncFacts
from .sites import SiteView

__all__ = ["caller_conversion", "own_conversion", "own_surfaces"]

_AS_NAME = re.compile(r"\bexcept\b.*\bas\s+(\w+)\s*:")
_OTHER_EXIT = re.compile(r"\b(return|break|continue|raise|yield|def|lambda)\b")


def own_conversion(site: SiteView) -> dict[str, Any] | None:
    """The extractor's ``site.conversion``, with the function that converts."""
    found = (site.evidence.get("site") or {}).get("conversion")
    if not found or not site.function:
        return None
    return {**found, "function": site.function, "where": "here"}


def own_surfaces(entries: list[EntryPoint], own: dict[str, Any]) -> list[EntryPoint]:
    """Entry points of a site its own function converts: each lets out the converted
    class (where no handler further up converts it again), as a caller's conversion
    would be written (``surfacesAs``, ``convertedIn``, ``convertedLine``: the handler's)."""
    for entry in entries:
        if "surfacesAs" not in entry and own.get("class"):
            entry["surfacesAs"] = str(own["class"])
            entry["convertedIn"] = str(own["function"])
            entry["convertedLine"] = int(own.get("handlerLine") or own["line"])
    return entries


def _private(qualname: str, module: str) -> bool:
    """Whether no caller outside the repository is meant to call it: a part of its name
    after the module starts with ``_`` (not a dunder), or it is nested in a function."""
    inner = qualname[len(module) + 1 :] if qualname.startswith(module + ".") else qualname
    if "<locals>" in inner:
        return True
    return any(p.startswith("_") and not p.endswith("__") for p in inner.split("."))


def _handler_lines(site: SiteView, line: int) -> list[str] | None:
    """The record's window from the handler's ``except`` at ``line`` to the site's raise
    (not included); None when the window does not hold them."""
    source, start = site.record.get("sourceCode"), site.record.get("sourceCodeStart")
    if not isinstance(source, str) or not isinstance(start, int):
        return None
    lines = source_lines(source)
    if not 0 <= line - start < site.line - start <= len(lines):
        return None
    return lines[line - start : site.line - start]


def _straight(lines: list[str]) -> bool:
    """Whether nothing between the ``except`` and the raise may leave the handler another
    way (read as text: a word ``return`` in a string counts too, which only says less)."""
    return not any(_OTHER_EXIT.search(text) for text in lines[1:])


def _converting_site(
    sites: Sequence[SiteView], function: str, handler_line: int, written: str
) -> SiteView | None:
    """The one raise that the handler at ``handler_line`` of ``function`` ends in: its
    innermost condition is that handler (no ``if`` inside it), of the class written."""
    found = [
        s
        for s in sites
        if s.function == function
        and s.kind == "raise"
        and s.guards
        and s.guards[-1]["kind"] == "except"
        and int(s.guards[-1].get("line") or 0) == handler_line
        and s.error_class == written.rpartition(".")[2]
    ]
    return found[0] if len({(s.line, s.template.display) for s in found}) == 1 else None


#: Private callers walked up through, at most, to the one that converts.
_MAX_UP = 3

AtCalls = Callable[[str], Sequence[tuple[FuncFacts, Conversion | int | None]]]


def _up(
    function: str, module: str, at_calls: AtCalls, depth: int, seen: frozenset[str]
) -> tuple[Conversion, tuple[str, ...]] | None:
    """The one conversion every way up from the private ``function`` meets first, and
    the private functions passed through on the way; None when a way lets it out of a
    function a user may call, swallows it, meets another conversion, or is too long."""
    if not _private(function, module) or function in seen or depth > _MAX_UP:
        return None
    calls = at_calls(function)
    if not calls:
        return None
    found: set[tuple[Conversion, tuple[str, ...]] | None] = set()
    for caller, outcome in calls:
        if isinstance(outcome, Conversion):
            found.add((outcome, ()))
        elif outcome is None:
            above = _up(caller.qualname, caller.module, at_calls, depth + 1, seen | {function})
            found.add(None if above is None else (above[0], (caller.qualname, *above[1])))
        else:
            return None
        if len(found) > 1 or None in found:
            return None
    return found.pop()


def caller_conversion(
    site: SiteView, at_calls: AtCalls, by_function: dict[str, list[SiteView]]
) -> dict[str, Any] | None:
    """The conversion every exact way up from the site's private function meets first
    (``at_calls``: :meth:`.chains.Chains.at_calls` for the site's class), when it is one
    handler's; None when a way lets it out as it is (or out of a function a user may
    call), swallows it, meets another handler, or the converting raise is not one known
    site (see :func:`_up`)."""
    if not site.function:
        return None
    up = _up(site.function, site.module, at_calls, 1, frozenset())
    if up is None:
        return None
    conversion, via = up
    raised = _converting_site(
        by_function.get(conversion.function, []),
        conversion.function,
        conversion.line,
        conversion.written,
    )
    handler = _handler_lines(raised, conversion.line) if raised is not None else None
    if raised is None or handler is None or not _straight(handler):
        return None
    cause = (raised.evidence.get("site") or {}).get("cause")
    named = _AS_NAME.search(handler[0])
    if cause is None:
        link = "context"
    elif named is not None and cause == named.group(1):
        link = "cause"
    else:
        return None  # ``from None`` hides it; ``from other`` shows another error
    return {
        "line": raised.line,
        "class": raised.error_class,
        "qualifiedClass": raised.qualified_class,
        "message": None if raised.template.is_empty else raised.template.display,
        "link": link,
        "function": conversion.function,
        "handlerLine": conversion.line,
        "where": "caller",
        **({"via": list(via)} if via else {}),
    }
