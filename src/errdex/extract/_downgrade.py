"""Rewrite newer-Python syntax so that Python 3.11's ``ast`` can parse it.

errdex runs on 3.11 but scans code written for 3.12 and later. Rather than ship a
parser of its own, it lets tree-sitter locate the few constructs 3.11 rejects and
rewrites only those byte spans:

* PEP 695 / PEP 696 type parameter lists on ``def`` and ``class`` are dropped, and
  ``type X[T] = v`` becomes ``X = v``;
* PEP 701 f-strings that 3.11 cannot tokenize get each top-level replacement field
  replaced by a ``{__errdex_fN__}`` placeholder, its raw text kept in ``fields``;
* PEP 758 ``except A, B:`` gets the parentheses 3.11 requires.

Every edit keeps the number of line breaks, so each statement, ``raise``, ``assert``
and call keeps the line number it has in the original file; column offsets may move.
"""

from __future__ import annotations

import ast
import bisect
import contextlib
import re
import sys
import threading
import warnings
from dataclasses import dataclass

import tree_sitter_python
from tree_sitter import Language, Node, Parser, Query, QueryCursor

__all__ = ["PLACEHOLDER_PREFIX", "Downgraded", "downgrade", "parse_any"]

PLACEHOLDER_PREFIX = "__errdex_f"

# Everything 3.11 may choke on; nested strings are captured too and skipped later.
_QUERY_SOURCE = """
(string) @string
(function_definition type_parameters: (type_parameter) @tparams)
(class_definition type_parameters: (type_parameter) @tparams)
(type_alias_statement) @alias
(except_clause) @except
"""

# (start byte, end byte, replacement) in the UTF-8 encoded source.
_Edit = tuple[int, int, bytes]

_LINE_BREAK = re.compile(rb"\r\n|\r|\n")  # what Python's tokenizer counts as a new line
_LOCK = threading.Lock()  # a tree-sitter Parser must not parse on two threads at once
_TOOLS: tuple[Parser, Query] | None = None


@dataclass(frozen=True)
class Downgraded:
    """A 3.11-parsable rewrite of a source file and the f-string fields it hid."""

    source: str
    fields: dict[str, str]


def parse_any(source: str, filename: str = "<unknown>") -> tuple[ast.Module, dict[str, str]]:
    """Parse ``source`` with ``ast``, downgrading newer syntax only when 3.11 rejects it.

    Returns the module and the placeholder -> raw field text map (empty unless the
    downgrade was needed). If the downgraded text does not parse either, the
    *original* ``SyntaxError`` is raised, so callers see where the real file is wrong.
    """
    # Scanned code is not ours: its invalid escapes and other compile-time warnings are
    # not the user's business (and would otherwise print once per scanned file).
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")
        try:
            return ast.parse(source, filename=filename), {}
        except SyntaxError as exc:
            original = exc
        with contextlib.suppress(Exception):  # a failing fallback must not hide the real error
            down = downgrade(source)
            return ast.parse(down.source, filename=filename), down.fields
    raise original


def downgrade(source: str) -> Downgraded:
    """Rewrite newer-Python syntax into 3.11 syntax, keeping every statement on its original line."""
    data = source.encode("utf-8", "surrogatepass")
    parser, query = _tools()
    with _LOCK:
        tree = parser.parse(data)
    captures = QueryCursor(query).captures(tree.root_node)

    edits: list[_Edit] = []
    dropped: list[tuple[int, int]] = []
    for node in captures.get("tparams", ()):
        _drop_brackets(node, data, edits, dropped)
    for node in captures.get("alias", ()):
        _rewrite_type_alias(node, data, edits, dropped)
    for node in captures.get("except", ()):
        _rewrite_except(node, edits)
    dropped.sort()
    strings = sorted(captures.get("string", ()), key=lambda n: (n.start_byte, -n.end_byte))
    fields = _rewrite_fstrings(strings, data, edits, dropped)

    if not edits:
        return Downgraded(source, fields)
    return Downgraded(_apply(data, edits).decode("utf-8", "surrogatepass"), fields)


def _tools() -> tuple[Parser, Query]:
    """Build the parser and query once, on first use, so importing errdex stays cheap."""
    global _TOOLS
    if _TOOLS is None:
        with _LOCK:
            if _TOOLS is None:
                language = Language(tree_sitter_python.language())
                _TOOLS = (Parser(language), Query(language, _QUERY_SOURCE))
    return _TOOLS


def _line_breaks(text: bytes) -> list[bytes]:
    """The line breaks in ``text``, as written, so a rewrite can keep the file's style."""
    return _LINE_BREAK.findall(text)


def _continuations(removed: bytes) -> bytes:
    """Stand-in for a removed span between two tokens: one backslash continuation per line break."""
    return b"".join(b" \\" + br for br in _line_breaks(removed))


def _drop_brackets(
    node: Node, data: bytes, edits: list[_Edit], dropped: list[tuple[int, int]]
) -> None:
    """Delete a ``[...]`` type parameter list; 3.11 has no type parameters at all."""
    start, end = node.start_byte, node.end_byte
    if data[start : start + 1] != b"[" or data[end - 1 : end] != b"]":
        return  # tree-sitter recovered something that is not a whole list: leave it
    edits.append((start, end, _continuations(data[start:end])))
    dropped.append((start, end))


