"""What a panicking or error-making macro prints, read from its token tree.

A macro's arguments reach tree-sitter as a flat token tree, not as expressions: they are
split at top-level commas here, the format string is the literal token, and each other
argument is kept as its source text (what a hole is named by). The messages are those
the standard library and anyhow print (Rust ≥ 1.73 for ``assert_eq!``).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from errdex.template import Hole, Literal, MessageTemplate, Part

from .literals import format_template, string_value

__all__ = ["MacroArgs", "macro_args", "macro_message", "message_of_args"]


@dataclass(frozen=True, slots=True)
class MacroArgs:
    """A macro's arguments: each as its tokens, and its source text."""

    tokens: tuple[tuple[Node, ...], ...]
    texts: tuple[str, ...]
    source: bytes


def _text(node: Node) -> str:
    return (node.text or b"").decode("utf-8", errors="replace")


def macro_args(tree: Node, source: bytes) -> MacroArgs:
    """Split a ``token_tree`` at its top-level commas (nested trees stay whole)."""
    inner = tree.children[1:-1] if tree.child_count >= 2 else []
    groups: list[list[Node]] = [[]]
    for child in inner:
        if child.type == "," and not child.is_named:
            groups.append([])
        elif child.type not in ("line_comment", "block_comment"):
            groups[-1].append(child)
    if not groups[-1]:
        groups.pop()  # a trailing comma
    tokens = tuple(tuple(g) for g in groups if g)
    texts = tuple(
        source[g[0].start_byte : g[-1].end_byte].decode("utf-8", errors="replace") for g in tokens
    )
    return MacroArgs(tokens, texts, source)


_NAMED_ARG = re.compile(r"\s*[A-Za-z_]\w*\s*=(?!=)")


def message_of_args(args: MacroArgs, start: int = 0) -> MessageTemplate | None:
    """The message of format arguments from ``args[start]`` on: a format string and its
    arguments (``"bad {}", x``), or one value (``err``) as a hole; None when there are none."""
    if start >= len(args.tokens):
        return None
    first = args.tokens[start]
    if len(first) == 1:
        fmt = string_value(first[0])
        if fmt is not None:
            positional = [t for t in args.texts[start + 1 :] if not _NAMED_ARG.match(t)]
            return format_template(fmt, positional)
    inner = _inner_format(first, args.source)
    if inner is not None:
        return inner
    return MessageTemplate.expression(args.texts[start])


def _inner_format(tokens: tuple[Node, ...], source: bytes) -> MessageTemplate | None:
    """``format!("…", …)`` (or ``format_args!``) written inside another macro's tokens."""
    if len(tokens) != 3 or tokens[1].type != "!" or tokens[2].type != "token_tree":
        return None
    if _text(tokens[0]) not in _FORMATS:
        return None
    return message_of_args(macro_args(tokens[2], source))


_FORMATS = frozenset({"format", "format_args"})


def _stringify(text: str) -> str:
    """``stringify!`` of an expression as ``assert!`` prints it: tokens single-spaced."""
    return " ".join(text.split())


def _prefixed(prefix: str, message: MessageTemplate | None) -> MessageTemplate:
    if message is None:
        return MessageTemplate.literal(prefix)
    return MessageTemplate.literal(prefix + ": ") + message


def _assert_cmp(op: str, args: MacroArgs) -> MessageTemplate:
    """``assertion `left == right` failed[: msg]\\n  left: {:?}\\n right: {:?}``."""
    head = f"assertion `left {op} right` failed"
    message = message_of_args(args, 2)
    left = args.texts[0] if args.texts else "left"
    right = args.texts[1] if len(args.texts) > 1 else "right"
    parts: list[Part] = [Literal(head)]
    if message is not None:
        parts.append(Literal(": "))
        parts.extend(message.parts)
    parts += [Literal("\n  left: "), Hole("{:?}", left), Literal("\n right: "), Hole("{:?}", right)]
    return MessageTemplate(parts)


#: Macros that panic, and the error-making ones of anyhow (and eyre, which copies them).
PANICS = frozenset(
    {
        "panic",
        "unreachable",
        "todo",
        "unimplemented",
        "assert",
        "debug_assert",
        "assert_eq",
        "assert_ne",
        "debug_assert_eq",
        "debug_assert_ne",
    }
)
ERRORS = frozenset({"bail", "anyhow", "ensure", "eyre"})


def macro_message(name: str, args: MacroArgs) -> MessageTemplate:
    """The message the macro ``name`` prints for these arguments."""
    if name == "panic":
        return message_of_args(args) or MessageTemplate.literal("explicit panic")
    if name == "unreachable":
        return _prefixed("internal error: entered unreachable code", message_of_args(args))
    if name == "todo":
        return _prefixed("not yet implemented", message_of_args(args))
    if name == "unimplemented":
        return _prefixed("not implemented", message_of_args(args))
    if name in ("assert", "debug_assert"):
        message = message_of_args(args, 1)
        if message is not None:
            return message
        condition = _stringify(args.texts[0]) if args.texts else ""
        return MessageTemplate.literal(f"assertion failed: {condition}")
    if name in ("assert_eq", "debug_assert_eq"):
        return _assert_cmp("==", args)
    if name in ("assert_ne", "debug_assert_ne"):
        return _assert_cmp("!=", args)
    if name == "ensure":
        message = message_of_args(args, 1)
        if message is not None:
            return message
        condition = _stringify(args.texts[0]) if args.texts else ""
        return MessageTemplate.literal(f"Condition failed: `{condition}`")
    return message_of_args(args) or MessageTemplate()
