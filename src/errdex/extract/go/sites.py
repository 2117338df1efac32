"""Which Go calls are error sites, and what each one says.

=============================  =====================  =========================================
call                           class recorded         why
=============================  =====================  =========================================
``errors.New("…")``            ``*errors.errorString``  Go prints no class; ``%T`` prints this
``fmt.Errorf("…")``            ``*errors.errorString``  no ``%w``: Errorf calls errors.New
``fmt.Errorf("…%w…", err)``    ``*fmt.wrapError``     one ``%w`` (two or more: ``*fmt.wrapErrors``)
``var ErrX = errors.New(…)``   ``pkg.ErrX``           a sentinel is known by its name
``func (e *T) Error() string`` ``*pkg.T``             the type's own message
``panic(…)``, ``log.Panic*``   ``panic``              prints ``panic: <message>``
``log.Fatal*``                 none                   prints the message, exits 1
``http.Error(w, "…", code)``   none                   answers the request with ``code``
pkg/errors, xerrors            their own types        ``errors.Wrap(err, "m")`` is ``m: <err>``
=============================  =====================  =========================================

A Go panic prints ``panic: `` and then the value: a string as it is, an error's
``Error()``, a Stringer's ``String()``; a runtime fault prints ``panic: runtime error: …``
(which no source site raises: the trace parser names it ``runtime.Error``).
"""

from __future__ import annotations

from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.extract.site import SiteKind
from errdex.record import ErrorType, Severity
from errdex.template import Literal, MessageTemplate

from .http_status import STATUS
from .literals import format_template, verbs
from .messages import Context, arguments, call_name, node_text, sprint, string_value, template_of

__all__ = ["Found", "classify_call"]

PKG_ERRORS = "github.com/pkg/errors"
XERRORS = "golang.org/x/xerrors"


@dataclass(slots=True)
class Found:
    """What one call raises: enough for the extractor to write an ``ErrorSite``."""

    kind: SiteKind
    template: MessageTemplate
    error_class: str | None
    style: str
    error_type: ErrorType = "exception"
    severity: Severity = "error"
    cause: str | None = None
    http_status: int | None = None
    notes: list[str] = field(default_factory=list)
    #: Argument nodes read into the message: sites inside them are this one.
    consumed: tuple[int, ...] = ()


def _errorf(call: Node, context: Context, style: str) -> Found | None:
    args = arguments(call)
    if not args:
        return None
    fmt = string_value(args[0])
    if fmt is None:
        fmt = context.constants.get(node_text(args[0]))
    template = (
        format_template(fmt, [node_text(a) for a in args[1:]])
        if fmt is not None
        else MessageTemplate.expression(node_text(args[0]))
    )
    wrapped = [] if fmt is None else [v for v in verbs(fmt) if v.verb == "w"]
    rest = args[1:]
    causes = [
        node_text(rest[v.argument])
        for v in wrapped
        if v.argument is not None and v.argument < len(rest)
    ]
    if style == "fmt.Errorf":
        shown = {0: "*errors.errorString", 1: "*fmt.wrapError"}.get(len(wrapped), "*fmt.wrapErrors")
    else:
        shown = "*errors.fundamental" if style == "errors.Errorf" else "*xerrors.errorString"
    return Found(
        "raise",
        template,
        shown,
        style,
        cause=", ".join(causes) or None,
        consumed=tuple(a.id for a in args),
    )


def _wrap(call: Node, context: Context, name: str) -> Found | None:
    """pkg/errors' ``Wrap(err, "m")`` prints ``m: <err>``; ``Wrapf`` formats ``m`` first."""
    args = arguments(call)
    if len(args) < 2:
        return None
    message = args[1]
    if name.endswith("f"):
        fmt = string_value(message)
        head = (
            format_template(fmt, [node_text(a) for a in args[2:]])
            if fmt is not None
            else MessageTemplate.expression(node_text(message))
        )
    else:
        head = template_of(message, context)
    err = node_text(args[0])
    template = head + MessageTemplate([Literal(": ")]) + MessageTemplate.expression(err)
    shown = "*errors.withStack" if name.startswith("Wrap") else "*errors.withMessage"
    notes = ["returns nil when the wrapped error is nil"]
    return Found(
        "raise",
        template,
        shown,
        f"errors.{name}",
        cause=err,
        notes=notes,
        consumed=tuple(a.id for a in args),
    )


