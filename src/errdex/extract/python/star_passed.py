"""The message of a class-passing helper that raises ``exception(*args)``.

more-itertools' ``raise_(exception, *args)`` is called as ``raise_(ValueError, f"Too few
items in iterable (got {n})")`` (in ``strictly_n``'s default ``too_short`` lambda): the
class is a parameter (:mod:`.passed` reads it from the calls) and the message is whatever
the call passes after it, gathered into ``*args``. When every call passing the class puts
exactly one plain positional argument into ``*args``, the raise is read as
``exception(args)`` with ``args`` bound, call by call, to that argument: ``str()`` of an
exception of one argument is that argument's text, as the call site settles it. A call
passing none, several or a starred argument leaves the line as written.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Sequence

from .callers import Function

__all__ = ["one_star_arg", "single_star", "unstarred"]


def single_star(
    exc: ast.expr, fn: Function, calls: Sequence[ast.Call], *, method: bool
) -> str | None:
    """The ``*args`` name when ``exc`` is ``name(*args)`` of ``fn``'s own ``*args`` and
    every call in ``calls`` passes it exactly one plain positional argument."""
    spec = fn.args
    if not isinstance(spec, ast.arguments) or spec.vararg is None:
        return None
    star = spec.vararg.arg
    if not (
        isinstance(exc, ast.Call)
        and len(exc.args) == 1
        and not exc.keywords
        and isinstance(exc.args[0], ast.Starred)
        and isinstance(exc.args[0].value, ast.Name)
        and exc.args[0].value.id == star
    ):
        return None
    if not calls or any(one_star_arg(fn, c, method=method) is None for c in calls):
        return None
    return star


def one_star_arg(fn: Function, call: ast.Call, *, method: bool) -> ast.expr | None:
    """The one argument ``call`` gathers into ``fn``'s ``*args``; None when it passes
    none, several, or hides them behind ``*``/``**``."""
    spec = fn.args
    if not isinstance(spec, ast.arguments):
        return None
    positional = len(spec.posonlyargs) + len(spec.args) - (1 if method else 0)
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if any(k.arg is None for k in call.keywords):
        return None
    extra = call.args[positional:]
    return extra[0] if len(extra) == 1 else None


def unstarred(exc: ast.expr, star: str) -> ast.expr:
    """``exc`` with ``*star`` read as the plain name ``star``."""

    class Unstar(ast.NodeTransformer):
        def visit_Starred(self, node: ast.Starred) -> ast.expr:
            value = node.value
            if isinstance(value, ast.Name) and value.id == star:
                return ast.copy_location(ast.Name(id=star, ctx=ast.Load()), node)
            return node

    swapped: ast.expr = Unstar().visit(copy.deepcopy(exc))
    return swapped
