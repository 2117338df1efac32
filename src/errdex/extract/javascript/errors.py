"""What a JavaScript error expression constructs: its class, message, code and cause.

``new X(msg, {cause})``, ``X(msg)`` (``Error`` is callable), ``X.from(err, …)``
(a static factory), ``Object.assign(new X(msg), {code})``, http-errors' ``createError(404,
msg)``, and a variable bound to any of these, whose ``err.code = 'ERR_…'`` assignments
after the construction count too.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field
from http import HTTPStatus

from tree_sitter import Node

from .messages import node_text, string_value, unwrap

__all__ = [
    "HTTP_ERROR_FACTORIES",
    "Construction",
    "construction_of",
    "http_class",
    "http_phrase",
    "object_props",
    "status_of",
]

#: The constructors of http-errors (``createError``) as projects import them.
HTTP_ERROR_FACTORIES = frozenset({"createError", "createHttpError", "httpErrors"})
_ERR_CODE = re.compile(r"ERR_[A-Z0-9_]+")
_CODE_VALUE = re.compile(r"[A-Z][A-Z0-9_]{2,}")
_FACTORIES = frozenset({"from", "create"})


@dataclass(slots=True)
class Construction:
    """An error made at ``node``: by ``callee`` (None for http-errors) from ``args``."""

    node: Node
    callee: Node | None
    args: list[Node]
    style: str  # new, call, factory, http-error
    props: list[tuple[str, Node]] = field(default_factory=list)
    http_status: int | None = None
    #: The variable the error was bound to before it was thrown.
    bound: str | None = None
    #: http-errors' factory as the module calls it (``createError``).
    factory: str | None = None

    @property
    def class_name(self) -> str | None:
        if self.style == "http-error":
            return http_class(self.http_status)
        if self.callee is None:
            return None
        text = node_text(self.callee)
        if self.style == "factory":
            text = text.rpartition(".")[0]
        return text.rpartition(".")[2]

    def code(self) -> str | None:
        """``code: 'ERR_X'`` in an options object, an ``ERR_X`` argument
        (``AxiosError.ERR_BAD_REQUEST``), or ``err.code = 'ERR_X'`` after construction."""
        for name, value in reversed(self.props):
            if name == "code":
                text = string_value(value)
                if text and _CODE_VALUE.fullmatch(text):
                    return text
        for arg in self.args[1:]:
            found = _code_arg(arg)
            if found is not None:
                return found
        return None

    def status(self) -> int | None:
        """The HTTP status an error class is given: ``HttpStatus.NOT_FOUND`` (any class),
        or a literal 400–599 for a class named ``Http…`` (NestJS' ``HttpException``)."""
        if self.http_status is not None:
            return self.http_status
        http_class = "Http" in (self.class_name or "")
        for arg in self.args[1:]:
            arg = unwrap(arg)
            if arg.type == "member_expression":
                obj, prop = arg.child_by_field_name("object"), arg.child_by_field_name("property")
                if obj is not None and prop is not None and node_text(obj) == "HttpStatus":
                    found = HTTPStatus.__members__.get(node_text(prop))
                    if found is not None and 400 <= found.value <= 599:
                        return found.value
            elif http_class and status_of(arg) is not None:
                return status_of(arg)
        return None

    def cause(self) -> str | None:
        for name, value in self.props:
            if name == "cause":
                return node_text(value)
        return None

    def message_arg(self) -> Node | None:
        if self.style == "http-error":
            return next((a for a in self.args if unwrap(a).type not in ("number", "object")), None)
        return self.args[0] if self.args else None


def _code_arg(arg: Node) -> str | None:
    arg = unwrap(arg)
    if arg.type == "string":
        text = string_value(arg) or ""
        return text if _ERR_CODE.fullmatch(text) else None
    if arg.type == "member_expression":
        prop = arg.child_by_field_name("property")
        text = node_text(prop) if prop is not None else ""
        return text if _ERR_CODE.fullmatch(text) else None
    return None


def object_props(obj: Node) -> list[tuple[str, Node]]:
    """The ``key: value`` pairs (and shorthand ``{ cause }``) of an object literal."""
    props: list[tuple[str, Node]] = []
    for child in obj.named_children:
        if child.type == "pair":
            key, value = child.child_by_field_name("key"), child.child_by_field_name("value")
            if key is not None and value is not None:
                key_text = string_value(key) if key.type == "string" else node_text(key)
                props.append((key_text or "", value))
        elif child.type == "shorthand_property_identifier":
            props.append((node_text(child), child))
    return props


def http_phrase(status: int | None) -> str | None:
    """The reason phrase of a status, as Node's ``http.STATUS_CODES`` spells most of them."""
    try:
        return HTTPStatus(status).phrase if status is not None else None
    except ValueError:
        return None


def http_class(status: int | None) -> str:
    """http-errors' class for a status: ``404`` -> ``NotFoundError``."""
    phrase = http_phrase(status)
    if phrase is None or status is None or status < 400:
        return "HttpError"
    name = re.sub(r"[^ _0-9a-z]", "", phrase, flags=re.I).replace(" ", "")
    return name if name.endswith("Error") else name + "Error"


def status_of(node: Node | None) -> int | None:
    """A literal HTTP error status (400–599), or None."""
    if node is None:
        return None
    node = unwrap(node)
    if node.type != "number":
        return None
    try:
        value = int(node_text(node))
    except ValueError:
        return None
    return value if 400 <= value <= 599 else None


def _class_like(callee: Node) -> bool:
    """A callee that constructs an error when called without ``new``: ``Error(…)``,
    ``TypeError(…)``, ``errors.NotFound(…)``: a capitalised last name."""
    last = node_text(callee).rpartition(".")[2]
    return bool(last) and last[0].isupper() and not last.isupper()


def construction_of(expr: Node) -> Construction | None:
    """The error ``expr`` constructs directly, or None (a variable is the caller's to resolve)."""
    expr = unwrap(expr)
    args_node = expr.child_by_field_name("arguments")
    args = [a for a in args_node.named_children if a.type != "comment"] if args_node else []
    if expr.type == "new_expression":
        callee = expr.child_by_field_name("constructor")
        if callee is None:
            return None
        made = Construction(expr, callee, args, "new")
    elif expr.type == "call_expression":
        callee = expr.child_by_field_name("function")
        if callee is None:
            return None
        name = node_text(callee)
        if name == "Object.assign" and args:
            inner = construction_of(args[0])
            if inner is not None:
                for extra in args[1:]:
                    if unwrap(extra).type == "object":
                        inner.props.extend(object_props(unwrap(extra)))
            return inner
        if name in HTTP_ERROR_FACTORIES:
            status = next((s for s in map(status_of, args) if s is not None), None)
            made = Construction(expr, None, args, "http-error", http_status=status, factory=name)
        elif callee.type == "member_expression" and name.rpartition(".")[2] in _FACTORIES:
            obj = callee.child_by_field_name("object")
            if obj is None or not _class_like(obj):
                return None
            made = Construction(expr, callee, args, "factory")
        elif _class_like(callee):
            made = Construction(expr, callee, args, "call")
        else:
            return None
    else:
        return None
    for arg in made.args[1:]:
        if unwrap(arg).type == "object":
            made.props.extend(object_props(unwrap(arg)))
    return made