def _rewrite_type_alias(
    node: Node, data: bytes, edits: list[_Edit], dropped: list[tuple[int, int]]
) -> None:
    """``type X[T] = v`` -> ``X = v``: the closest 3.11 statement binding the same name."""
    keyword = node.children[0] if node.children else None
    left = node.child_by_field_name("left")
    if keyword is None or keyword.is_named or keyword.type != "type" or left is None:
        return
    # tree-sitter also reads valid 3.11 code such as `type(x).attr = 1` as an alias:
    # only `type NAME = ...` and `type NAME[...] = ...` are the real statement.
    target = left.named_children[0] if left.named_child_count == 1 else None
    if target is None:
        return
    name: Node = target
    params: Node | None = None
    if target.type == "generic_type":
        parts = target.children
        if len(parts) != 2 or parts[0].type != "identifier" or parts[1].type != "type_parameter":
            return
        name, params = parts
    elif target.type != "identifier":
        return
    gap = data[keyword.end_byte : name.start_byte]
    if not gap or not gap[-1:].isspace():
        return
    if _LINE_BREAK.search(gap):
        # `type \<newline> X = v`: the statement's line is the keyword's, so the name
        # moves there and the continuation stays, keeping the indentation as well.
        edits.append((keyword.start_byte, keyword.end_byte, data[name.start_byte : name.end_byte]))
        edits.append((name.start_byte, name.end_byte, b""))
        dropped.append((keyword.start_byte, keyword.end_byte))
    else:
        edits.append((keyword.start_byte, name.start_byte, b""))
        dropped.append((keyword.start_byte, name.start_byte))
    if params is not None:
        _drop_brackets(params, data, edits, dropped)


def _rewrite_except(node: Node, edits: list[_Edit]) -> None:
    """``except A, B:`` (PEP 758) -> ``except (A, B):``; with ``as`` 3.14 rejects it too."""
    items: list[Node] = []
    for child in node.children:
        if child.type == ":" and not child.is_named:
            break
        if child.type == "comment" or (not child.is_named and child.type in ("except", "*")):
            continue
        items.append(child)
    if not any(c.type == "," and not c.is_named for c in items):
        return
    if any(c.type == "as_pattern" or c.is_error for c in items):
        return
    edits.append((items[0].start_byte, items[0].start_byte, b"("))
    edits.append((items[-1].end_byte, items[-1].end_byte, b")"))


def _rewrite_fstrings(
    strings: list[Node], data: bytes, edits: list[_Edit], dropped: list[tuple[int, int]]
) -> dict[str, str]:
    """Replace the fields of every top-level f-string that 3.11 cannot read by placeholders.

    f-strings 3.11 accepts are left alone so their expressions stay in the tree. A
    field's line breaks are kept inside its braces for triple-quoted strings; for
    single-quoted ones they go before a ``)`` closing parentheses put around the whole
    (possibly implicitly concatenated) string expression.
    """
    fields: dict[str, str] = {}
    wraps: dict[tuple[int, int], list[bytes]] = {}  # outer string span -> line breaks to restore
    covered_end = -1
    for node in strings:
        if node.start_byte < covered_end or _inside(dropped, node.start_byte):
            continue  # nested in an f-string field handled with its outer string, or deleted
        covered_end = node.end_byte
        opening = node.children[0] if node.children else None
        if opening is None or opening.type != "string_start":
            continue
        start_text = data[opening.start_byte : opening.end_byte]
        if b"f" not in start_text.lower().rstrip(b"'\""):
            continue
        interpolations = [c for c in node.children if c.type == "interpolation"]
        if not interpolations or _parses_on_311(data[node.start_byte : node.end_byte]):
            continue
        triple = start_text.endswith((b'"""', b"'''"))
        restore: list[bytes] = []
        for field in interpolations:
            braces = field.children
            if (
                not braces
                or braces[0].type != "{"
                or braces[-1].type != "}"
                or braces[-1].is_missing
            ):
                continue  # an unfinished field that tree-sitter recovered from: leave it
            raw = data[field.start_byte + 1 : field.end_byte - 1]
            name = f"{PLACEHOLDER_PREFIX}{len(fields)}__"
            fields[name] = raw.decode("utf-8", "surrogatepass")
            breaks = _line_breaks(raw)
            if triple:
                replacement = b"{" + name.encode() + b"".join(breaks) + b"}"
            else:
                replacement = b"{" + name.encode() + b"}"
                restore.extend(breaks)
            edits.append((field.start_byte, field.end_byte, replacement))
        if restore:
            parent = node.parent
            outer = parent if parent is not None and parent.type == "concatenated_string" else node
            span = (outer.start_byte, outer.end_byte)
            wraps.setdefault(span, []).extend(restore)
    for (start, end), breaks in wraps.items():
        edits.append((start, start, b"("))
        edits.append((end, end, b"".join(breaks) + b")"))
    return fields


def _inside(spans: list[tuple[int, int]], offset: int) -> bool:
    """Whether ``offset`` falls in one of the sorted, disjoint ``spans``."""
    index = bisect.bisect_right(spans, (offset, sys.maxsize)) - 1
    return index >= 0 and spans[index][0] <= offset < spans[index][1]


def _parses_on_311(literal: bytes) -> bool:
    """Whether one string literal is already valid for 3.11 and can be kept as is."""
    try:
        ast.parse(literal, mode="eval")
    except Exception:  # SyntaxError, or ValueError for NUL bytes: either way rewrite it
        return False
    return True


def _apply(data: bytes, edits: list[_Edit]) -> bytes:
    """Splice the edits in, from the end backwards so earlier offsets stay valid."""
    edits.sort(key=lambda e: (e[0], e[1]))
    kept: list[_Edit] = []
    last_end = -1
    for edit in edits:
        if edit[0] < last_end:
            continue  # overlaps an earlier edit (only on broken trees): keep the first
        kept.append(edit)
        last_end = edit[1]
    chunks: list[bytes] = []
    tail = len(data)
    for start, end, replacement in reversed(kept):
        chunks.append(data[end:tail])
        chunks.append(replacement)
        tail = start
    chunks.append(data[:tail])
    return b"".join(reversed(chunks))
