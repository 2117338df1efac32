"""Nested functions their enclosing function hands out (returns), or passes to a callable
its caller gave, which calls it there and then.

``wsgiref.validate.check_status`` is called only by ``start_response_wrapper``, which
``lint_app`` passes to the application it wraps, and ``lint_app`` is what ``validator``
returns: users get there by calling ``validator(app)`` and then the app it returns, which
calls ``start_response('200', ...)`` (blind review stop 35, record 32). No call joins
``validator`` to ``lint_app``, so the entry-point walk stopped at ``check_status``
itself, a function ``validate.__all__`` leaves out. The walk goes up from such a nested
function to the function that hands it out, as a step that costs no call
(:mod:`errdex.analyze.chains`), and the entry point says which function it hands out
(``EntryPoint.handsOut``); above that step only further hand-outs are walked (what takes
the product may call it or keep it). One passed to a callable parameter (``application(environ,
start_response_wrapper)``) runs during that call: an ordinary edge, no hand-out.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from .callsites import CallSite
from .facts import FuncFacts

if TYPE_CHECKING:  # the index is built from what :func:`handed_out` finds
    from .repo import RepoIndex

__all__ = ["closure_edges", "handed_out", "hands_out"]

_DEFS = (ast.FunctionDef, ast.AsyncFunctionDef)


def handed_out(node: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[str, ...]:
    """The functions defined right in ``node``'s body that a ``return`` of its own hands
    back (``return lint_app``, ``return wraps(f)(wrapper)``). A name bound again in the
    body is left out. (One passed to a call is found from the call sites:
    :func:`closure_edges`.)"""
    own = {s.name for s in _own_defs(node.body)}
    if not own:
        return ()
    returned: set[str] = set()
    bound: set[str] = set()
    for inner in _walk_own(node):
        if isinstance(inner, ast.Return) and inner.value is not None:
            returned.update(n for n in _returned_names(inner.value) if n in own)
        elif (
            isinstance(inner, ast.Name) and inner.id in own and not isinstance(inner.ctx, ast.Load)
        ):
            bound.add(inner.id)
    return tuple(sorted(returned - bound))


def _returned_names(value: ast.expr) -> list[str]:
    """The names a ``return`` hands back itself: ``return f``, ``return f, g``, and the
    decorated ``return wraps(func)(f)`` or ``return update_wrapper(f, func)``; not one it
    passes to a call (``return self._register(ov, conn, finish_recv)`` hands
    ``finish_recv`` to ``_register``, which runs it later)."""
    if isinstance(value, ast.Name):
        return [value.id]
    if isinstance(value, (ast.Tuple, ast.List)):
        return [n for e in value.elts for n in _returned_names(e)]
    if isinstance(value, ast.Call) and value.args:
        func = value.func
        wrapped = isinstance(func, ast.Call) or (
            (isinstance(func, ast.Name) and func.id == "update_wrapper")
            or (isinstance(func, ast.Attribute) and func.attr == "update_wrapper")
        )
        return _returned_names(value.args[0]) if wrapped else []
    return []


def _own_defs(body: Sequence[ast.stmt]) -> Iterator[ast.FunctionDef | ast.AsyncFunctionDef]:
    """Functions defined in ``body``, in ``if``/``try``/``with`` blocks too."""
    for stmt in body:
        if isinstance(stmt, _DEFS):
            yield stmt
        elif isinstance(stmt, (ast.If, ast.Try, ast.With, ast.AsyncWith)):
            for name in ("body", "orelse", "finalbody"):
                yield from _own_defs(getattr(stmt, name, None) or ())
            for handler in getattr(stmt, "handlers", None) or ():
                yield from _own_defs(handler.body)


def _walk_own(node: ast.AST) -> Iterator[ast.AST]:
    """The nodes of ``node``'s body, not inside nested functions or classes (calls are
    seen before their callee's name: :func:`ast.walk` is breadth-first)."""
    todo = list(ast.iter_child_nodes(node))
    while todo:
        current = todo.pop(0)
        yield current
        if isinstance(current, (*_DEFS, ast.ClassDef, ast.Lambda)):
            continue
        todo.extend(ast.iter_child_nodes(current))


def hands_out(index: RepoIndex, caller: str, callee: str) -> bool:
    """Whether ``caller`` reaches ``callee`` by handing it out: returns it, calls it not.
    (One passed to a callable parameter runs during the call: an ordinary edge.)"""
    if not callee.startswith(f"{caller}.<locals>."):
        return False
    inner = index.function(callee)
    outer = index.function(caller)
    return (
        inner is not None
        and outer is not None
        and inner.parent == caller
        and not any(site.ref == (inner.name,) for site in outer.call_sites)
        and inner.name in outer.handed_out
    )


def _passed_on(index: RepoIndex, outer: FuncFacts, name: str) -> list[CallSite]:
    """``outer``'s calls that pass its nested function ``name`` to a callable its caller
    gave (a parameter of ``outer`` or of a function around it: ``application(environ,
    start_response_wrapper)``): the caller's code calls it during that call, and what it
    raises comes out there, so the call is an ordinary edge, not a hand-out
    (``apply_all(fn, items)`` doing ``return fn(checked, items)`` raises itself). A callback handed to the library's or another module's code (a thread, an
    event loop, ``atexit``) may run later or elsewhere, and is not followed."""
    given: set[str] = set()
    scope: FuncFacts | None = outer
    while scope is not None:
        given.update(p.lstrip("*") for p in scope.params)
        scope = index.function(scope.parent) if scope.parent else None
    return [
        site
        for site in outer.call_sites
        if len(site.ref) == 1
        and site.ref[0] in given
        and ("name", name) in (*site.args, *(a for _, a in site.keywords))
    ]


def closure_edges(index: RepoIndex) -> Iterator[tuple[FuncFacts, str, CallSite]]:
    """(enclosing function, nested function, a call site standing for the hand-out or
    for the call of a callable parameter that runs it) of each nested function its
    enclosing one returns or passes on so, and does not call."""
    for defs in index.functions.values():
        for func in defs:
            if func.parent is None:
                continue
            outer = index.function(func.parent)
            if outer is None or any(site.ref == (func.name,) for site in outer.call_sites):
                continue  # called: that call is its edge
            if func.name in outer.handed_out:
                yield outer, func.qualname, CallSite((func.name,), func.line, (), (), (), True)
            else:
                for site in _passed_on(index, outer, func.name):  # not its arguments
                    yield outer, func.qualname, replace(site, args=(), keywords=(), starred=True)
