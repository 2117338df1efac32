"""ErrorSite: what an extractor knows about one place that raises, warns or asserts."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any, Literal

from errdex.record import ErrorType, Severity
from errdex.template import MessageTemplate

from .template_notes import template_notes

__all__ = ["ErrorSite", "Guard", "SiteKind", "message_display", "message_key"]

#: raise/warn/assert in Python, and yield (``yield ValidationError(…)``: the exception is
#: made there and handed to the generator's consumer, which raises it elsewhere); throw
#: (C++, JavaScript, Java), panic (Go, Rust), log (``console.error``), set
#: (``PyErr_SetString``: the C API sets the error, it returns).
SiteKind = Literal["raise", "warn", "assert", "yield", "throw", "panic", "log", "set"]


@dataclass(frozen=True, slots=True)
class Guard:
    """One enclosing clause on the way to the raise, innermost last.

    ``text`` is the condition in source form under which the raise is reached: the
    ``if`` test, or its negation when the raise sits in the ``else`` branch.
    """

    kind: str  # if, elif, else, while, while-else, for, except, case, assert
    text: str
    line: int

    def to_json(self) -> dict[str, Any]:
        return {"kind": self.kind, "text": self.text, "line": self.line}


@dataclass(slots=True)
class ErrorSite:
    """A raise/warn/assert site and its message template, before analysis."""

    file_path: str
    line: int
    end_line: int
    kind: SiteKind
    template: MessageTemplate
    error_class: str | None
    qualified_class: str | None
    qualname: str
    function: str | None
    style: str
    error_type: ErrorType = "exception"
    severity: Severity = "error"
    guards: tuple[Guard, ...] = ()
    cause: str | None = None
    notes: list[str] = field(default_factory=list)
    #: Set when one file raises the same message at several sites (see record_id).
    disambiguator: str | None = None
    #: The registered language whose extractor found the site (``errdex.extract.registry``).
    language: str = "python"
    #: The line of the file on disk that wrote the site, where that is not ``line``: a
    #: template's line (``.pyx.in``), while ``line`` is the rendered file's, which
    #: tracebacks print. The source window and permalink show this one.
    source_line: int | None = None
    #: A code the error carries beside its message (Node's ``code: 'ERR_…'``): ``errorCode``.
    error_code: str | None = None
    #: The HTTP status a handler answers with (``res.status(404)``, ``http.Error``): ``httpStatus``.
    http_status: int | None = None
    #: For a site at a call of a helper that raises what the call passes
    #: (``context._raise_error(InvalidOperation, '…')``): the helper's raise line in the
    #: same file, a traceback's innermost frame, printed inside this site's line.
    raised_at: int | None = None
    #: A handler of the same function certainly catches it and raises another exception
    #: (:mod:`errdex.extract.python.converted`): that raise's ``line``, ``class``,
    #: ``qualifiedClass``, ``message`` and ``link`` (``cause`` or ``context``).
    conversion: dict[str, Any] | None = None
    #: The class as a traceback prints it where that is not ``qualified_class``, the
    #: defining one: ``_pydecimal`` sets ``__name__ = 'decimal'``, so its classes print as
    #: ``decimal.InvalidOperation`` (``printedClass``; the analyst reads the defining one).
    printed_class: str | None = None
    #: The extension module a compiled site builds into, where its file is not that
    #: module's own source: a ``.pyx``/``.pxi`` another ``.pyx`` includes (msgpack's
    #: ``_unpacker.pyx`` in ``msgpack._cmsgpack``), a header read with its includer
    #: (``module``; the matcher reads it to tell a module's files from a sibling's).
    module: str | None = None
    #: The other extension modules the file builds into: a header every one of several
    #: extensions includes (``pkg/_a.c`` and ``pkg/_b.c`` include ``common.h``) is each
    #: one's (``alsoModules``).
    also_modules: tuple[str, ...] = ()

    def evidence(self) -> dict[str, Any]:
        return {
            "language": self.language,
            "kind": self.kind,
            "style": self.style,
            "qualifiedClass": self.qualified_class,
            "qualname": self.qualname,
            "function": self.function,
            "endLine": self.end_line,
            "guards": [g.to_json() for g in self.guards],
            "cause": self.cause,
            "template": self.template.to_json(),
            "notes": [*self.notes, *template_notes(self.template, self.notes)],
            **({"sourceLine": self.source_line} if self.source_line is not None else {}),
            **({"raisedAt": self.raised_at} if self.raised_at is not None else {}),
            **({"conversion": dict(self.conversion)} if self.conversion else {}),
            **({"printedClass": self.printed_class} if self.printed_class else {}),
            **({"module": self.module} if self.module else {}),
            **({"alsoModules": list(self.also_modules)} if self.also_modules else {}),
        }


def message_display(site: ErrorSite) -> str:
    """``errorMessage``: the template, or, when the message is empty, the class name
    marked as no message (``TypeError (no message)``): the class alone read as if it were
    the text (blind review of stop 35), and a record needs a non-empty text."""
    if site.template.is_empty:
        return f"{site.error_class or 'exception'} (no message)"
    return site.template.display


def message_key(site: ErrorSite) -> str:
    """What a record's id and slug are made from: the template, or the class name when
    the message is empty, as before ``(no message)`` was shown, so ids and URLs stay."""
    if site.template.is_empty:
        return site.error_class or "exception"
    return site.template.display
