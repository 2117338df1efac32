"""Cython statements as Python ``ast`` nodes placed at their lines in the ``.pyx`` file.

Cython's parser gives each node a start (line, column) but no end, and its expression
nodes are not Python's. The message forms of a ``raise`` are Python expressions in
almost every Cython file, so the statement's text (from its start to the end of its
logical line: read at once when it ends on its row, as most do, else found with Python's
tokenizer) is handed to ``ast`` and the nodes are
moved to where the text stands in the file: the Python extractor's template machinery
then reads them exactly, and its ``segment`` shows each hole as written. Cython-only
syntax inside a message (casts ``<int>n``, ``&x``) is blanked to spaces of the same
width first, so columns still line up.
"""

from __future__ import annotations

import ast
import io
import keyword
import re
import tokenize
from collections.abc import Iterator
from typing import Any

__all__ = ["logical_text", "parse_at", "parse_expr_at", "tokenized_text"]

_OPEN = frozenset("([{")
_CLOSE = frozenset(")]}")
#: Keywords after which ``<`` starts a cast (or ``&`` takes an address), not a comparison;
#: so does any operator but a closing bracket.
_KEYWORDS_BEFORE_UNARY = frozenset(keyword.kwlist) - {"True", "False", "None"}


def _tokens(lines: list[str], line: int, col: int) -> Iterator[tokenize.TokenInfo]:
    """Python tokens of the file from (line, col) on; row 1 is ``line``, columns as written."""
    rows = iter(range(line - 1, len(lines)))

    def readline() -> str:
        k = next(rows, None)
        if k is None:
            return ""
        return (lines[k][col:] if k == line - 1 else lines[k]) + "\n"

    try:
        yield from tokenize.generate_tokens(readline)
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return


#: What can end or prolong a row's statement: a string (whole, or an opening quote left
#: open), a bracket, a comment, ``;``/``:``, a backslash, a form feed.
_ROW_TOKEN = re.compile(r"""'(?:\\.|[^'\\])*'|"(?:\\.|[^"\\])*"|['"#()\[\]{};:\\\f]""")


def _row_end(rest: str, stop: str) -> int | None:
    """Where the tokenizer would end the text ``rest`` starts (see :func:`logical_text`)
    when that is on the same row, read without it: strings on one row, brackets, a
    comment; None when only the tokenizer can tell (a triple-quoted or unclosed string,
    a backslash, an open bracket at the row's end, nothing but a comment or blanks)."""
    if not rest.strip():
        return None
    depth = 0
    for found in _ROW_TOKEN.finditer(rest):
        c = found.group()
        if len(c) > 1 or c in "'\"":
            if len(c) == 1 or rest.startswith(c[0] * 3, found.start()):
                return None  # left open, or triple-quoted (it may go on to other rows)
        elif c == "#":
            return len(rest) if depth == 0 and rest[: found.start()].strip() else None
        elif c in _OPEN:
            depth += 1
        elif c in _CLOSE:
            depth -= 1
        elif c in "\\\f":
            return None
        elif depth == 0 and (
            c == ";" or (c == stop and rest[found.end() : found.end() + 1] != "=")
        ):
            return found.start()  # ``:=`` is one token, not a ``:``
    return len(rest) if depth <= 0 else None


def logical_text(lines: list[str], line: int, col: int, stop: str = "") -> tuple[str, int]:
    """The text from (line, col) to the end of its logical line (or to ``stop`` at bracket
    depth 0, e.g. the ``:`` of an ``if``), and how many lines it spans. Python's tokenizer
    finds it, unless the statement ends on its row (most do), read without it."""
    if 0 < line <= len(lines):
        rest = lines[line - 1][col:]
        end = _row_end(rest, stop)
        if end is not None:
            return rest[:end], 1
    return tokenized_text(lines, line, col, stop)


