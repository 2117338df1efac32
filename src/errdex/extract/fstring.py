"""Recover replacement fields of f-strings exactly as the source writes them.

Python 3.11's ``ast`` keeps an f-string's values but not how each ``{…}`` field was
written (``{x!r:>4}``, ``{out_spec=}``), so we read the string tokens' text and split
out the top-level fields in order.
"""

from __future__ import annotations

import io
import tokenize
from dataclasses import dataclass

__all__ = ["Field", "scan_fstring_fields", "split_field"]

_STRING_PREFIX_CHARS = frozenset("rRbBuUfF")


@dataclass(frozen=True, slots=True)
class Field:
    """A replacement field: its raw text between the braces, and its parts."""

    raw: str
    expression: str  # text before a top-level ``!conv`` or ``:spec`` (``=`` included)
    debug: bool  # ``{x=}``: the expression text is printed before the value

    @property
    def name(self) -> str:
        text = self.expression.strip()
        return text[:-1].strip() if self.debug else text


def split_field(raw: str) -> Field:
    """Split ``x["a"]=!r:>{w}`` into its expression part and whether it is a debug field."""
    depth = 0
    i = 0
    n = len(raw)
    end = n
    while i < n:
        c = raw[i]
        if c in "'\"":
            i = _skip_string(raw, i)
            continue
        if c in "([{":
            depth += 1
        elif c in ")]}":
            depth -= 1
        elif depth == 0:
            if c == "!" and i + 1 < n and raw[i + 1] in "rsa" and (i + 2 == n or raw[i + 2] == ":"):
                end = i
                break
            if c == ":":
                end = i
                break
        i += 1
    expression = raw[:end]
    stripped = expression.rstrip()
    debug = stripped.endswith("=") and not stripped.endswith(("==", "!=", "<=", ">="))
    return Field(raw, expression, debug)


def _skip_string(text: str, i: int) -> int:
    """Index just past the string literal that starts at ``text[i]``."""
    quote = text[i]
    triple = text[i : i + 3] == quote * 3
    delim = quote * 3 if triple else quote
    j = i + len(delim)
    while j < len(text):
        if text[j] == "\\":
            j += 2
            continue
        if text.startswith(delim, j):
            return j + len(delim)
        j += 1
    return len(text)


def _fields_in_body(body: str, raw_string: bool) -> list[str]:
    fields: list[str] = []
    i = 0
    n = len(body)
    while i < n:
        c = body[i]
        if c == "\\" and not raw_string:
            if body.startswith("N{", i + 1):
                close = body.find("}", i + 3)
                i = n if close < 0 else close + 1
            else:
                i += 2
            continue
        if c == "{":
            if i + 1 < n and body[i + 1] == "{":
                i += 2
                continue
            depth = 0
            j = i + 1
            while j < n:
                d = body[j]
                if d in "'\"":
                    j = _skip_string(body, j)
                    continue
                if d in "([{":
                    depth += 1
                elif d in ")]}":
                    if depth == 0 and d == "}":
                        break
                    depth -= 1
                j += 1
            fields.append(body[i + 1 : j])
            i = j + 1
            continue
        i += 1
    return fields


def scan_fstring_fields(segment: str) -> list[Field] | None:
    """The top-level fields of every f-string token in ``segment``, in order.

    ``segment`` is the source text of a ``JoinedStr`` (possibly several implicitly
    concatenated tokens across lines). Returns None when the text does not tokenize.
    """
    fields: list[Field] = []
    try:
        tokens = list(tokenize.generate_tokens(io.StringIO("(" + segment + ")").readline))
    except (tokenize.TokenError, SyntaxError, IndentationError):
        return None
    for tok in tokens:
        if tok.type != tokenize.STRING:
            continue
        text = tok.string
        k = 0
        while k < len(text) and text[k] in _STRING_PREFIX_CHARS:
            k += 1
        prefix = text[:k].lower()
        if "f" not in prefix:
            continue
        quote = text[k : k + 3] if text[k : k + 3] in ('"""', "'''") else text[k]
        body = text[k + len(quote) : len(text) - len(quote)]
        fields.extend(split_field(raw) for raw in _fields_in_body(body, "r" in prefix))
    return fields
