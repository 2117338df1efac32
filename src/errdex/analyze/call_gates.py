"""The flag a caller tests before it makes a call: ``if self._debug: self._check_callback(…)``.

asyncio's ``call_soon`` checks its callback only in debug mode, yet the entry-point walk
took every call as made, and the record of ``_check_callback``'s ``TypeError`` said
``call_soon(1)`` raises it (blind review 2026-12-06). A call inside an ``if`` whose test
reads only the object's own state (``self._debug``, ``self._loop.get_debug()``) is kept
with that test, so that the record can say the call is made only when it holds. A test
over the caller's parameters is not: :mod:`.chains` already follows those through the
arguments, and "only when `mode == 'r'`" would repeat what the requirement says.
"""

from __future__ import annotations

import ast
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from .callsites import CallSite

__all__ = ["GATE_LENGTH", "gated"]

#: A gate longer than this is not kept: it would not read as one flag.
GATE_LENGTH = 60
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def _flag(test: ast.expr) -> str | None:
    """The test as written when it reads ``self`` alone and calls at most a getter."""
    names = set()
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            names.add(node.id)
        elif (
            isinstance(node, ast.Call)
            and not (
                isinstance(node.func, ast.Attribute)
                and node.func.attr.lstrip("_").startswith("get")
            )
        ) or isinstance(node, (*_NESTED, ast.NamedExpr)):
            return None
    if names != {"self"}:
        return None
    text = ast.unparse(test)
    return text if len(text) <= GATE_LENGTH else None


def _ranges(body: list[ast.stmt], out: list[tuple[int, int, str]]) -> None:
    """(first line, last line, test) of each ``if`` body under a flag; statements only."""
    for stmt in body:
        if isinstance(stmt, _NESTED):
            continue
        if isinstance(stmt, ast.If) and stmt.body:
            text = _flag(stmt.test)
            if text is not None:
                last = stmt.body[-1]
                out.append((stmt.body[0].lineno, last.end_lineno or last.lineno, text))
        for name in ("body", "orelse", "finalbody", "handlers"):
            block = getattr(stmt, name, None)
            if isinstance(block, list):
                inner = [
                    h for x in block for h in (x.body if isinstance(x, ast.ExceptHandler) else [x])
                ]
                _ranges(inner, out)


def gated(func: ast.FunctionDef | ast.AsyncFunctionDef, sites: list[CallSite]) -> list[CallSite]:
    """``sites`` with the innermost flag test each is made under (``CallSite.when``)."""
    found: list[tuple[int, int, str]] = []
    _ranges(func.body, found)
    if not found:
        return sites
    out = []
    for site in sites:
        inside = [r for r in found if r[0] <= site.line <= r[1]]
        out.append(replace(site, when=max(inside)[2]) if inside else site)
    return out
