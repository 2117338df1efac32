"""What each matched node raises: its class, message templates, kind and guards.

A ``throw`` creates its exception in place (``throw new X(…)``) or throws a variable
bound to one (``throw e`` after ``e = new X(…)``; a caught exception thrown again is not
a new site). ``Objects.requireNonNull`` and Guava's ``Preconditions`` throw for the
caller; a logger's ``error``/``warn`` prints, it does not throw (``errorType`` console).
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from http import HTTPStatus

from errdex.extract.site import Guard, SiteKind
from errdex.record import ErrorType, Severity
from errdex.template import MessageTemplate

from .bindings import Bindings
from .guards import negate
from .messages import Messages, guava_template, slf4j_template
from .names import Unit
from .syntax import Node, decode_string, text

__all__ = ["Found", "SiteReader"]

_TYPE_ARGS = re.compile(r"<[^<>]*>")
_CRITICAL = frozenset(
    {"OutOfMemoryError", "StackOverflowError", "InternalError", "VirtualMachineError"}
)
_OBJECTS = "java.util.Objects"
#: Guava check -> what it throws.
_CHECKS = {
    "checkArgument": "IllegalArgumentException",
    "checkState": "IllegalStateException",
    "checkNotNull": "NullPointerException",
}
_LOG_LEVELS: dict[str, Severity] = {
    "error": "error",
    "severe": "error",
    "fatal": "critical",
    "warn": "warning",
    "warning": "warning",
}


@dataclass
class Found:
    """One site before it becomes an ErrorSite (one per message alternative)."""

    node: Node
    kind: SiteKind
    error_class: str | None
    qualified_class: str | None
    templates: list[MessageTemplate]
    style: str
    error_type: ErrorType = "exception"
    severity: Severity = "error"
    extra_guards: tuple[Guard, ...] = ()
    notes: list[str] = field(default_factory=list)
    http_status: int | None = None


def _style(node: Node | None) -> str:
    if node is None:
        return "class_no_args"
    kind = node.type
    if kind == "string_literal":
        return "literal"
    if kind == "identifier":
        return "variable"
    if kind == "binary_expression":
        return "concat"
    if kind == "method_invocation":
        return "formatted"
    return "other_expr"


def _args(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    return [a for a in args.named_children if a.type != "line_comment"] if args else []


def _line(node: Node) -> int:
    return node.start_point[0] + 1


def _erase(written: str) -> str:
    """``Holder<String>.Failure`` -> ``Holder.Failure``: the class without type arguments."""
    while "<" in written:
        erased = _TYPE_ARGS.sub("", written)
        if erased == written:
            break
        written = erased
    return "".join(written.split())


def _short(qualified: str) -> str:
    return qualified.rpartition(".")[2].rpartition("$")[2]


class SiteReader:
    """Reads the sites of one file."""

    def __init__(self, unit: Unit, bindings: Bindings) -> None:
        self.unit = unit
        self.bindings = bindings
        self.messages = Messages(bindings.values)

    # -- throw ------------------------------------------------------------------------

    def throw(self, stmt: Node) -> list[Found]:
        thrown = stmt.named_children[0] if stmt.named_children else None
        if thrown is None:
            return []
        while thrown.type == "parenthesized_expression" and thrown.named_children:
            thrown = thrown.named_children[0]
        if thrown.type == "object_creation_expression":
            return [self._creation(stmt, thrown, "direct")]
        if thrown.type == "identifier":
            if text(thrown) in self.bindings.catch_names(stmt):
                return []  # a caught exception thrown on: the site is where it was made
            values = self.bindings.values(thrown)
            if values and all(v.type == "object_creation_expression" for v in values):
                return [self._creation(stmt, v, "variable") for v in values]
        if thrown.type == "method_invocation":
            factory = self._factory(stmt, thrown)
            if factory is not None:
                return [factory]
        return [
            Found(
                stmt,
                "throw",
                None,
                None,
                [MessageTemplate.expression(text(thrown))],
                "other_expr",
                notes=["the thrown value is not created here"],
            )
        ]

    def _factory(self, stmt: Node, call: Node) -> Found | None:
        """``throw NumberFormatException.forInputString(s)``: a static factory of the
        exception class itself (named ``…Exception``/``…Error``) makes what is thrown."""
        owner = call.child_by_field_name("object")
        written = text(owner)
        if owner is None or not written.rpartition(".")[2].endswith(("Exception", "Error")):
            return None
        if owner.type not in ("identifier", "field_access", "scoped_identifier"):
            return None
        qualified = self.unit.qualify(written)
        template = MessageTemplate.expression(text(call))
        note = f"made by {text(call.child_by_field_name('name'))}(), a factory of the class"
        return Found(
            stmt, "throw", _short(qualified), qualified, [template], "other_expr", notes=[note]
        )

    def _creation(self, stmt: Node, creation: Node, how: str) -> Found:
        written = _erase(text(creation.child_by_field_name("type")))
        qualified = self.unit.qualify(written)
        shown = _short(qualified)
        args = _args(creation)
        message = next((a for a in args if self.messages.is_stringish(a)), None)
        if message is None and args:
            message = args[0]
        templates = self.messages.templates(message) if message is not None else [MessageTemplate()]
        style = _style(message) if how == "direct" else "variable"
        built = self._from_constructor(qualified, args)
        if built is not None:
            templates, style = built, "class_init"
        status = _http_status(args[0]) if shown == "ResponseStatusException" and args else None
        if status is not None:
            code, name = status
            # Spring prints ``404 NOT_FOUND "reason"`` (no reason: ``404 NOT_FOUND``)
            reason = args[1] if len(args) > 1 else None
            head = MessageTemplate.literal(f"{code} {name}")
            templates = (
                [
                    head + MessageTemplate.literal(' "') + t + MessageTemplate.literal('"')
                    for t in self.messages.templates(reason)
                ]
                if reason is not None
                else [head]
            )
            found = Found(stmt, "throw", shown, qualified, templates, style, error_type="http")
            found.http_status = code
            return found
        severity: Severity = "critical" if shown in _CRITICAL else "error"
        notes = (
            [f"thrown through a variable created at line {_line(creation)}"]
            if (how == "variable")
            else []
        )
        return Found(
            stmt, "throw", shown, qualified, templates, style, severity=severity, notes=notes
        )

    def assertion(self, stmt: Node) -> list[Found]:
        """``assert cond : message;`` (run with ``-ea``): an AssertionError with that message."""
        parts = [c for c in stmt.named_children if c.type not in ("line_comment", "block_comment")]
        if len(parts) < 2:
            return []  # no message, as Python's message-less asserts are not sites
        cond, message = parts[0], parts[1]
        guard = Guard("assert", negate(cond), _line(stmt))
        return [
            Found(
                stmt,
                "assert",
                "AssertionError",
                "java.lang.AssertionError",
                self.messages.templates(message),
                _style(message),
                extra_guards=(guard,),
            )
        ]

    def _from_constructor(self, qualified: str, args: list[Node]) -> list[MessageTemplate] | None:
        """The message a class of this file builds in its constructor: ``super(…)`` with
        the constructor's parameters replaced by the arguments of this ``new``."""
        for ctor in self.unit.constructors.get(qualified, ()):
            formal = ctor.child_by_field_name("parameters")
            params = list(formal.named_children) if formal is not None else []
            if any(p.type != "formal_parameter" for p in params) or len(params) != len(args):
                continue
            body = ctor.child_by_field_name("body")
            first = body.named_children[0] if body is not None and body.named_children else None
            if first is None or first.type != "explicit_constructor_invocation":
                return None
            if text(first.child_by_field_name("constructor")) != "super":
                return None
            passed = _args(first)
            if not passed:
                return [MessageTemplate()]
            given = {
                text(p.child_by_field_name("name")): a for p, a in zip(params, args, strict=True)
            }

            def lookup(
                name: Node, ctor: Node = ctor, given: dict[str, Node] = given
            ) -> list[Node] | None:
                inside = ctor.start_byte <= name.start_byte < ctor.end_byte
                if inside and text(name) in given:
                    return [given[text(name)]]
                return self.bindings.values(name)

            inner = Messages(lookup)
            message = next((a for a in passed if inner.is_stringish(a)), passed[0])
            return inner.templates(message)
        return None

    # -- calls ------------------------------------------------------------------------

    def call(self, call: Node) -> list[Found]:
        name = text(call.child_by_field_name("name"))
        owner = call.child_by_field_name("object")
        owner_text = text(owner) if owner is not None else None
        owners = self._owners(owner_text, name, call)
        if name == "requireNonNull" and _OBJECTS in owners:
            return self._require_non_null(call)
        if name in _CHECKS and any(o.rpartition(".")[2] == "Preconditions" for o in owners):
            # Guava's, or a shaded copy of it (``….repackaged.com.google.common.base``)
            return self._check(call, name)
        if name in _LOG_LEVELS and owner_text is not None and _is_logger(owner_text):
            return self._log(call, name)
        return []

    def _owners(self, owner: str | None, name: str, call: Node) -> tuple[str, ...]:
        """The classes whose method ``name`` the call may be."""
        if owner is None:
            return self.unit.bare_call_owners(name, call)
        if "." in owner:
            return (owner,)
        return (self.unit.imports.get(owner, {"Objects": _OBJECTS}.get(owner, owner)),)

    def _require_non_null(self, call: Node) -> list[Found]:
        args = _args(call)
        if not args:
            return []
        guard = Guard("assert", f"{text(args[0])} == null", _line(call))
        message = args[1] if len(args) > 1 else None
        if message is not None and message.type == "lambda_expression":
            body = message.child_by_field_name("body")
            message = body if body is not None and body.type != "block" else message
        templates = self.messages.templates(message) if message is not None else [MessageTemplate()]
        return [
            Found(
                call,
                "throw",
                "NullPointerException",
                "java.lang.NullPointerException",
                templates,
                _style(message),
                extra_guards=(guard,),
            )
        ]

    def _check(self, call: Node, name: str) -> list[Found]:
        args = _args(call)
        if not args:
            return []
        shown = _CHECKS[name]
        if name == "checkNotNull":
            guard = Guard("assert", f"{text(args[0])} == null", _line(call))
        else:
            guard = Guard("assert", negate(args[0]), _line(call))
        rest = args[1:]
        if not rest:
            templates = [MessageTemplate()]
        elif len(rest) == 1:
            templates = self.messages.templates(rest[0])
        else:
            fmt = self.messages.literal(rest[0])
            templates = (
                [guava_template(fmt, rest[1:])]
                if fmt is not None
                else [MessageTemplate.expression(text(rest[0]))]
            )
        style = "formatted" if len(rest) > 1 else _style(rest[0] if rest else None)
        return [
            Found(
                call, "throw", shown, "java.lang." + shown, templates, style, extra_guards=(guard,)
            )
        ]

    def _log(self, call: Node, name: str) -> list[Found]:
        args = _args(call)
        if not args:
            return []
        first = args[0]
        fmt = decode_string(first) if first.type == "string_literal" else None
        if fmt is not None and "{}" in fmt:
            templates = [slf4j_template(fmt, args[1:])]
            style = "formatted"
        else:
            templates = self.messages.templates(first)
            style = _style(first)
        severity = _LOG_LEVELS[name]
        return [
            Found(
                call, "log", None, None, templates, style, error_type="console", severity=severity
            )
        ]


def _http_status(node: Node) -> tuple[int, str] | None:
    """``HttpStatus.NOT_FOUND`` or ``HttpStatusCode.valueOf(404)``: (404, ``NOT_FOUND``)."""
    written = text(node)
    name = written.rpartition(".")[2]
    if written.startswith(("HttpStatus.", "org.springframework.http.HttpStatus.")):
        try:
            return int(HTTPStatus[name]), name
        except KeyError:
            return None
    if node.type == "method_invocation" and text(node.child_by_field_name("name")) == "valueOf":
        args = _args(node)
        if len(args) == 1 and args[0].type == "decimal_integer_literal":
            try:
                status = HTTPStatus(int(text(args[0])))
            except ValueError:
                return None
            return int(status), status.name
    return None


def _is_logger(owner: str) -> bool:
    """``log``, ``logger``, ``LOG``, ``this.logger``, ``sLogger``: a logger by its name."""
    last = owner.rpartition(".")[2].lower()
    return last.endswith("log") or last.endswith("logger")
