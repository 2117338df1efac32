"""Public calls that reach a method the library calls itself: an override of a base class's
method (``ExtendedInterpolation.before_get`` over ``Interpolation.before_get``).

Nobody calls ``ExtendedInterpolation.before_get`` by name: ``ConfigParser.get`` calls
``before_get`` on the interpolation it holds. "It comes from a call of
`ExtendedInterpolation.before_get()`" was judged misleading in the paired blind review of
stop 36 ("names a hook users never call"). Here the callers come from errdex's call graph
only: a public function of the base class's module (or the override's) whose call of the
method's name the graph holds, on the base's method or the override itself. A caller in
another module is left out: an edge resolved by name alone there may be a call on some
other type's method of that name.
"""

from __future__ import annotations

from typing import NamedTuple

from .callgraph import CallGraph
from .entrypoints import PublicApi
from .facts import FuncFacts
from .hook_holders import can_hold
from .param_requirement import call_name
from .repo import RepoIndex

__all__ = ["HookCallers", "hook_callers"]

#: Callers named, at most.
_SHOWN = 2


class HookCallers(NamedTuple):
    """The base method overridden (qualname), and the public callers that reach it as
    their call is written (``ConfigParser.get()``)."""

    base_method: str
    callers: tuple[str, ...]


def overridden(index: RepoIndex, func: FuncFacts) -> str | None:
    """The nearest base class method of the repository that ``func`` overrides."""
    if func.cls is None:
        return None
    seen: set[str] = {func.cls}
    queue = list(index.bases(func.cls))
    while queue and len(seen) < 64:
        base = queue.pop(0)
        if base in seen:
            continue
        seen.add(base)
        qual = f"{base}.{func.name}"
        if qual in index.functions:
            return qual
        queue.extend(index.bases(base))
    return None


def _runs(caller: FuncFacts, name: str) -> set[str]:
    """Whether ``caller`` calls ``name`` on an object it holds in an attribute of ``self``
    (``self._interpolation.before_get``, ``self._style.validate``), outside any ``try``
    (``MutableMapping.clear`` catches ``popitem``'s ``KeyError``,
    ``CCompiler.has_function`` ``compile``'s ``CompileError``). A call on ``self``
    itself is of a method users call too (``BaseEventLoop.call_soon``, reached from
    ``start_tls`` on ``self``: users call ``loop.call_soon``); a local or a parameter
    (``waiter.release()`` in ``Condition.notify``, a lock) is of a type errdex does not
    know. Gives the attributes it calls ``name`` on: :func:`.hook_holders.can_hold` says
    whether each can hold the override's class."""
    attrs: set[str] = set()
    for site in caller.call_sites:
        ref = site.ref
        if not ref or ref[-1] != name or ref[0] != "self" or site.tries:
            continue
        if len(ref) == 3:
            attrs.add(ref[1])
    return attrs


def _reaches(index: RepoIndex, api: PublicApi, caller: FuncFacts, func: FuncFacts) -> bool:
    """``caller`` calls ``func``'s name on an attribute that can hold ``func``'s class."""
    holder = caller.cls
    return holder is not None and any(
        can_hold(index, api, holder, attr, func.qualname) for attr in _runs(caller, func.name)
    )


def hook_callers(
    index: RepoIndex, graph: CallGraph, api: PublicApi, func: FuncFacts | None
) -> HookCallers | None:
    """The public callers of the method ``func`` overrides, or of ``func`` itself, in the
    modules of the base class or of ``func`` (:func:`_runs`); None where ``func``
    overrides nothing of the repository's, is a special method (:mod:`.special_words`
    says how Python runs it) or no such caller is in the graph. A special method among
    the callers is left out (``BaseEventLoop.__del__`` calls ``close``)."""
    if func is None or func.cls is None or func.name.startswith("__"):
        return None
    base = overridden(index, func)
    if base is None:
        return None
    base_func = index.function(base)
    modules = {func.module} | ({base_func.module} if base_func is not None else set())
    found: dict[str, int] = {}
    for callee in (base, func.qualname):
        for caller in graph.callers.get(callee, {}):
            facts = index.function(caller)
            if (
                facts is None
                or facts.module not in modules
                or facts.name == func.name  # an override's ``super()`` call
                or (facts.name.startswith("__") and facts.name not in ("__init__", "__new__"))
                or facts.is_test
                or not api.is_public(caller)
                or api.unlisted(caller)
                or not _reaches(index, api, facts, func)
            ):
                continue
            found[caller] = len(graph.callers.get(caller, {}))
    if not found:
        return None
    ranked = sorted(found, key=lambda q: api.order(q, found[q]))
    names: list[str] = []
    for qual in ranked:
        name = call_name(qual, index.function(qual))
        if name not in names:
            names.append(name)
    return HookCallers(base, tuple(names[:_SHOWN]))
