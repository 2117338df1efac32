"""How many items a call that unpacks ``*x`` surely puts in its callee's ``*args``.

``CompatibilityFiles.OrphanPath.joinpath`` returns ``OrphanPath(*self._path, other)``,
and ``OrphanPath.__init__(self, *path_parts)`` raises "Need at least one path part to
construct a path" under ``len(path_parts) < 1``: whatever ``self._path`` holds, ``other``
lands in ``path_parts``, and ``Traversable.__truediv__`` was named a way to the raise
(blind review stop 37, record f58df1b76bc77a78: false, run). A call site keeps its
arguments up to the first ``*`` only (:class:`.callsites.CallSite`); the caller's syntax
tree shows the rest. Each plain positional argument, before or after a ``*x``, fills a
positional parameter or lands in the ``*args``, so at least (plain arguments − the
callee's positional parameters) land there, whatever ``x`` holds (a call whose
arguments do not bind raises ``TypeError`` first). :class:`PackedAtLeast` holds that and
nothing more: the tuple is true and ``len`` of it is at least that; its items, its
equality and its exact length are not known.
"""

from __future__ import annotations

import ast
import os
import sys
from functools import lru_cache

from .callsites import CallSite
from .facts import FuncFacts, dotted
from .file_trees import file_stamp, function_node
from .guard_eval import Made
from .repo import RepoIndex
from .value_ranges import Interval

__all__ = ["PackedAtLeast", "packed_at_least"]


class PackedAtLeast(Made):
    """A ``*args`` tuple holding at least ``least`` (>= 1) items, nothing else known."""

    __slots__ = ("least",)

    def __init__(self, least: int) -> None:
        super().__init__(fresh=True)
        self.least = least

    def __bool__(self) -> bool:
        return True  # only built for ``least`` >= 1

    def length(self) -> Interval:
        """``len`` of it (read by :func:`.guard_eval.guard_value`)."""
        return Interval(self.least, sys.maxsize)

    def __eq__(self, other: object) -> bool:
        return isinstance(other, PackedAtLeast) and other.least == self.least

    def __hash__(self) -> int:
        return hash(("PackedAtLeast", self.least))

    def __repr__(self) -> str:
        return f"PackedAtLeast({self.least})"


def packed_at_least(
    index: RepoIndex, caller: FuncFacts, site: CallSite, positional: int
) -> PackedAtLeast | None:
    """What the call at ``site`` (one that unpacks ``*x``) surely puts in the ``*args`` of
    a callee taking ``positional`` positional parameters (after a bound ``self``); None
    where that is no item, or the call is not found alone on its line."""
    module = index.modules.get(caller.module)
    if module is None or not index.root:
        return None
    plain = _plain_args(os.path.join(index.root, module.rel), caller.line, caller.name, site)
    least = (plain or 0) - positional
    return PackedAtLeast(least) if least > 0 else None


def _plain_args(path: str, line: int, name: str, site: CallSite) -> int | None:
    """The plain positional arguments of the one call of ``site.ref`` on ``site.line``
    whose own arguments are the site's, in the function ``name`` defined at ``line`` of
    ``path``; None where that call unpacks no ``*x`` (``f(a, **kw)``: a site is starred
    for a ``**`` too) or is not the only one of that shape on the line."""
    stamp = file_stamp(path)
    if stamp is None:
        return None
    return _counted(path, stamp, line, name, site.line, site.ref, _shape(site))


#: What a call site keeps of its arguments: the positional ones up to the first ``*``
#: (a plain name's identifier, else None) and its keywords' names.
Shape = tuple[tuple[str | None, ...], tuple[str, ...]]


def _shape(site: CallSite) -> Shape:
    names = tuple(
        a[1] if a and a[0] == "name" and isinstance(a[1], str) else None for a in site.args
    )
    return names, tuple(k for k, _ in site.keywords)


def _call_shape(call: ast.Call) -> Shape:
    """:func:`_shape` of the site :mod:`.callsites` makes of ``call``."""
    leading: list[str | None] = []
    for a in call.args:
        if isinstance(a, ast.Starred):
            break
        leading.append(a.id if isinstance(a, ast.Name) else None)
    return tuple(leading), tuple(k.arg for k in call.keywords if k.arg is not None)


def _same(found: Shape, wanted: Shape) -> bool:
    """The call's arguments are the site's (a name where the site kept one)."""
    if len(found[0]) != len(wanted[0]) or found[1] != wanted[1]:
        return False
    return all(w is None or f == w for f, w in zip(found[0], wanted[0], strict=True))


@lru_cache(maxsize=4096)
def _counted(
    path: str,
    stamp: tuple[int, int],
    line: int,
    name: str,
    at: int,
    ref: tuple[str, ...],
    shape: Shape,
) -> int | None:
    del stamp  # part of the key: a file edited between scans is read again
    node = function_node(path, line, name)
    if node is None:
        return None
    calls = [
        call
        for call in ast.walk(node)
        if isinstance(call, ast.Call)
        and call.lineno == at
        and dotted(call.func) == ref
        and _same(_call_shape(call), shape)
    ]
    if len(calls) != 1:
        return None  # two calls on one line fit the site: which it is, is not known
    if not any(isinstance(a, ast.Starred) for a in calls[0].args):
        return None  # ``f(a, **kw)``: nothing unpacked into the ``*args``
    return sum(not isinstance(a, ast.Starred) for a in calls[0].args)
