"""JavaScript message expressions -> message templates.

A string literal is literal text (escapes decoded, as the runtime prints it); a template
literal's ``${expr}`` is a hole named after ``expr``; ``+`` joins parts, a non-string
operand becoming a ``{expr}`` hole; a conditional (``c ? 'a' : 'b'``) or a fallback
(``msg || 'default'``) gives one template per alternative; ``util.format`` and
``console.*`` arguments follow Node's ``%s``/``%d``/``%j``/``%o`` rules.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence

from tree_sitter import Node

from errdex.template import Hole, Literal, MessageTemplate

__all__ = [
    "MAX_ALTERNATIVES",
    "Resolve",
    "format_templates",
    "node_text",
    "string_value",
    "templates_of",
    "unwrap",
]

#: More alternatives than this are cut (a chain of ternaries multiplies them).
MAX_ALTERNATIVES = 8
#: How many variables deep a message is followed (``msg = base + x; base = '…'``).
MAX_DEPTH = 4

#: A variable's value nodes reaching the site (the latest assignments), or None.
Resolve = Callable[[Node], Sequence[Node] | None]

_SIMPLE_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "r": "\r",
    "b": "\b",
    "f": "\f",
    "v": "\v",
    "0": "\0",
}
_FORMAT_RE = re.compile(r"%[sdifjoOc%]")
_UNWRAP = frozenset(
    {"parenthesized_expression", "as_expression", "non_null_expression", "satisfies_expression"}
)
_FORMAT_CALLS = frozenset({"util.format", "format", "require('util').format"})


def node_text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", "replace")


def _escape(seq: str) -> str:
    """One escape sequence (``\\n``, ``\\x41``, ``\\u{1F600}``, a line continuation)."""
    body = seq[1:]
    if not body or body[0] in "\r\n\u2028\u2029":
        return ""
    head = body[0]
    if head in _SIMPLE_ESCAPES and (head != "0" or len(body) == 1):
        return _SIMPLE_ESCAPES[head]
    try:
        if head == "x":
            return chr(int(body[1:3], 16))
        if head == "u":
            digits = body[2:-1] if body.startswith("u{") else body[1:5]
            return chr(int(digits, 16))
    except ValueError:
        return body
    return body


def string_value(node: Node) -> str | None:
    """The runtime value of a ``string`` node, or None for any other node."""
    if node.type != "string":
        return None
    out: list[str] = []
    for child in node.named_children:
        if child.type == "escape_sequence":
            out.append(_escape(node_text(child)))
        else:
            out.append(node_text(child))
    return "".join(out)


def unwrap(node: Node) -> Node:
    """The expression inside parentheses and TypeScript's ``as``/``!``/``satisfies``."""
    while node.type in _UNWRAP and node.named_children:
        node = node.named_children[0]
    return node


def _template_string(node: Node, resolve: Resolve, depth: int) -> list[MessageTemplate]:
    parts: list[list[MessageTemplate]] = []
    for child in node.named_children:
        if child.type == "escape_sequence":
            parts.append([MessageTemplate.literal(_escape(node_text(child)))])
        elif child.type == "template_substitution":
            inner = child.named_children[0] if child.named_children else None
            source = node_text(inner) if inner is not None else ""
            string = string_value(inner) if inner is not None else None
            if string is not None:  # ${'literal'}
                parts.append([MessageTemplate.literal(string)])
            else:
                parts.append([MessageTemplate([Hole("${" + source + "}", source)])])
        else:
            parts.append([MessageTemplate.literal(node_text(child))])
    return _product(parts)


def _product(parts: Sequence[Sequence[MessageTemplate]]) -> list[MessageTemplate]:
    """Every way of joining one alternative of each part, at most MAX_ALTERNATIVES."""
    joined = [MessageTemplate()]
    for alternatives in parts:
        joined = [a + b for a in joined for b in alternatives][:MAX_ALTERNATIVES]
    return joined


