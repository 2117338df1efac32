"""The sites of one JavaScript/TypeScript file, from the candidates the site query found.

Throws first (``throw new X(…)``, ``throw err`` resolved to the error it was bound to),
then errors handed on (``reject(new X)``, ``Promise.reject``, ``next(err)``/``done``/
``cb``), then http-errors made elsewhere, HTTP error responses (``res.status(404)
.send(…)``, ``res.sendStatus(403)``, ``ctx.throw(401, …)``) and ``console.error``/
``console.warn``. An error already recorded where it is thrown is not recorded again
where it was made.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence

from tree_sitter import Node

from errdex.extract.site import ErrorSite, SiteKind
from errdex.record import ErrorType, Severity
from errdex.template import MessageTemplate

from .errors import (
    HTTP_ERROR_FACTORIES,
    Construction,
    construction_of,
    http_phrase,
    object_props,
    status_of,
)
from .guards import guards_of
from .messages import format_templates, node_text, string_value, templates_of
from .scope import Bindings, ModuleFacts, enclosing_function, function_names

__all__ = ["FileSites"]

_CALLBACKS = frozenset({"reject", "next", "done", "cb", "callback"})
_BODY_KEYS = ("error", "message", "msg", "detail", "err", "errors")


class FileSites:
    """Turns one parsed file's candidate nodes into ErrorSites."""

    def __init__(
        self,
        root: Node,
        data: bytes,
        file_path: str,
        language: str,
        facts: Callable[[], ModuleFacts],
    ) -> None:
        self.root = root
        self.data = data
        self.file_path = file_path
        self.language = language
        self._facts = facts
        self._module: ModuleFacts | None = None
        self.sites: list[ErrorSite] = []
        self._bindings: dict[int, Bindings] = {}
        self._seen: set[int] = set()  # errors already recorded (by their node's id)

    @property
    def facts(self) -> ModuleFacts:
        """The module's imports and classes, read only once a site needs them."""
        if self._module is None:
            self._module = self._facts()
        return self._module

    # -- lookups ------------------------------------------------------------------------

    def _scope_bindings(self, scope: Node | None) -> Bindings:
        key = scope.id if scope is not None else 0
        found = self._bindings.get(key)
        if found is None:
            found = self._bindings[key] = Bindings(self.root, self.data, scope)
        return found

    def _lookup(self, name: Node) -> tuple[Node, Bindings] | None:
        """The value ``name`` holds where it is used: its last assignment before, in the
        innermost enclosing function that assigns it (then outward, then the module)."""
        text = node_text(name)
        scope = enclosing_function(name)
        while True:
            bindings = self._scope_bindings(scope)
            value = bindings.last_before(text, name.start_byte)
            if value is not None:
                return value, bindings
            if scope is None:
                return None
            scope = enclosing_function(scope)

    def resolve(self, name: Node) -> Sequence[Node] | None:
        found = self._lookup(name)
        return [found[0]] if found is not None else None

    def _construction(self, expr: Node, site: Node) -> Construction | None:
        """What ``expr`` constructs, following a variable to the error bound to it."""
        made = construction_of(expr)
        if made is None and expr.type == "ternary_expression":
            # ``reject(cancel ? new CanceledError() : reason)``: the branch that makes one
            for branch in ("consequence", "alternative"):
                part = expr.child_by_field_name(branch)
                made = self._construction(part, site) if part is not None else None
                if made is not None:
                    return made
        if made is not None or expr.type != "identifier":
            return made
        found = self._lookup(expr)
        if found is None:
            return None
        value, bindings = found
        made = construction_of(value)
        if made is None:
            return None
        made.bound = node_text(expr)
        made.props.extend(bindings.members_between(made.bound, made.node.end_byte, site.start_byte))
        return made

    @staticmethod
    def _caught(name: Node) -> bool:
        """Whether ``name`` is the parameter of a ``catch`` clause around it (a re-throw)."""
        text = node_text(name)
        parent = name.parent
        while parent is not None:
            if parent.type == "catch_clause":
                param = parent.child_by_field_name("parameter")
                if param is not None and node_text(param) == text:
                    return True
            parent = parent.parent
        return False

    # -- site kinds ----------------------------------------------------------------------

    def throw(self, stmt: Node) -> None:
        expr = next((c for c in stmt.named_children if c.type != "comment"), None)
        if expr is None:
            return
        made = self._construction(expr, stmt)
        if made is not None:
            self._made(stmt, made, "throw", made.style)
            return
        if expr.type == "identifier" and self._caught(expr):
            return  # re-throws the error it caught: not a new site
        literal = string_value(expr)
        if literal is not None:
            self._add(stmt, "throw", [MessageTemplate.literal(literal)], None, None, "string")
            return
        style = "variable" if expr.type == "identifier" else "expression"
        template = MessageTemplate.expression(node_text(expr))
        self._add(stmt, "throw", [template], None, None, style)

    def call(self, call: Node) -> None:
        """A captured call: a callback or ``Promise.reject``, http-errors, or a response."""
        if call.id in self._seen:
            return
        callee = call.child_by_field_name("function")
        args_node = call.child_by_field_name("arguments")
        if callee is None or args_node is None:
            return
        args = [a for a in args_node.named_children if a.type != "comment"]
        name = node_text(callee)
        last = name.rpartition(".")[2]
        if callee.type == "identifier" and name in HTTP_ERROR_FACTORIES:
            made = construction_of(call)
            if made is not None:
                self._made(call, made, "throw", "http-error")
            return
        if (
            name in _CALLBACKS or (callee.type == "member_expression" and last == "reject")
        ) and args:
            made = self._construction(args[0], call)
            if made is not None:
                style = "reject" if last == "reject" else "callback"
                self._made(call, made, "throw", style)
            elif last == "reject":
                self._passed_on(call, args[0])
            return
        if callee.type != "member_expression":
            return
        if last == "sendStatus":
            self._response(call, status_of(args[0]) if args else None, None)
        elif last == "throw":
            self._ctx_throw(call, args)
        elif last == "status":
            self._status_chain(call, status_of(args[0]) if args else None)

    def _passed_on(self, call: Node, arg: Node) -> None:
        """``reject(err)`` of an error made elsewhere: a site like ``throw err``, unless
        it passes on the error its own ``catch`` caught."""
        if arg.type in ("null", "undefined") or (arg.type == "identifier" and self._caught(arg)):
            return
        template = MessageTemplate.expression(node_text(arg))
        self._add(call, "throw", [template], None, None, "reject")

    def console(self, call: Node) -> None:
        callee = call.child_by_field_name("function")
        args_node = call.child_by_field_name("arguments")
        if callee is None or args_node is None:
            return
        level = node_text(callee).rpartition(".")[2]
        templates = format_templates(args_node.named_children, self.resolve)
        severity: Severity = "warning" if level == "warn" else "error"
        self._add(
            call,
            "log",
            templates,
            None,
            None,
            "console",
            error_type="console",
            severity=severity,
        )

    # -- helpers -----------------------------------------------------------------------

    def _ctx_throw(self, call: Node, args: list[Node]) -> None:
        """Koa's ``ctx.throw(401, 'msg')`` (either order): an http-errors error."""
        status = next((s for s in map(status_of, args) if s is not None), None)
        if status is None:
            return
        made = Construction(call, None, args, "http-error", http_status=status)
        for arg in args:
            if arg.type == "object":
                made.props.extend(object_props(arg))
        self._made(call, made, "throw", "http-error")

    def _status_chain(self, status_call: Node, status: int | None) -> None:
        """``res.status(404).send('…')`` / ``.json({error: '…'})`` / ``.end()``."""
        if status is None:
            return
        member = status_call.parent
        outer = member.parent if member is not None else None
        if member is None or member.type != "member_expression" or outer is None:
            return
        if outer.type != "call_expression":
            return
        args_node = outer.child_by_field_name("arguments")
        body = args_node.named_children[0] if args_node and args_node.named_children else None
        self._response(outer, status, body)

    def _response(self, call: Node, status: int | None, body: Node | None) -> None:
        if status is None:
            return
        templates: list[MessageTemplate]
        notes: list[str] = []
        if body is not None and body.type == "object":
            props = dict(object_props(body))
            key = next((k for k in _BODY_KEYS if k in props), None)
            if key is not None:
                templates = templates_of(props[key], self.resolve)
                notes.append(f"the response body's {key!r} field")
            else:
                templates = [MessageTemplate.expression(node_text(body))]
        elif body is not None:
            templates = templates_of(body, self.resolve)
        else:
            templates = [MessageTemplate.literal(http_phrase(status) or str(status))]
            notes.append("the status's reason phrase, as the response sends it")
        self._add(
            call,
            "throw",
            templates,
            None,
            None,
            "http-response",
            error_type="http",
            http_status=status,
            notes=notes,
        )

    def _made(self, node: Node, made: Construction, kind: SiteKind, style: str) -> None:
        """A site for an error construction (thrown, rejected or passed on at ``node``)."""
        if made.node.id in self._seen:
            return
        self._seen.add(made.node.id)
        notes: list[str] = []
        if made.bound is not None:
            line = made.node.start_point[0] + 1
            notes.append(f"the error was made at line {line} and bound to {made.bound}")
        arg = made.message_arg()
        if made.style == "factory":
            source = node_text(arg) if arg is not None else "error"
            templates = [MessageTemplate.expression(f"{source}.message")]
        elif made.style == "http-error" and arg is None:
            phrase = http_phrase(made.http_status)
            templates = [MessageTemplate.literal(phrase)] if phrase else [MessageTemplate()]
        else:
            templates = templates_of(arg, self.resolve)
        shown = made.class_name
        qualified = (
            self.facts.qualify(made.callee)
            if made.callee is not None and made.style != "factory"
            else shown
        )
        imported = self.facts.imports.get(made.factory) if made.factory else None
        if imported is not None:
            qualified = f"{imported[0]}.{shown}"  # http-errors' class, by where it comes from
        if made.style == "factory" and made.callee is not None:
            obj = made.callee.child_by_field_name("object")
            qualified = self.facts.qualify(obj) if obj is not None else shown
        code = made.code()
        if code is None and shown is not None and made.style in ("new", "call"):
            code = self.facts.class_code(node_text(made.callee) if made.callee else shown)
        status = made.status()
        error_type: ErrorType = "error_code" if code else "exception"
        if status is not None or made.style == "http-error":
            error_type = "http"
        self._add(
            node,
            kind,
            templates,
            shown,
            qualified,
            style,
            error_type=error_type,
            cause=made.cause(),
            error_code=code,
            http_status=status,
            notes=notes,
        )

    def _add(
        self,
        node: Node,
        kind: SiteKind,
        templates: Sequence[MessageTemplate],
        shown: str | None,
        qualified: str | None,
        style: str,
        *,
        error_type: ErrorType = "exception",
        severity: Severity = "error",
        cause: str | None = None,
        error_code: str | None = None,
        http_status: int | None = None,
        notes: Sequence[str] = (),
    ) -> None:
        qualname, function = function_names(node)
        guards = guards_of(node)
        line = node.start_point[0] + 1
        unique = list(dict.fromkeys(templates))
        if len(unique) > 1:
            notes = [*notes, f"one of {len(unique)} alternative messages"]
        for template in unique:
            self.sites.append(
                ErrorSite(
                    file_path=self.file_path,
                    line=line,
                    end_line=node.end_point[0] + 1,
                    kind=kind,
                    template=template,
                    error_class=shown,
                    qualified_class=qualified,
                    qualname=qualname,
                    function=function,
                    style=style,
                    error_type=error_type,
                    severity=severity,
                    guards=guards,
                    cause=cause,
                    notes=list(notes),
                    language=self.language,
                    error_code=error_code,
                    http_status=http_status,
                )
            )
