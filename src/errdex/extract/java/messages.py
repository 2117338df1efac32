"""Message expressions -> templates, as the JVM renders them.

String concatenation prints each operand with ``String.valueOf``; ``String.format``
(``java.util.Formatter``) turns ``%s``/``%d``/``%1$s`` into values, ``%n`` into a line
break and ``%%`` into ``%``; ``MessageFormat.format`` fills ``{0}`` and reads ``''`` as
a quote; Guava's ``Preconditions`` fill only ``%s`` and append the arguments left over
as `` [a, b]``; SLF4J and Log4j fill ``{}``. A value the extractor cannot follow is a
hole named by its source expression (``{name}``).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from itertools import product

from errdex.template import Hole, Literal, MessageTemplate, Part

from .syntax import Node, char_value, decode_string, text

__all__ = [
    "Messages",
    "format_template",
    "guava_template",
    "message_format_template",
    "slf4j_template",
]

#: More alternatives than this (ternaries multiplied out) are not worth a record each.
MAX_ALTERNATIVES = 8

# java.util.Formatter: %[argument_index$][flags][width][.precision][t]conversion
_FORMAT_RE = re.compile(r"%(\d+\$|<)?([-#+ 0,(]*)(\d+)?(\.\d+)?([tT]?[a-zA-Z%])")
_STRING_CALLS = frozenset({"format", "formatted", "valueOf", "join", "toString"})

#: Looks a name up: the expressions a variable holds at the site, or None.
Lookup = Callable[[Node], "list[Node] | None"]


def _hole(node: Node) -> MessageTemplate:
    return MessageTemplate.expression(text(node))


def _arg_names(args: Sequence[Node]) -> list[str]:
    return [text(a) for a in args]


def format_template(fmt: str, args: Sequence[Node]) -> MessageTemplate:
    """``String.format(fmt, args…)``: each specifier a hole named by its argument."""
    names = _arg_names(args)
    parts: list[Part] = []
    pos = 0
    ordinary = 0
    last = -1
    for m in _FORMAT_RE.finditer(fmt):
        parts.append(Literal(fmt[pos : m.start()]))
        pos = m.end()
        conv = m.group(5)
        if conv == "%":
            parts.append(Literal("%"))
            continue
        if conv == "n":
            parts.append(Literal("\n"))
            continue
        index_spec = m.group(1)
        if index_spec == "<":
            index = last
        elif index_spec:
            index = int(index_spec[:-1]) - 1
        else:
            index = ordinary
            ordinary += 1
        last = index
        name = names[index] if 0 <= index < len(names) else str(index)
        parts.append(Hole(m.group(0), name))
    parts.append(Literal(fmt[pos:]))
    return MessageTemplate(parts)


def message_format_template(pattern: str, args: Sequence[Node]) -> MessageTemplate:
    """``MessageFormat.format(pattern, args…)``: ``{0}`` holes, ``'…'`` quoting."""
    names = _arg_names(args)
    parts: list[Part] = []
    i = 0
    buf = ""
    while i < len(pattern):
        c = pattern[i]
        if c == "'":
            end = pattern.find("'", i + 1)
            if end == i + 1:  # '' is one quote
                buf += "'"
                i += 2
                continue
            end = len(pattern) if end < 0 else end
            buf += pattern[i + 1 : end]
            i = end + 1
            continue
        if c == "{":
            end = pattern.find("}", i)
            if end < 0:
                buf += pattern[i:]
                break
            spec = pattern[i : end + 1]
            head = spec[1:-1].split(",", 1)[0].strip()
            parts.append(Literal(buf))
            buf = ""
            index = int(head) if head.isdigit() else -1
            parts.append(Hole(spec, names[index] if 0 <= index < len(names) else head or spec))
            i = end + 1
            continue
        buf += c
        i += 1
    parts.append(Literal(buf))
    return MessageTemplate(parts)


def guava_template(template: str, args: Sequence[Node]) -> MessageTemplate:
    """Guava's ``Strings.lenientFormat``: only ``%s``, extra arguments as `` [a, b]``."""
    names = _arg_names(args)
    pieces = template.split("%s")
    parts: list[Part] = [Literal(pieces[0])]
    used = 0
    for piece in pieces[1:]:
        if used < len(names):
            parts.append(Hole("%s", names[used]))
            used += 1
        else:
            parts.append(Literal("%s"))
        parts.append(Literal(piece))
    if used < len(names):
        parts.append(Literal(" ["))
        for k, name in enumerate(names[used:]):
            if k:
                parts.append(Literal(", "))
            parts.append(Hole("%s", name))
        parts.append(Literal("]"))
    return MessageTemplate(parts)


def slf4j_template(template: str, args: Sequence[Node]) -> MessageTemplate:
    """SLF4J/Log4j ``{}`` placeholders (a trailing throwable fills none)."""
    names = _arg_names(args)
    pieces = re.split(r"(?<!\\)\{\}", template)
    parts: list[Part] = [Literal(pieces[0])]
    for k, piece in enumerate(pieces[1:]):
        parts.append(Hole("{}", names[k] if k < len(names) else str(k)))
        parts.append(Literal(piece))
    return MessageTemplate(parts)


def _concat_operands(node: Node) -> list[Node]:
    """``a + b + c`` as its operands, left to right."""
    if node.type == "binary_expression" and text(node.child_by_field_name("operator")) == "+":
        left = node.child_by_field_name("left")
        right = node.child_by_field_name("right")
        if left is not None and right is not None:
            return [*_concat_operands(left), *_concat_operands(right)]
    return [node]