def _dedupe(templates: Sequence[MessageTemplate]) -> list[MessageTemplate]:
    return list(dict.fromkeys(templates))[:MAX_ALTERNATIVES]


def templates_of(node: Node | None, resolve: Resolve, depth: int = 0) -> list[MessageTemplate]:
    """The message templates an expression may evaluate to (one, unless it branches)."""
    if node is None:
        return [MessageTemplate()]
    node = unwrap(node)
    kind = node.type
    if kind == "string":
        return [MessageTemplate.literal(string_value(node) or "")]
    if kind == "template_string":
        return _template_string(node, resolve, depth)
    if kind in ("null", "undefined"):
        return [MessageTemplate()]
    if kind == "binary_expression":
        operator = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        op = node_text(operator) if operator is not None else ""
        if left is not None and right is not None:
            if op == "+" and _is_stringy(left, right):
                return _product(
                    [templates_of(left, resolve, depth), templates_of(right, resolve, depth)]
                )
            if op in ("||", "??") and unwrap(right).type in ("string", "template_string"):
                return _dedupe(
                    [*templates_of(left, resolve, depth), *templates_of(right, resolve, depth)]
                )
    if kind == "ternary_expression":
        yes, no = node.child_by_field_name("consequence"), node.child_by_field_name("alternative")
        if yes is not None and no is not None:
            return _dedupe([*templates_of(yes, resolve, depth), *templates_of(no, resolve, depth)])
    if kind == "identifier" and depth < MAX_DEPTH:
        values = resolve(node)
        if values:
            found: list[MessageTemplate] = []
            for value in values:
                found.extend(templates_of(value, resolve, depth + 1))
            # a variable holding no text of its own (``fn = ret``) is shown by its name
            if any(not t.is_opaque for t in found):
                return _dedupe(found)
    if kind == "call_expression":
        callee = node.child_by_field_name("function")
        args = node.child_by_field_name("arguments")
        if callee is not None and args is not None and node_text(callee) in _FORMAT_CALLS:
            return format_templates(args.named_children, resolve)
    return [MessageTemplate.expression(node_text(node))]


def _is_stringy(left: Node, right: Node) -> bool:
    """``a + b`` joins text when either side is text (else it may be arithmetic)."""
    textual = ("string", "template_string", "binary_expression")
    return unwrap(left).type in textual or unwrap(right).type in textual


def format_templates(args: Sequence[Node], resolve: Resolve) -> list[MessageTemplate]:
    """What ``util.format(...)`` (and so ``console.error(...)``) prints for its arguments:
    a leading format string's ``%s``-style specifiers take one argument each, the
    arguments left over follow, separated by spaces."""
    args = [a for a in args if a.type != "comment"]
    if not args:
        return [MessageTemplate()]
    first = unwrap(args[0])
    rest = list(args)
    parts: list[list[MessageTemplate]] = []
    if first.type == "string":
        fmt = string_value(first) or ""
        rest = rest[1:]
        pieces: list[Literal | Hole] = []
        pos = 0
        for m in _FORMAT_RE.finditer(fmt):
            pieces.append(Literal(fmt[pos : m.start()]))
            spec = m.group(0)
            if spec == "%%":
                pieces.append(Literal("%"))
            elif rest:
                arg = rest.pop(0)
                if spec != "%c":  # %c takes a CSS argument and prints nothing
                    pieces.append(Hole(spec, node_text(arg)))
            else:
                pieces.append(Literal(spec))  # no argument left: printed as written
            pos = m.end()
        pieces.append(Literal(fmt[pos:]))
        parts.append([MessageTemplate(pieces)])
    else:
        parts.append(templates_of(first, resolve))
        rest = rest[1:]
    for arg in rest:
        parts.append([MessageTemplate.literal(" ")])
        parts.append(templates_of(arg, resolve))
    return _product(parts)
