"""Whether the catch advice may move from an entry point up to an outer call: only where
the outer call itself runs the raise, under its defaults.

Review of d48's outer catch (rr3): "catch ProxyError around the call to `pkg.pages()`"
where ``pages`` is a generator (its call returns one and raises nothing: a48's lazy rule,
:mod:`.lazy_chain`), and "around the call to `pkg.get_strict()`" where ``get_strict(url,
strict=False)`` reaches the raise only under ``if strict:`` (:attr:`.chain_parts.Hop.needs`).
Either way the handler around the outer call catches nothing in the default call, so the
advice stays with the entry point.
"""

from __future__ import annotations

from collections.abc import Sequence

from errdex.evidence import EntryPoint

from .chain_parts import Hop
from .lazy_chain import chain_states
from .repo import RepoIndex

__all__ = ["lazy_on_way", "needs_on_way"]


def needs_on_way(hops: Sequence[Hop], outer: Hop, entry: str) -> bool:
    """A function from ``outer`` down to (not including) ``entry`` on ``outer``'s way
    takes it to the raise only under a condition of its parameters, or one of them is
    not among the walk's hops (not known: said as needing one)."""
    if entry not in outer.via:
        return True
    needs: dict[tuple[str, ...], bool] = {}  # a way walked twice: needed on either
    for hop in hops:
        needs[hop.via] = needs.get(hop.via, False) or bool(hop.needs)
    return any(needs.get(outer.via[at:], True) for at in range(outer.via.index(entry)))


def lazy_on_way(index: RepoIndex, function: str, entry: EntryPoint, outer: Hop) -> bool:
    """The call of ``outer`` or of ``entry`` gives a generator or coroutine (or a result
    used in a way not read) in place of running the raise: a ``try`` around ``outer``'s
    call catches nothing there, or the advice names ``entry``'s iteration instead."""
    func = index.function(function)
    if func is None:
        return True
    step: EntryPoint = {"qualname": outer.qualname, "depth": outer.depth, "via": list(outer.via)}
    funcs = {
        q: f for q in (outer.qualname, entry["qualname"]) if (f := index.function(q)) is not None
    }
    return bool(chain_states(index, func, [entry, step], funcs))