def _panic(call: Node, context: Context, style: str, args: list[Node]) -> Found:
    if style == "panic":
        template = template_of(args[0], context) if args else MessageTemplate.literal("nil")
    else:
        template = _log_message(style, args, context)
    return Found(
        "panic",
        template,
        "panic",
        style,
        error_type="panic",
        severity="critical",
        consumed=tuple(a.id for a in args),
    )


def _log_message(style: str, args: list[Node], context: Context) -> MessageTemplate:
    """``log.Fatalf`` formats; ``log.Fatal`` prints as ``fmt.Sprint``; ``…ln`` as ``Sprintln``
    less its newline (the log line ends there anyway)."""
    if style.endswith("f"):
        if not args:
            return MessageTemplate()
        fmt = string_value(args[0])
        if fmt is None:
            return MessageTemplate.expression(node_text(args[0]))
        return format_template(fmt, [node_text(a) for a in args[1:]])
    return sprint(args, context, spaced=style.endswith("ln"), newline=False)


def _http_error(call: Node, context: Context) -> Found | None:
    args = arguments(call)
    if len(args) != 3:
        return None
    code = args[2]
    status: int | None = None
    notes: list[str] = []
    text = node_text(code)
    if code.type == "int_literal" and text.isdigit():
        status = int(text)
    elif code.type == "selector_expression":
        status = STATUS.get(text.rpartition(".")[2])
    if status is None or not 100 <= status <= 599:
        status = None
        notes.append(f"the status is {text}, decided at run time")
    return Found(
        "raise",
        template_of(args[1], context),
        None,
        "http.Error",
        error_type="http",
        severity="error" if status is None or status >= 500 else "warning",
        http_status=status,
        notes=notes,
        consumed=(args[1].id,),
    )


def classify_call(call: Node, context: Context) -> Found | None:
    """The site a call is, or None for any other call."""
    package, name = call_name(call, context)
    if package is None:
        if name == "panic":
            return _panic(call, context, "panic", arguments(call))
        wrapper = context.wrappers.get(name.rsplit(".", 1)[-1])
        if wrapper is not None:
            found = _errorf(call, context, "fmt.Errorf")
            if found is not None:
                found.style = "printf wrapper"
                found.notes.append(f"{wrapper} formats the message with fmt.Errorf")
            return found
        return None
    if package == "errors" and name == "New":
        args = arguments(call)
        if len(args) != 1:
            return None
        return Found(
            "raise",
            template_of(args[0], context),
            "*errors.errorString",
            "errors.New",
            consumed=(args[0].id,),
        )
    if package == "fmt" and name == "Errorf":
        return _errorf(call, context, "fmt.Errorf")
    if package in (PKG_ERRORS, XERRORS):
        return _third_party(call, context, package, name)
    if package == "log" and name.startswith(("Fatal", "Panic")):
        if name not in ("Fatal", "Fatalf", "Fatalln", "Panic", "Panicf", "Panicln"):
            return None
        args = arguments(call)
        if name.startswith("Panic"):
            return _panic(call, context, f"log.{name}", args)
        return Found(
            "log",
            _log_message(f"log.{name}", args, context),
            None,
            f"log.{name}",
            error_type="console",
            severity="critical",
            notes=["prints the message through the standard logger, then exits with status 1"],
            consumed=tuple(a.id for a in args),
        )
    if package == "net/http" and name == "Error":
        return _http_error(call, context)
    return None


def _third_party(call: Node, context: Context, package: str, name: str) -> Found | None:
    if name == "New":
        args = arguments(call)
        if len(args) != 1:
            return None
        shown = "*errors.fundamental" if package == PKG_ERRORS else "*xerrors.errorString"
        return Found(
            "raise",
            template_of(args[0], context),
            shown,
            "errors.New",
            consumed=(args[0].id,),
        )
    if name == "Errorf":
        return _errorf(
            call, context, "errors.Errorf" if package == PKG_ERRORS else "xerrors.Errorf"
        )
    if package == PKG_ERRORS and name in ("Wrap", "Wrapf", "WithMessage", "WithMessagef"):
        return _wrap(call, context, name)
    return None