def tokenized_text(lines: list[str], line: int, col: int, stop: str = "") -> tuple[str, int]:
    """:func:`logical_text` as Python's tokenizer finds it, whatever the statement."""
    depth = 0
    for tok in _tokens(lines, line, col):
        if tok.type in (tokenize.NEWLINE, tokenize.ENDMARKER):
            rows = _rows(lines, line, col, tok.start)
            return "\n".join(rows), len(rows)
        if tok.type != tokenize.OP:
            continue
        if tok.string in _OPEN:
            depth += 1
        elif tok.string in _CLOSE:
            depth -= 1
        elif depth == 0 and (tok.string == ";" or (stop and tok.string == stop)):
            rows = _rows(lines, line, col, tok.start)
            return "\n".join(rows), len(rows)
    return "", 1


def _rows(lines: list[str], line: int, col: int, end: tuple[int, int]) -> list[str]:
    end_row, end_col = end
    rows: list[str] = []
    for k in range(end_row):
        text = lines[line - 1 + k] if line - 1 + k < len(lines) else ""
        if k == 0:
            text = text[col:]
        if k == end_row - 1:
            text = text[:end_col]
        rows.append(text)
    return rows


Span = tuple[int, int, int]  # (row from 0, start column, end column)


def _blank_cython(text: str) -> tuple[str, list[Span]]:
    """Blank Cython-only prefixes (casts ``<T>``, ``<T?>``, address-of ``&``) to spaces."""
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO(text + "\n").readline))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        return text, []
    rows = text.split("\n")
    spans: list[Span] = []
    previous: tokenize.TokenInfo | None = None
    i = 0
    while i < len(tokens):
        tok = tokens[i]
        unary = (
            previous is None
            or (previous.type == tokenize.OP and previous.string not in _CLOSE)
            or (previous.type == tokenize.NAME and previous.string in _KEYWORDS_BEFORE_UNARY)
        )
        if tok.type == tokenize.OP and tok.string == "<" and unary:
            j = i + 1
            while (
                j < len(tokens) and tokens[j].string != ">" and tokens[j].start[0] == tok.start[0]
            ):
                j += 1
            if j < len(tokens) and tokens[j].string == ">":
                spans.append((tok.start[0] - 1, tok.start[1], tokens[j].end[1]))
                i = j + 1
                previous = tok
                continue
        if tok.type == tokenize.OP and tok.string == "&" and unary:
            spans.append((tok.start[0] - 1, tok.start[1], tok.end[1]))
        if tok.type == tokenize.STRING:
            spans += _fstring_casts(tok)
        if tok.type not in (tokenize.COMMENT, tokenize.NL, tokenize.NEWLINE):
            previous = tok
        i += 1
    for row, start, end in reversed(spans):
        line = rows[row]
        rows[row] = line[:start] + " " * (end - start) + line[end:]
    return "\n".join(rows), spans


_FSTRING_PREFIX = re.compile(r"[rRbBuUfF]*")


def _fstring_casts(tok: tokenize.TokenInfo) -> list[Span]:
    """Casts inside a one-row f-string's replacement fields (``f"{(<bytes>name).decode()!r}"``,
    lxml's): Python 3.11 reads the f-string as one token, so each field is blanked alone."""
    text = tok.string
    prefix = _FSTRING_PREFIX.match(text)
    if prefix is None or "f" not in prefix.group().lower() or tok.start[0] != tok.end[0]:
        return []
    spans: list[Span] = []
    i = prefix.end()
    while i < len(text):
        if text.startswith(("{{", "}}"), i):
            i += 2
            continue
        if text[i] != "{":
            i += 1
            continue
        end = _field_end(text, i + 1)
        if end is None:
            return spans
        _, inner = _blank_cython(text[i + 1 : end])
        spans += [
            (tok.start[0] - 1, tok.start[1] + i + 1 + a, tok.start[1] + i + 1 + b)
            for _, a, b in inner
        ]
        i = end + 1
    return spans


