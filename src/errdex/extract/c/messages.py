"""Message expressions of C and C++ as templates: literals, adjacent literals and
literal macros joined, ``+`` on ``std::string``, ``absl::StrCat`` and format calls.

Anything the source does not state as text is a hole shown as its source expression
(``{std::to_string(n)}``), as the Python extractor shows a joined-in value.
"""

from __future__ import annotations

import re
from collections.abc import Mapping

from tree_sitter import Node

from errdex.template import MessageTemplate

from .formats import CAPI, PRINTF, decode_escapes, format_template

__all__ = ["Macros", "arguments", "call_name", "literal_text", "message_template", "node_text"]

_TEMPLATE_ARGS = re.compile(r"<[^<>]*>")
#: ``#define NAME "literal"`` bodies, by name.
Macros = Mapping[str, str]

_STRING_NODES = frozenset({"string_literal", "raw_string_literal", "concatenated_string"})
#: Calls whose result is its argument's text (``std::string("…")``, ``py::str("…")``).
_PASS_THROUGH = frozenset(
    {"std::string", "string", "py::str", "pybind11::str", "nb::str", "std::string_view"}
)
_STRCAT = frozenset({"absl::StrCat", "StrCat", "tsl::strings::StrCat", "strings::StrCat"})
_STRFORMAT = frozenset({"absl::StrFormat", "StrFormat", "tsl::strings::Printf", "strings::Printf"})


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def call_name(call: Node) -> str:
    """``PyErr_Format``, ``std::invalid_argument``, ``py::value_error``: the callee as written,
    without template arguments or spaces."""
    fn = call.child_by_field_name("function")
    if fn is None:
        return ""
    if fn.type == "identifier":  # most calls: no spaces, no template arguments
        return (fn.text or b"").decode("utf-8", "replace")
    name = "".join(node_text(fn).split())
    while "<" in name and name != (shorter := _TEMPLATE_ARGS.sub("", name)):
        name = shorter
    return name


def arguments(call: Node) -> list[Node]:
    args = call.child_by_field_name("arguments")
    if args is None:
        return []
    return [c for c in args.named_children if c.type != "comment"]


def literal_text(node: Node, macros: Macros) -> str | None:
    """The text of a string literal, adjacent literals, or a literal macro; else None."""
    if node.type == "string_literal":
        return "".join(
            decode_escapes(node_text(c)) if c.type == "escape_sequence" else node_text(c)
            for c in node.named_children
            if c.type in ("string_content", "escape_sequence")
        )
    if node.type == "raw_string_literal":
        content = [c for c in node.named_children if c.type == "raw_string_content"]
        return node_text(content[0]) if content else ""
    if node.type == "concatenated_string":
        pieces = [literal_text(c, macros) for c in node.named_children]
        return None if any(p is None for p in pieces) else "".join(p or "" for p in pieces)
    if node.type == "identifier":
        return macros.get(node_text(node))
    if node.type == "parenthesized_expression" and node.named_child_count == 1:
        child = node.named_children[0]
        return literal_text(child, macros) if child is not None else None
    return None


def _pieces(node: Node, macros: Macros) -> MessageTemplate:
    """Adjacent literals where one is a macro that is not a literal: that one is a hole."""
    template = MessageTemplate()
    for child in node.named_children:
        text = literal_text(child, macros)
        template = template + (
            MessageTemplate.literal(text)
            if text is not None
            else MessageTemplate.expression(node_text(child))
        )
    return template


def format_from(nodes: list[Node], macros: Macros, printf: bool = False) -> MessageTemplate:
    """``fmt, arg, …`` of a format call; a format that is not text is one hole."""
    if not nodes:
        return MessageTemplate()
    fmt = literal_text(nodes[0], macros)
    if fmt is None:
        return message_template(nodes[0], macros)
    names = [node_text(n) for n in nodes[1:]]
    return format_template(fmt, names, PRINTF if printf else CAPI)


def message_template(node: Node, macros: Macros) -> MessageTemplate:
    """The message an expression builds, literal where the source states it."""
    text = literal_text(node, macros)
    if text is not None:
        return MessageTemplate.literal(text)
    kind = node.type
    if kind == "concatenated_string":
        return _pieces(node, macros)
    if kind == "parenthesized_expression" and node.named_child_count == 1:
        return message_template(node.named_children[0], macros)
    if kind == "binary_expression" and node.child_by_field_name("operator") is not None:
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if (
            op is not None
            and node_text(op) == "+"
            and left is not None
            and right is not None
            and (_stringy(left, macros) or _stringy(right, macros))
        ):
            return message_template(left, macros) + message_template(right, macros)
    if kind == "call_expression":
        name = call_name(node)
        args = arguments(node)
        if name in _PASS_THROUGH and len(args) == 1:
            return message_template(args[0], macros)
        if name in _STRCAT:
            return MessageTemplate.join([message_template(a, macros) for a in args])
        if name in _STRFORMAT:
            return format_from(args, macros, printf=True)
    return MessageTemplate.expression(node_text(node))


def _stringy(node: Node, macros: Macros) -> bool:
    """Whether ``+`` here joins text (a literal, ``std::string(…)``, or a join of them)."""
    if literal_text(node, macros) is not None or node.type in _STRING_NODES:
        return True
    if node.type == "call_expression" and call_name(node) in _PASS_THROUGH | _STRCAT:
        return True
    if node.type == "binary_expression":
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        return any(n is not None and _stringy(n, macros) for n in (left, right))
    return False