def _int_literal(node: Node) -> str | None:
    raw = text(node).replace("_", "").rstrip("lL")
    return str(int(raw)) if raw.isdigit() else None


class Messages:
    """Turns one file's message expressions into templates."""

    def __init__(self, lookup: Lookup) -> None:
        self.lookup = lookup

    def is_stringish(self, node: Node) -> bool:
        """Whether an expression is built as a string (what a message argument looks like)."""
        kind = node.type
        if kind == "string_literal":
            return True
        if kind == "parenthesized_expression":
            inner = node.named_children
            return bool(inner) and self.is_stringish(inner[0])
        if kind == "binary_expression":
            return any(self.is_stringish(o) for o in _concat_operands(node) if o is not node)
        if kind == "method_invocation":
            name = text(node.child_by_field_name("name"))
            return name in _STRING_CALLS and self._format_call(node) is not None
        if kind == "ternary_expression":
            branch = node.child_by_field_name("consequence")
            return branch is not None and self.is_stringish(branch)
        return False

    def templates(self, node: Node, depth: int = 0) -> list[MessageTemplate]:
        """The messages an expression may hold (several for a ternary), holes for the rest."""
        if depth > 8:
            return [_hole(node)]
        kind = node.type
        if kind == "string_literal":
            value = decode_string(node)
            return [MessageTemplate.literal(value or "")]
        if kind == "character_literal":
            return [MessageTemplate.literal(char_value(node) or "")]
        if kind == "decimal_integer_literal":
            value = _int_literal(node)
            return [MessageTemplate.literal(value) if value is not None else _hole(node)]
        if kind in ("true", "false", "null_literal"):
            return [MessageTemplate.literal(text(node))]
        if kind == "parenthesized_expression" and node.named_children:
            return self.templates(node.named_children[0], depth + 1)
        if kind == "binary_expression" and self.is_stringish(node):
            return self._concat(node, depth)
        if kind == "ternary_expression":
            found: list[MessageTemplate] = []
            for name in ("consequence", "alternative"):
                branch = node.child_by_field_name(name)
                if branch is not None:
                    found.extend(self.templates(branch, depth + 1))
            return _dedupe(found) if len(found) <= MAX_ALTERNATIVES else [_hole(node)]
        if kind == "method_invocation":
            built = self._format_call(node)
            if built is not None:
                return [built]
        if kind == "identifier":
            values = self.lookup(node)
            if values:
                found = [t for v in values for t in self.templates(v, depth + 1)]
                if len(found) <= MAX_ALTERNATIVES:
                    return _dedupe(found)
        return [_hole(node)]

    def _concat(self, node: Node, depth: int) -> list[MessageTemplate]:
        operands = _concat_operands(node)
        first = next(i for i, o in enumerate(operands) if self.is_stringish(o))
        pieces: list[list[MessageTemplate]] = []
        if first > 1:  # numbers added before the first string: one value
            joined = " + ".join(text(o) for o in operands[:first])
            pieces.append([MessageTemplate.expression(joined)])
            operands = operands[first:]
        pieces.extend(self.templates(operand, depth + 1) for operand in operands)
        total = 1
        for options in pieces:
            total *= len(options)
        if total > MAX_ALTERNATIVES:
            return [_hole(node)]
        return _dedupe([MessageTemplate.join(list(combo)) for combo in product(*pieces)])

    def _format_call(self, node: Node) -> MessageTemplate | None:
        """``String.format``, ``"…".formatted``, ``MessageFormat.format``, ``String.valueOf``."""
        name = text(node.child_by_field_name("name"))
        owner = node.child_by_field_name("object")
        args_node = node.child_by_field_name("arguments")
        args = list(args_node.named_children) if args_node is not None else []
        owner_text = text(owner)
        if name == "formatted" and owner is not None:
            fmt = self._literal(owner)
            return format_template(fmt, args) if fmt is not None else None
        if name == "format" and owner_text in ("String", "java.lang.String"):
            if args and not self._is_format_string(args[0]) and len(args) > 1:
                args = args[1:]  # String.format(Locale.ROOT, fmt, …)
            fmt = self._literal(args[0]) if args else None
            return format_template(fmt, args[1:]) if fmt is not None else None
        if name == "format" and owner_text in ("MessageFormat", "java.text.MessageFormat"):
            pattern = self._literal(args[0]) if args else None
            if pattern is None:
                return None
            rest = args[1:]
            if len(rest) == 1 and rest[0].type == "array_creation_expression":
                init = rest[0].child_by_field_name("value")
                rest = list(init.named_children) if init is not None else rest
            return message_format_template(pattern, rest)
        if name == "valueOf" and owner_text == "String" and len(args) == 1:
            return _hole(args[0])
        return None

    def _is_format_string(self, node: Node) -> bool:
        return self._literal(node) is not None

    def _literal(self, node: Node) -> str | None:
        """A string constant: a literal, a concatenation of literals, or a name bound to one."""
        if node.type == "string_literal":
            return decode_string(node)
        if node.type == "parenthesized_expression" and node.named_children:
            return self._literal(node.named_children[0])
        if node.type == "binary_expression":
            operands = _concat_operands(node)
            if len(operands) > 1:
                pieces = [self._literal(o) for o in operands]
                if all(v is not None for v in pieces):
                    return "".join(v for v in pieces if v is not None)
            return None
        if node.type == "identifier":
            bound = self.lookup(node)
            if bound and len(bound) == 1:
                return self._literal(bound[0])
        return None

    def literal(self, node: Node) -> str | None:
        return self._literal(node)


def _dedupe(templates: list[MessageTemplate]) -> list[MessageTemplate]:
    return list(dict.fromkeys(templates))
