"""What a caller must not have left on already, for its call to lead to the raise.

``xml.dom.minidom.Node.insertBefore`` starts with ``if newChild.nodeType ==
self.DOCUMENT_FRAGMENT_NODE: … return newChild`` and only then calls
``self.appendChild(newChild)``; ``Document.appendChild`` calls ``Node.appendChild(self,
node)``, which reaches ``Document.appendChild``'s "cannot be child of" again only in
``if node.nodeType == self.DOCUMENT_FRAGMENT_NODE:``. The entry-point walk named
``insertBefore`` "3 calls away", which no call can take (paired blind review, stop 34:
false). Each function reached carries the conditions its way down needs, in its own
parameters (:attr:`.chain_parts.Hop.needs`): those of the ``if`` clauses around its call
(:mod:`.call_paths`), and a callee's, renamed to what the call passes. A caller that
left (``return``, ``raise``, ``continue``, ``break``) where one of them, or one of the
raise's own conditions it passes on unchanged, holds, before its call
(:mod:`.early_exits`, :mod:`.early_raises`), is no way to the raise; so is one whose
constant arguments make one false (:mod:`.call_paths` judges the callee's own ``if``
clauses alone). Conditions are compared as :func:`ast.unparse` writes them, part by
part: past ``if a or b: return`` each of ``a`` and ``b`` is false, and each part of a
needed ``a and b`` must hold.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .callsites import Arg, CallSite
from .early_raises import guard_among, renamed
from .facts import FuncFacts
from .guard_eval import guard_value, is_immutable
from .guards import conjuncts, disjuncts, free_names

__all__ = ["MOST_NEEDS", "needs_up"]

#: Conditions carried up one way, at most: the rest are not needed to rule callers out.
MOST_NEEDS = 6


def needs_up(
    needs: Sequence[str],
    guards: Sequence[str],
    params: frozenset[str],
    passes: Mapping[str, str],
    caller: FuncFacts,
    site: CallSite,
    binding: Callable[[], Mapping[str, Arg]],
) -> tuple[str, ...] | None:
    """The conditions the way from ``caller`` needs (its own ``if`` clauses around
    ``site``, then the callee's ``needs`` renamed), or None where the caller raised or
    left already, before the call, where one holds: the raise's ``guards`` over its
    ``params`` renamed by ``passes`` (the caller's parameters passed on unchanged), or
    the callee's ``needs`` renamed by ``binding`` (the callee's parameters bound to the
    call's arguments)."""
    # each condition is known false only up to a line that may change what it reads
    # (:func:`.held_reads.changed_at`), over ``self`` or not
    exits = {cond for _, cond, first, last in caller.early_exits if first <= site.line <= last}
    raised = {text for end, text, last in caller.early_raises if end < site.line <= last}
    before = {part for cond in exits | raised for part in disjuncts(cond)}  # false past it
    needed = [*guards, *(part for guard in guards for part in conjuncts(guard))]  # must hold
    if needed and passes and guard_among(before, needed, params, passes):
        return None
    out = _own_conditions(caller, site.line)
    if needs:
        bound = binding()
        consts = {p: v for p, (kind, v) in bound.items() if kind == "const" and is_immutable(v)}
        if consts and any(guard_value(need, consts) is False for need in needs):
            return None  # the call's constants make a condition on the way false
        names = _passed_names(caller, site, bound)
        for need in needs:
            if (free_names(need) or {""}) <= names.keys():
                text = renamed(need, names)
                if text is not None and before.intersection([text, *conjuncts(text)]):
                    return None
                if text is not None:
                    out.append(text)
    return tuple(dict.fromkeys(out))[:MOST_NEEDS]


def _own_conditions(caller: FuncFacts, line: int) -> list[str]:
    """The conditions of the ``if`` clauses around the call at ``line`` that hold in the
    caller's first round: a function that may call itself other than under one makes
    the call in a later round with its parameters bound otherwise
    (``staggered_race``'s ``run_one_coro(None)`` then ``run_one_coro(this_failed)``);
    ``Node.appendChild`` calls itself only under its own fragment test."""
    found = caller.call_conditions.get(line, ())
    again = [s for s in caller.call_sites if s.ref[-1:] == (caller.name,)]
    return [c for c in found if all(c in caller.call_conditions.get(s.line, ()) for s in again)]


def _passed_names(caller: FuncFacts, site: CallSite, binding: Mapping[str, Arg]) -> dict[str, str]:
    """The callee's parameters the call passes the caller's own unchanged parameters to,
    by name; and ``self`` where the call is made on the caller's ``self``."""
    own = {p.lstrip("*") for p in caller.params} - set(caller.rebound)
    out = {
        param: str(value)
        for param, (kind, value) in binding.items()
        if kind == "name" and value in own
    }
    if site.ref[:1] == ("self",) and "self" in own:
        out["self"] = "self"
    return out
