"""Raises a handler of the same function catches and hides: control flow, not errors.

``try: index = int(name); if index < 0: raise ValueError; except ValueError: raise
s.error(...) from None`` (``re._parser``): the ``ValueError`` never leaves the function
and is not even shown as the context of what does, so a record of it would describe a
message nobody sees. Only what is certain counts: the class is named exactly by the
handler that takes it (earlier handlers of the ``try`` provably not catching it), and
the handler neither re-raises, nor reads the exception (its name, ``sys.exc_info()``),
nor raises anything without ``from None`` (the traceback would show it as context).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .builtin_str import builtin_class
from .subtree import walk

__all__ = ["catcher", "hidden_by"]


def _names(handler: ast.ExceptHandler) -> list[str] | None:
    """The classes a handler names, as written; None for a bare ``except:``."""
    if handler.type is None:
        return None
    types = handler.type.elts if isinstance(handler.type, ast.Tuple) else [handler.type]
    return [ast.unparse(t) for t in types]


def _misses(written: str, raised: str) -> bool:
    """Whether a handler naming ``written`` certainly does not catch ``raised``."""
    a, b = builtin_class(written), builtin_class(raised)
    return a is not None and b is not None and not issubclass(b, a)


def _hides(handler: ast.ExceptHandler) -> bool:
    nodes = list(walk(ast.Module(body=handler.body, type_ignores=[])))
    for node in nodes:
        if isinstance(node, ast.Raise) and not (
            node.exc is not None
            and isinstance(node.cause, ast.Constant)
            and node.cause.value is None
        ):
            return False  # re-raised, or the new error shows it as its context
        if isinstance(node, ast.Name) and node.id == handler.name:
            return False
        if isinstance(node, ast.Attribute) and node.attr in ("exc_info", "exception"):
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda)):
            return False  # a closure could keep it: not worth reading
    return True


def catcher(exc: ast.expr, tries: Sequence[ast.Try]) -> ast.ExceptHandler | None:
    """The handler of the enclosing ``tries`` (innermost last) that certainly catches
    ``raise exc``: it names the class as written, and every handler tried before it
    provably misses it; None when that is not certain."""
    target = exc.func if isinstance(exc, ast.Call) else exc
    if not isinstance(target, (ast.Name, ast.Attribute)):
        return None
    raised = ast.unparse(target)
    for stmt in reversed(tries):
        for handler in stmt.handlers:
            names = _names(handler)
            if names is None:
                return None  # a bare except: maybe handled in ways not read
            if raised in names:
                return handler
            if not all(_misses(n, raised) for n in names):
                return None  # it may catch it: not decided
    return None


def hidden_by(exc: ast.expr, tries: Sequence[ast.Try]) -> ast.ExceptHandler | None:
    """The handler of the enclosing ``tries`` (innermost last) that certainly catches and
    hides ``raise exc``, or None when the raise may be seen."""
    handler = catcher(exc, tries)
    return handler if handler is not None and _hides(handler) else None
