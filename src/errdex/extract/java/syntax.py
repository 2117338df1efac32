"""The Java grammar and the small readers every part of the extractor shares.

tree-sitter-java parses a file into a concrete tree; the sites are found with one query
(run in C) and everything else is read by walking up from a site, so the cost of a file
stays close to the cost of its parse.
"""

from __future__ import annotations

import re
from functools import cache

import tree_sitter
import tree_sitter_java

__all__ = [
    "Node",
    "decode_string",
    "language",
    "parse",
    "site_query",
    "text",
]

Node = tree_sitter.Node

#: Method names a site may call (the query narrows to these before Python looks).
SITE_METHODS = (
    "requireNonNull",
    "checkArgument",
    "checkState",
    "checkNotNull",
    "error",
    "warn",
    "warning",
    "severe",
    "fatal",
)


@cache
def language() -> tree_sitter.Language:
    return tree_sitter.Language(tree_sitter_java.language())


@cache
def _parser() -> tree_sitter.Parser:
    return tree_sitter.Parser(language())


def parse(source: bytes) -> tree_sitter.Tree:
    return _parser().parse(source)


@cache
def site_query() -> tree_sitter.Query:
    names = " ".join(f'"{n}"' for n in SITE_METHODS)
    return tree_sitter.Query(
        language(),
        "(throw_statement) @throw\n(assert_statement) @assert\n"
        f"(method_invocation name: (identifier) @name (#any-of? @name {names})) @call",
    )


def text(node: Node | None) -> str:
    """The node's source text (``""`` for no node)."""
    if node is None or node.text is None:
        return ""
    return node.text.decode("utf-8", errors="replace")


_ESCAPES = {
    "n": "\n",
    "t": "\t",
    "b": "\b",
    "r": "\r",
    "f": "\f",
    "s": " ",
    "0": "\0",
    "'": "'",
    '"': '"',
    "\\": "\\",
}
_ESCAPE_RE = re.compile(r"\\(u+[0-9a-fA-F]{4}|[0-3]?[0-7]{1,2}|\n|.)", re.S)


def _unescape(match: re.Match[str]) -> str:
    body = match.group(1)
    if body[0] == "u":
        return chr(int(body.lstrip("u"), 16))
    if body[0].isdigit() and body not in ("0",):
        return chr(int(body, 8))
    if body == "\n":  # a text block's line continuation
        return ""
    return _ESCAPES.get(body, body)


def decode_string(node: Node) -> str | None:
    """The value of a string literal or text block (``None`` when it is neither)."""
    if node.type != "string_literal":
        return None
    raw = text(node)
    if raw.startswith('"""'):
        return _text_block(raw[3:-3])
    return _ESCAPE_RE.sub(_unescape, raw[1:-1])


def _text_block(body: str) -> str:
    """A text block as ``String.stripIndent`` and then escape translation leave it."""
    lines = body.split("\n")[1:]  # the opening delimiter's line holds no content
    if not lines:
        return ""
    last_is_closing = lines[-1].strip() == ""
    significant = [ln for ln in lines if ln.strip()]
    if last_is_closing:
        significant.append(lines[-1])
    indent = min((len(ln) - len(ln.lstrip(" \t")) for ln in significant), default=0)
    kept = [ln[indent:].rstrip(" \t") for ln in lines]
    out = "\n".join(kept)
    return _ESCAPE_RE.sub(_unescape, out)


def char_value(node: Node) -> str | None:
    """The character of a ``'c'`` literal, as string concatenation prints it."""
    if node.type != "character_literal":
        return None
    return _ESCAPE_RE.sub(_unescape, text(node)[1:-1])
