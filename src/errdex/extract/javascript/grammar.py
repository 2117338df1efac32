"""The tree-sitter grammars of JavaScript and TypeScript, and where a file's candidate sites are.

A file's language follows its suffix: ``.ts``/``.mts``/``.cts`` read with TypeScript's
grammar, ``.tsx`` with TSX's, everything else (``.js``, ``.mjs``, ``.cjs``, ``.jsx``)
with JavaScript's (which reads JSX). Parsers are made once per process.
"""

from __future__ import annotations

from functools import cache

import tree_sitter
import tree_sitter_javascript
import tree_sitter_typescript

__all__ = ["candidates", "dialect_of", "language", "parser", "word_starts"]

_TS_SUFFIXES = (".ts", ".mts", ".cts")

#: Where a site may start: the words of the idioms :mod:`.sites` reads, each found with
#: ``bytes.find`` (in C) and looked up in the tree, so a file costs little more than its
#: parse; a word in a string or a comment finds no node of the right kind. The bool
#: says whether a call's ``(`` must follow the word.
_WORDS: tuple[tuple[bytes, bool], ...] = (
    (b"throw", False),
    (b"console", False),
    *(
        (word, True)
        for word in (
            b"reject",
            b"next",
            b"done",
            b"cb",
            b"callback",
            b"createError",
            b"createHttpError",
            b"httpErrors",
            b"status",
            b"sendStatus",
        )
    ),
)
_WORD_BYTES = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_$")
_CALLEES = frozenset({"identifier", "property_identifier"})
_LEVELS = frozenset({b"error", b"warn"})


def _occurrences(data: bytes) -> list[int]:
    """Offsets of the words, as whole words (and calls where they must be), sorted."""
    found: list[int] = []
    size = len(data)
    for word, call in _WORDS:
        at = data.find(word)
        while at != -1:
            end = at + len(word)
            whole = (at == 0 or data[at - 1] not in _WORD_BYTES) and (
                end == size or data[end] not in _WORD_BYTES
            )
            if whole and (not call or data[end : end + 8].lstrip()[:1] == b"("):
                found.append(at)
            at = data.find(word, end)
    found.sort()
    return found


def _call_of(callee: tree_sitter.Node) -> tree_sitter.Node | None:
    """The call whose function ``callee`` is, or None."""
    call = callee.parent
    if call is None or call.type != "call_expression":
        return None
    return call if call.child_by_field_name("function") == callee else None


def _candidate(
    node: tree_sitter.Node, data: bytes, start: int
) -> tuple[str, tree_sitter.Node] | None:
    """What the word at ``start`` (whose node is ``node``) is a candidate for, if anything."""
    if node.type == "throw":
        parent = node.parent
        if parent is not None and parent.type == "throw_statement":
            return "throw", parent
        return None
    holder = node.parent if node.type in _CALLEES else None
    if holder is None:
        return None
    if holder.type != "member_expression":
        call = _call_of(node)
        return ("call", call) if call is not None else None
    if holder.child_by_field_name("object") != node:
        call = _call_of(holder)  # ``res.status(…)``, ``Promise.reject(…)``
        return ("call", call) if call is not None else None
    if not data.startswith(b"console", start):
        return None
    prop = holder.child_by_field_name("property")
    call = _call_of(holder)
    if prop is not None and prop.text in _LEVELS and call is not None:
        return "console", call
    return None


def word_starts(data: bytes) -> list[int]:
    """Where the words of the idioms are in the text, in order: none means no candidate,
    so the file needs no parse at all."""
    return _occurrences(data)


def candidates(
    root: tree_sitter.Node, data: bytes, starts: list[int] | None = None
) -> dict[str, list[tree_sitter.Node]]:
    """Candidate nodes by kind, in source order: ``throw`` statements, ``console.error``/
    ``console.warn`` calls and other ``call`` expressions named by one of the words
    (at ``starts``, when :func:`word_starts` found them already)."""
    found: dict[str, list[tree_sitter.Node]] = {"throw": [], "console": [], "call": []}
    for start in _occurrences(data) if starts is None else starts:
        node = root.descendant_for_byte_range(start, start + 1)
        hit = _candidate(node, data, start) if node is not None else None
        if hit is not None:
            found[hit[0]].append(hit[1])
    return found


def dialect_of(file_path: str) -> str:
    """``typescript``, ``tsx`` or ``javascript``: the grammar a file is read with."""
    if file_path.endswith(".tsx"):
        return "tsx"
    if file_path.endswith(_TS_SUFFIXES):
        return "typescript"
    return "javascript"


@cache
def language(dialect: str) -> tree_sitter.Language:
    if dialect == "tsx":
        return tree_sitter.Language(tree_sitter_typescript.language_tsx())
    if dialect == "typescript":
        return tree_sitter.Language(tree_sitter_typescript.language_typescript())
    return tree_sitter.Language(tree_sitter_javascript.language())


@cache
def parser(dialect: str) -> tree_sitter.Parser:
    return tree_sitter.Parser(language(dialect))
