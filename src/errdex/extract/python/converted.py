"""Raises a handler of the same function catches and turns into another exception.

``try: if len(query) and not isinstance(query[0], tuple): raise TypeError; except
TypeError as err: raise TypeError("not a valid non-string sequence or mapping object")
from err`` (``urllib.parse.urlencode``): the bare ``TypeError`` still happens and a
traceback prints it, but only as the cause (``from err``) or context (no ``from``) of
the one raised in the handler, which is what the caller gets. The site stays; it
carries where the handler raises and how the two are linked. Only what is certain
counts: the handler certainly catches it (:func:`.caught.catcher`), and its body ends
with that ``raise`` and holds no other way out (no other ``raise``, ``return``,
``break``, ``continue``, nested definition), so every run of it raises there.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from errdex.extract.site import ErrorSite

from .caught import catcher
from .subtree import walk

__all__ = ["Converting", "conversion_of", "converted_by"]


@dataclass(frozen=True, slots=True)
class Converting:
    """The handler's ``raise`` that the caller sees instead, and how it links this one."""

    raise_stmt: ast.Raise
    handler_line: int
    link: str  # "cause" (``from`` the caught name) or "context" (no ``from``)


_EXITS = (ast.Return, ast.Break, ast.Continue, ast.Raise)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def _link(stmt: ast.Raise, name: str | None) -> str | None:
    if stmt.cause is None:
        return "context"
    if isinstance(stmt.cause, ast.Name) and name is not None and stmt.cause.id == name:
        return "cause"
    return None  # ``from None`` hides it; ``from other`` shows another error


def converted_by(exc: ast.expr, tries: Sequence[ast.Try]) -> Converting | None:
    """How the handler that certainly catches ``raise exc`` raises another exception
    instead, or None when that is not certain (see the module's docstring)."""
    handler = catcher(exc, tries)
    if handler is None or not handler.body:
        return None
    last = handler.body[-1]
    if not isinstance(last, ast.Raise) or last.exc is None:
        return None
    if isinstance(last.exc, ast.Name) and last.exc.id == handler.name:
        return None  # ``raise err``: the same exception goes on
    for stmt in handler.body:
        for node in walk(stmt):
            if node is not last and isinstance(node, (*_EXITS, *_NESTED)):
                return None
    link = _link(last, handler.name)
    return Converting(last, handler.lineno, link) if link is not None else None


def conversion_of(converting: Converting, sites: Sequence[ErrorSite]) -> dict[str, Any] | None:
    """The evidence of a conversion, from the site the handler's ``raise`` gave (``message``
    None: it has none): None when it gave none, or several (then which one the caller
    sees is not one answer)."""
    line = converting.raise_stmt.lineno
    made = {
        (s.error_class, s.qualified_class, None if s.template.is_empty else s.template.display)
        for s in sites
        if s.line == line and s.kind == "raise"
    }
    if len(made) != 1:
        return None
    shown, qualified, message = made.pop()
    if shown is None:
        return None
    return {
        "line": line,
        "class": shown,
        "qualifiedClass": qualified,
        "message": message,
        "link": converting.link,
        "handlerLine": converting.handler_line,
    }
