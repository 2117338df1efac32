"""The Java grammar and the small readers every part of the extractor shares.

tree-sitter-java parses a file into a concrete tree; the candidate sites are found by
their words in the source bytes (``bytes.find``, in C) and looked up in the tree, and
everything else is read by walking up from a site, so the cost of a file stays close to
the cost of its parse (a query over the whole tree cost a third of the parse again).
"""

from __future__ import annotations

import re
from functools import cache

import tree_sitter
import tree_sitter_java

__all__ = [
    "Node",
    "candidates",
    "decode_string",
    "language",
    "parse",
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


#: Statement keyword -> (the kind of candidate, the statement it begins).
_STATEMENTS = {b"throw": ("throw", "throw_statement"), b"assert": ("assert", "assert_statement")}
#: The words searched for :data:`SITE_METHODS`: one search finds every name a word begins
#: (``check`` finds ``checkArgument``, ``checkState`` and ``checkNotNull``).
_METHOD_WORDS = (b"requireNonNull", b"check", b"error", b"warn", b"severe", b"fatal")
_METHOD_NAMES = frozenset(name.encode() for name in SITE_METHODS)
#: Bytes that continue an identifier (ASCII only: a non-ASCII neighbour is left to the tree).
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")


def _word_starts(data: bytes, word: bytes, prefix: bool = False) -> list[int]:
    """Offsets of ``word`` not glued to an ASCII identifier character before it, nor
    after it unless the word may be a ``prefix`` of the name."""
    found: list[int] = []
    size = len(data)
    at = data.find(word)
    while at != -1:
        end = at + len(word)
        if (at == 0 or data[at - 1] not in _WORD_BYTES) and (
            prefix or end == size or data[end] not in _WORD_BYTES
        ):
            found.append(at)
        at = data.find(word, end)
    return found


def candidates(root: Node, data: bytes) -> dict[str, list[Node]]:
    """Every ``throw`` and ``assert`` statement and every invocation of a
    :data:`SITE_METHODS` name, by kind, in source order: each word found in the bytes
    and kept when the tree has the statement's keyword, or the invocation's name, there
    (a word in a comment or a string finds a node of another kind)."""
    found: dict[str, list[Node]] = {"throw": [], "assert": [], "call": []}
    for word, (kind, statement) in _STATEMENTS.items():
        out = found[kind]
        for at in _word_starts(data, word):
            node = root.descendant_for_byte_range(at, at + 1)
            parent = node.parent if node is not None and node.type == kind else None
            if parent is not None and parent.type == statement and parent.start_byte == at:
                out.append(parent)
    calls: list[Node] = []
    for word in _METHOD_WORDS:
        for at in _word_starts(data, word, prefix=True):
            node = root.descendant_for_byte_range(at, at + 1)
            if (
                node is None
                or node.type != "identifier"
                or node.start_byte != at
                or data[at : node.end_byte] not in _METHOD_NAMES
            ):
                continue
            call = node.parent
            if call is not None and call.type == "method_invocation":
                name = call.child_by_field_name("name")
                if name is not None and name.start_byte == at:
                    calls.append(call)
    calls.sort(key=lambda n: (n.start_byte, n.end_byte))
    found["call"] = calls
    return found


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
