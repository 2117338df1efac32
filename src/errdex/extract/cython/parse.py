"""Cython's own parser on one file's text, without reading any other file.

``include "x.pxi"`` makes Cython's parser open the included file, which a string
source cannot do (and which would fold the ``.pxi``'s sites into this file's); the
``.pxi`` is catalogued on its own, so each include is replaced by ``pass`` of the same
width (found with the tokenizer) and every line keeps its number.
"""

from __future__ import annotations

import io
import re
import tokenize
from typing import Any

from errdex.extract.registry import ExtractError

__all__ = ["parse_cython"]

_NAME = "errdex_cython_source"


#: ``include`` then a string on the same line: a file without one has no include to blank
#: (the tokenizer below, a third of the parse's time, is run only on files that do).
_MAY_INCLUDE = re.compile(r"\binclude[ \t]*[rRbBuUfF]{0,2}['\"]")


def _blank_includes(text: str) -> str:
    """``include "x.pxi"`` -> ``pass`` (same columns), wherever it starts a statement."""
    if _MAY_INCLUDE.search(text) is None:
        return text
    rows = text.split("\n")
    starts_statement = True
    pending: tokenize.TokenInfo | None = None
    try:
        for tok in tokenize.generate_tokens(io.StringIO(text).readline):
            if pending is not None:
                if tok.type == tokenize.STRING and tok.start[0] == tok.end[0] == pending.start[0]:
                    row = pending.start[0] - 1
                    start, end = pending.start[1], tok.end[1]
                    line = rows[row]
                    rows[row] = line[:start] + "pass".ljust(end - start) + line[end:]
                pending = None
            if tok.type == tokenize.NAME and tok.string == "include" and starts_statement:
                pending = tok
            starts_statement = tok.type in (
                tokenize.NEWLINE,
                tokenize.NL,
                tokenize.INDENT,
                tokenize.DEDENT,
                tokenize.COMMENT,
            ) or (tok.type == tokenize.OP and tok.string in (":", ";"))
    except (tokenize.TokenError, IndentationError, SyntaxError):
        pass  # whatever was found before the tokenizer gave up is blanked
    return "\n".join(rows)


def parse_cython(text: str, *, pxd: bool = False) -> Any:
    """Cython's ``ModuleNode`` of ``text``; raises ExtractError for a file it cannot read."""
    from Cython.Compiler import Errors
    from Cython.Compiler.TreeFragment import parse_from_strings as untyped_parse

    parse_from_strings: Any = untyped_parse  # Cython ships no type hints
    init_thread: Any = Errors.init_thread
    init_thread()
    try:
        return parse_from_strings(_NAME, _blank_includes(text), level="module_pxd" if pxd else None)
    except Errors.CompileError as exc:
        lines = [line for line in str(exc).strip().splitlines() if line.strip()]
        last = lines[-1] if lines else "syntax error"
        where = re.match(rf"{_NAME}:(\d+):(\d+): ", last)
        if where:
            last = f"line {where.group(1)}, column {where.group(2)}: {last[where.end() :]}"
        raise ExtractError(f"Cython: {last}") from None
    except (RuntimeError, AssertionError, IndexError, KeyError, AttributeError) as exc:
        raise ExtractError(f"Cython's parser failed: {type(exc).__name__}: {exc}") from None
