"""Calls a test makes that cannot bind to the function they name: no way into its body.

``functools.partialmethod()`` (no ``func``) and ``partialmethod(func=f, a=1)`` (``func``
is positional-only) fail with the interpreter's ``TypeError`` at the call, before
``partialmethod.__init__`` runs its own ``TypeError`` raise; yet both were linked to it
(blind review 2026-12-06, stop 36). An expectation keeps the shape of each call it makes
(:func:`block_shapes`: the callee's last name, how many positional arguments, which
keywords); a callee is left out of what the test reaches (:func:`unbound_callees`) only
when every call naming it surely fails to bind (:func:`.call_fit.site_fits`): a call
passing ``*args`` or ``**kwargs``, a decorator that may re-sign the callee, or a class
call where a metaclass may pass other arguments keeps it."""

from __future__ import annotations

import ast
from collections.abc import Iterable
from typing import TYPE_CHECKING

from .ancestors import ancestors
from .call_fit import site_fits
from .callsites import CallSite
from .facts import CallRef, Expect, FuncFacts, dotted

if TYPE_CHECKING:
    from .repo import RepoIndex

__all__ = ["Shape", "block_shapes", "unbound_callees"]

#: (the callee as written, positional arguments or -1 with ``*args``/``**kwargs``,
#: keyword names).
Shape = tuple[CallRef, int, tuple[str, ...]]

_CONSTRUCTORS = ("__init__", "__new__")


def block_shapes(nodes: Iterable[ast.AST]) -> tuple[Shape, ...]:
    """The shape of every call in ``nodes`` whose callee has a name (``f(...)``,
    ``x.m(...)``, ``f(...).m(...)`` as ``("", "m")``)."""
    out: list[Shape] = []
    for top in nodes:
        for node in ast.walk(top):
            if not isinstance(node, ast.Call):
                continue
            func = node.func
            ref = dotted(func)
            if ref is None and isinstance(func, ast.Attribute):
                ref = ("", func.attr)
            if ref is None:
                continue
            starred = any(isinstance(a, ast.Starred) for a in node.args) or any(
                k.arg is None for k in node.keywords
            )
            keywords = tuple(str(k.arg) for k in node.keywords if k.arg is not None)
            out.append((ref, -1 if starred else len(node.args), keywords))
    return tuple(out)


def unbound_callees(index: RepoIndex, expect: Expect, callees: Iterable[str]) -> set[str]:
    """The callees every call of the expectation naming them cannot bind to (a
    constructor by its class's name): the interpreter raises before their body runs."""
    out: set[str] = set()
    for callee in callees:
        func = index.function(callee)
        if func is None:
            continue
        names = {func.name}
        if func.cls is not None and func.name in _CONSTRUCTORS:
            if _metaclass_above(index, func.cls):
                continue  # its ``__call__`` may pass the constructor other arguments
            names.add(func.cls.rpartition(".")[2])
        mine = [s for s in expect.shapes if s[0] and s[0][-1] in names]
        if mine and not any(_may_bind(func, shape) for shape in mine):
            out.add(callee)
    return out


def _may_bind(func: FuncFacts, shape: Shape) -> bool:
    ref, given, keywords = shape
    if given < 0:
        return True
    site = CallSite(
        ref=ref,
        line=0,
        tries=(),
        args=(None,) * given,
        keywords=tuple((k, None) for k in keywords),
        starred=False,
    )
    return site_fits(func, site)


def _metaclass_above(index: RepoIndex, cls: str) -> bool:
    """Whether the class or a base of it names a metaclass, or a base of outside code is
    not known. A builtin base is skipped, not an answer: ``class Pair(Trimmed, dict)``
    may still take ``Trimmed``'s metaclass, whichever base the walk meets first."""
    for here in (cls, *ancestors(index, cls)):
        if here.startswith("builtins."):
            continue
        facts = index.classes.get(here)
        if facts is None or facts.metaclass is not None:
            return True  # a base of outside code: unknown
    return False