def _field_end(text: str, start: int) -> int | None:
    """Where the replacement field opened before ``start`` closes (brackets and quotes
    inside it skipped), or None."""
    depth, quote = 0, ""
    for k in range(start, len(text)):
        c = text[k]
        if quote:
            quote = "" if c == quote else quote
        elif c in "'\"":
            quote = c
        elif c in "([{":
            depth += 1
        elif c in ")]":
            depth -= 1
        elif c == "}":
            if depth == 0:
                return k
            depth -= 1
    return None


def _widen(tree: ast.AST, rows: list[str], spans: list[Span]) -> None:
    """Nodes that start right after a blanked cast start at the cast, so their text
    shows it as written (``<void*>proxy``)."""
    starts: dict[tuple[int, int], int] = {}
    for row, start, end in spans:
        text = rows[row]
        after = end + len(text[end:]) - len(text[end:].lstrip())
        starts[(row + 1, len(text[:after].encode()))] = len(text[:start].encode())
    for node in ast.walk(tree):
        key = (getattr(node, "lineno", 0), getattr(node, "col_offset", -1))
        if key in starts:
            setattr(node, "col_offset", starts[key])  # noqa: B010 - any node with a place


def _place(tree: ast.AST, line: int, byte_col: int) -> None:
    """Move nodes parsed from a snippet to the file: rows shift by ``line - 1``, and the
    first row's columns by where the snippet started on it (one pass over the nodes, by
    their fields: half the time of ``ast.walk`` and ``ast.increment_lineno``)."""
    shift = line - 1
    stack = [tree]
    while stack:
        node: Any = stack.pop()  # an expr, stmt, arg, keyword…: each has a place
        for name in node._fields:
            value = getattr(node, name, None)
            if isinstance(value, list):
                stack.extend(v for v in value if isinstance(v, ast.AST))
            elif isinstance(value, ast.AST):
                stack.append(value)
        if "lineno" not in node._attributes:
            continue
        if node.lineno == 1:
            node.col_offset += byte_col
        node.lineno += shift
        end = node.end_lineno
        if end is not None:
            if end == 1 and node.end_col_offset is not None:
                node.end_col_offset += byte_col
            node.end_lineno = end + shift


def _parse(text: str, mode: str) -> tuple[ast.AST, list[Span]] | None:
    """``text`` parsed, else with Cython's casts blanked (their spans returned), else None."""
    try:
        return ast.parse(text, mode=mode), []
    except (SyntaxError, ValueError):
        pass
    blanked, spans = _blank_cython(text)
    if not spans:
        return None
    try:
        tree = ast.parse(blanked, mode=mode)
    except (SyntaxError, ValueError):
        return None
    _widen(tree, text.split("\n"), spans)
    return tree, spans


def parse_at(lines: list[str], line: int, col: int) -> ast.stmt | None:
    """The simple statement starting at (line, col) as a Python ``ast`` node at its place
    in the file, or None when it is not Python even with Cython's casts blanked."""
    text, _ = logical_text(lines, line, col)
    parsed = _parse(text, "exec") if text.strip() else None
    if parsed is None or not isinstance(parsed[0], ast.Module) or len(parsed[0].body) != 1:
        return None
    stmt = parsed[0].body[0]
    _place(stmt, line, len(lines[line - 1][:col].encode()))
    return stmt


def parse_expr_at(lines: list[str], line: int, col: int, stop: str) -> ast.expr | None:
    """The expression starting at (line, col) up to ``stop`` (an ``if``'s ``:``), placed."""
    row = lines[line - 1] if 0 < line <= len(lines) else ""
    col += len(row[col:]) - len(row[col:].lstrip())
    text, _ = logical_text(lines, line, col, stop)
    parsed = _parse(text.rstrip(), "eval") if text.strip() else None
    if parsed is None or not isinstance(parsed[0], ast.Expression):
        return None
    expr = parsed[0].body
    _place(expr, line, len(lines[line - 1][:col].encode()))
    return expr
