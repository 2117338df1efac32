"""Rust string literals and ``format!`` strings, read exactly as rustc reads them.

tree-sitter-rust gives a string literal as runs of ``string_content`` and
``escape_sequence`` (in a macro's token tree too): the escapes are decoded here
(``\\n``, ``\\x41``, ``\\u{e9}``, ``\\"``), a ``\\`` at the end of a line drops the newline
and the next line's leading whitespace, and a raw string (``r#"…"#``) is verbatim.
A format string's ``{{``/``}}`` are braces; every ``{…}`` is a hole written as the source
writes it (``{}``, ``{0}``, ``{x:?}``, ``{:>8.3}``) and named by what it prints.
"""

from __future__ import annotations

from collections.abc import Sequence

from tree_sitter import Node

from errdex.template import Hole, Literal, MessageTemplate, Part

__all__ = ["format_template", "string_value"]

_SIMPLE = {"n": "\n", "r": "\r", "t": "\t", "\\": "\\", "0": "\0", "'": "'", '"': '"'}
_WHITESPACE = " \t\n\r"


def _escape(text: str) -> str | None:
    """The character an escape sequence stands for; None for a line continuation."""
    body = text[1:]
    if body[:1] in ("\n", "\r"):
        return None
    if body in _SIMPLE:
        return _SIMPLE[body]
    if body.startswith("x") and len(body) == 3:
        return chr(int(body[1:], 16))
    if body.startswith("u{") and body.endswith("}"):
        digits = body[2:-1].replace("_", "")
        code = int(digits, 16) if digits else 0xFFFD
        return chr(code) if code <= 0x10FFFF and not 0xD800 <= code <= 0xDFFF else "\ufffd"
    return body  # unknown: rustc refuses it; keep the text rather than guess


def string_value(node: Node) -> str | None:
    """The value of a ``"…"`` or raw string literal node, or None for anything else."""
    if node.type == "raw_string_literal":
        return "".join(
            (c.text or b"").decode("utf-8", errors="replace")
            for c in node.children
            if c.type == "string_content"
        )
    if node.type != "string_literal":
        return None
    out: list[str] = []
    skip_space = False
    for child in node.children:
        text = (child.text or b"").decode("utf-8", errors="replace")
        if child.type == "string_content":
            out.append(text.lstrip(_WHITESPACE) if skip_space else text)
            skip_space = False
        elif child.type == "escape_sequence":
            value = _escape(text)
            skip_space = value is None
            if value is not None:
                out.append(value)
    return "".join(out)


def _field_end(fmt: str, start: int) -> int:
    """The index of the ``}`` closing the field opened at ``start`` (nested ``{`` can appear
    in no valid spec, so the first one closes it), or -1."""
    return fmt.find("}", start + 1)


def format_template(fmt: str, positional: Sequence[str] = ()) -> MessageTemplate:
    """A ``format!`` string as a template. ``positional`` are the sources of the arguments
    after it. A hole is named by the source of the argument it prints (``{}`` -> ``x``),
    by its name when inline or named (``{x}``, ``{x:?}``, ``{x}`` with ``x = …``)."""
    parts: list[Part] = []
    literal: list[str] = []
    auto = 0
    i = 0
    n = len(fmt)
    while i < n:
        c = fmt[i]
        if c == "{" and fmt.startswith("{{", i):
            literal.append("{")
            i += 2
            continue
        if c == "}" and fmt.startswith("}}", i):
            literal.append("}")
            i += 2
            continue
        if c != "{":
            literal.append(c)
            i += 1
            continue
        end = _field_end(fmt, i)
        if end < 0:  # rustc refuses it; the rest is text
            literal.append(fmt[i:])
            break
        field = fmt[i + 1 : end]
        argument = field.split(":", 1)[0].strip()
        if argument == "":
            name = positional[auto] if auto < len(positional) else str(auto)
            auto += 1
        elif argument.isdigit():
            index = int(argument)
            name = positional[index] if index < len(positional) else argument
        else:
            name = argument  # inline (``{x}``) or ``x = …``: the name is what it prints
        parts.append(Literal("".join(literal)))
        literal = []
        parts.append(Hole(fmt[i : end + 1], name))
        i = end + 1
    parts.append(Literal("".join(literal)))
    return MessageTemplate(parts)
