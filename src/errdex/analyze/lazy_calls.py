"""Sentences about a call whose result, not the call, raises: a generator's body runs
when the result is iterated, a coroutine's when it is awaited (:mod:`.lazy_chain` says
which calls are such).

"It comes from a call of `restore()`" and "catch … around the call to
`select_or_reject()`" were judged misleading and false in the blind review of stop 39:
the call returns a generator and raises nothing, a ``try`` around it catches nothing,
and the error comes on ``list()`` or the first ``next()``. The situation then names the
iteration (or the ``await``), and the catch goes around it.
"""

from __future__ import annotations

import re

from errdex.evidence import EntryPoint

from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .gathered import Gathered
from .guards import code, has_private
from .lazy_chain import ASYNC_GENERATOR, COROUTINE, LAZY, PARTLY, own_kind
from .param_requirement import call_name

__all__ = ["lazy_place", "lazy_subject", "lazy_trigger", "said_lazily", "stored_lazily"]

#: "a call of `a()`" and the calls "or `b()`" it runs on to.
_CALLS = re.compile(r"\ba call of (`[^`]+`(?: or `[^`]+`)*)")
_SPAN = re.compile(r"`[^`]+`")


def _kind(g: Gathered, entry: EntryPoint | None) -> str | None:
    """What ``entry``'s call gives in place of the raise (the raising function itself
    where ``entry`` is None); None where the call runs it or nothing is known."""
    kind = g.lazy.get(entry["qualname"]) if entry is not None else own_kind(g.func)
    kind = kind.removeprefix(PARTLY) if kind else None  # the raise, if any, comes from it
    return kind if kind in LAZY else None


def stored_lazily(g: Gathered, entry: EntryPoint) -> bool:
    """Whether the call of ``entry`` reaches the raise only through a generator or
    coroutine it uses in a way not read (``self._it = _gen(n)`` in ``__init__``; an
    ``async def`` that returns one): its call, or its ``await``, may raise nothing, so no
    handler is placed around it (rr8)."""
    return _unsure(g, entry) and _kind(g, entry) is None


def _unsure(g: Gathered, entry: EntryPoint) -> bool:
    """Whether a generator or coroutine on the way may not be run as far as the raise."""
    state = g.lazy.get(entry["qualname"])
    return state is not None and state not in LAZY


def _entry_func(g: Gathered, entry: EntryPoint) -> FuncFacts | None:
    func = g.entry_funcs.get(entry["qualname"])
    if func is None and g.func is not None and g.func.qualname == entry["qualname"]:
        return g.func  # the raising function itself
    return func


def _lazy_calls(g: Gathered) -> dict[str, str]:
    """The calls, as :func:`.situation_words._calls` writes them (in code), whose result
    runs the raise when iterated or awaited -> its kind."""
    out: dict[str, str] = {}
    for entry in g.entry_points:
        kind = _kind(g, entry)
        if kind is not None:
            out[code(call_name(entry["qualname"], _entry_func(g, entry)))] = kind
    own = _kind(g, None)
    if own is not None and g.func is not None:
        out.setdefault(code(call_name(g.func.qualname, g.func)), own)
    return out


#: What the site is, by its kind: a ``yield ValueError(…)`` or a warning is not raised.
_THIS = {"warn": "this warning", "yield": "this `yield`"}


def _way(kind: str, call: str) -> str:
    if kind == COROUTINE:
        return f"awaiting a call of {call}"
    if kind == ASYNC_GENERATOR:
        return f"iterating (`async for`) the result of a call of {call}"
    return f"iterating the result of a call of {call}"


def said_lazily(g: Gathered, text: str) -> str:
    """``text`` with each "a call of `f()`" whose result, not the call, raises said as
    the iteration or ``await`` of it."""
    lazy = _lazy_calls(g)
    if not lazy:
        return text

    def written(found: re.Match[str]) -> str:
        spans = _SPAN.findall(found.group(1))
        if not any(s in lazy for s in spans):
            return found.group(0)
        return " or ".join(_way(lazy[s], s) if s in lazy else f"a call of {s}" for s in spans)

    return _CALLS.sub(written, text)


def lazy_place(g: Gathered, entry: EntryPoint | None, call: str) -> str | None:
    """Where a handler goes for ``call`` (in code), the call of ``entry`` (None: of the
    raising function), when its result raises: around the iteration or the ``await``,
    with its leading space; None where the call itself raises."""
    kind = _kind(g, entry)
    if kind is None:
        return None
    # a plain function that returns ``g(…)`` runs its own body at the call: only its
    # result is lazy, and "the call alone raises nothing" would be too strong of it
    func = g.func if entry is None else _entry_func(g, entry)
    if kind == COROUTINE:
        makes = "the call alone only makes a coroutine"
        where = f" around the `await` of {call}"
    elif kind == ASYNC_GENERATOR:
        makes = "the call alone only makes an async generator and raises nothing"
        where = f" around the `async for` over the result of {call}"
    else:
        makes = "the call alone only makes a generator and raises nothing"
        where = (
            f" around the code that iterates the result of {call} (a `for` loop, list() or next():"
        )
    done = "awaited" if kind == COROUTINE else "iterated"
    why = makes if own_kind(func) == kind else f"the error comes when the result is {done}"
    return f"{where} {why})" if where.endswith(":") else f"{where} ({why})"


def lazy_subject(g: Gathered, entry: EntryPoint) -> str:
    """What raises, of ``entry``'s call: "the call", or iterating or awaiting its result;
    where a generator or coroutine on the way is used in a way not read (``any(g())``
    stops at the first true item, ``@decorator`` on a generator function), only that
    it raises once run that far: "the call raises" was false of ``any_of(-1)``."""
    if _unsure(g, entry):
        return "a generator or coroutine on the way, when run that far,"
    kind = _kind(g, entry)
    if kind == COROUTINE:
        return "awaiting the call"
    if kind is not None:
        return "iterating the call's result"
    return "the call"


def lazy_trigger(g: Gathered) -> str | None:
    """triggerScenarios' sentence on when the body runs: the raising function is a
    generator or coroutine function, or the nearest public call returns one that
    reaches it (``return g(…)``)."""
    own = _kind(g, None)
    func = g.func
    name = call_name(func.qualname, func) if func is not None else "_"
    public = func is not None and not has_private(func.qualname) and not has_private(name)
    this = _THIS.get(g.site.kind, "this raise")  # a yielded error or a warning is no raise
    if own is not None and func is not None and public and not run_by_syntax(func.qualname):
        said = code(name)
        if own == COROUTINE:
            return (
                f"{said} is a coroutine function (`async def`): a call of it only makes a "
                f"coroutine, and its body, {this} included, runs when that is awaited."
            )
        what = "an async generator" if own == ASYNC_GENERATOR else "a generator"
        return (
            f"{said} is {what} function: a call of it only makes {what}, and its body, "
            f"{this} included, runs when that is iterated."
        )
    for entry in g.entry_points:
        kind = _kind(g, entry)
        if kind is None or run_by_syntax(entry["qualname"]) or _unsure(g, entry):
            continue  # not known to reach it when iterated (``a, b = g()`` below)
        call = code(call_name(entry["qualname"], g.entry_funcs.get(entry["qualname"])))
        what = {COROUTINE: "a coroutine", ASYNC_GENERATOR: "an async generator"}.get(
            kind, "a generator"
        )
        done = "awaited" if kind == COROUTINE else "iterated"
        the = this.replace("this", "the", 1)
        return (
            f"{call} returns {what} that reaches it: {the} comes when that result "
            f"is {done}, not at the call."
        )
    return None
