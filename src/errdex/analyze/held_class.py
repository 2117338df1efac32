"""What a raise whose class the extractor could not name raises, said without a guess.

``raise error[0]("db type could not be determined")`` calls a class held in a name: its
class is not "decided at run time" when ``error`` is a module constant (``dbm``'s
``error = (error, OSError)``), and "the exception held in `…`" said nothing at all
(blind review 2026-12-06). The raise is read from the record's source window: a call
names what it calls, and the class is called decided at run time only where the name
is the function's parameter or a local it binds.
"""

from __future__ import annotations

import ast
import textwrap
from dataclasses import dataclass

from .facts import FuncFacts

__all__ = ["RaisedCall", "raised_call"]

#: Lines of the window read for the raise statement, at most.
_SPAN = 12


@dataclass(frozen=True, slots=True)
class RaisedCall:
    """``raise <callee>(...)``: what is called, and whether the function decides it."""

    callee: str
    at_run_time: bool
    #: ``raise err`` with ``err`` bound once to the call: the name raised.
    held: str | None = None


def _raise_node(lines: list[str], at: int) -> ast.Raise | None:
    for end in range(at + 1, min(len(lines), at + _SPAN) + 1):
        try:
            body = ast.parse(textwrap.dedent("\n".join(lines[at:end]))).body
        except (SyntaxError, ValueError, RecursionError):
            continue
        node = body[0] if len(body) == 1 else None
        return node if isinstance(node, ast.Raise) else None
    return None


def _head(node: ast.expr) -> str | None:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Call)):
        node = node.func if isinstance(node, ast.Call) else node.value
    return node.id if isinstance(node, ast.Name) else None


def raised_call(window: tuple[list[str], int] | None, func: FuncFacts | None) -> RaisedCall | None:
    """The call a ``raise`` makes at the window's site line, or the call the raised
    local name is bound to once; None for another raise (a re-raise of an object held,
    ``raise e``) or when the line does not parse."""
    if window is None:
        return None
    node = _raise_node(*window)
    params: set[str] = set()
    local: set[str] = set()
    if func is not None:
        params = {p.lstrip("*").partition("=")[0] for p in func.params}
        local = params | set(func.local_calls) | set(func.local_binds)
    if node is not None and isinstance(node.exc, ast.Name) and func is not None:
        # ``err = expat.error(...)`` then ``raise err``: the name is bound once, to a call;
        # a parameter rebound (``message = category(message)`` in ``warn_explicit``) may
        # still hold what the caller passed
        ref = None if node.exc.id in params else func.local_calls.get(node.exc.id)
        if ref and all(ref) and "super()" not in ref:
            return RaisedCall(".".join(ref), ref[0] in local, held=node.exc.id)
    if node is None or not isinstance(node.exc, ast.Call):
        return None
    callee = ast.unparse(node.exc.func)
    head = _head(node.exc.func)
    return RaisedCall(callee, head is not None and head in local)
