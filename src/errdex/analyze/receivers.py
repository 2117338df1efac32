"""Which class ``self`` can be along a chain of calls on the same object, and whether the
methods the chain looked up on it are the ones that class runs.

``ExpatParser.parse`` calls ``IncrementalParser.parse(self, source)``, whose
``self.prepareParser(source)`` reached the base class's raise. But that ``self`` is an
``ExpatParser``, which overrides ``prepareParser``: the base method never runs from
``ExpatParser.parse``, and a chain through it is no way to the raise. A hop remembers
each ``self.m()`` lookup made on its receiver (the method name and the definition the
chain went through); a caller that passes its own ``self`` on (``self.m()``,
``super().m()``, ``Base.m(self, …)``) is kept only when its class, or one of the
repository's subclasses of it, resolves every one of those names to that definition.
A local bound once to a constructor's result (``parser = ArgumentParser()``) is of
that class exactly, and is checked against it alone; so is the object a constructor call
builds (``Class(…)``). A call on any other receiver starts afresh: what it is called on is not known.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence

from .callsites import CallSite
from .facts import FuncFacts
from .repo import RepoIndex

__all__ = ["Lookup", "dispatched_after"]

#: A ``self.m()`` lookup the chain depends on: (method name, definition it went through).
Lookup = tuple[str, str]
#: ``cls.name`` looked up along the repository's bases (:meth:`RepoIndex.method`).
Method = Callable[[str, str], str | None]


def dispatched_after(
    index: RepoIndex,
    method: Method,
    lookups: tuple[Lookup, ...],
    callee: FuncFacts,
    caller: FuncFacts,
    site: CallSite,
    *,
    caller_class: str | None,
    subclasses: Mapping[str, Sequence[str]],
    unbound: Callable[[], bool],
    constructed: Callable[[], str | None] = lambda: None,
) -> tuple[Lookup, ...] | None:
    """The lookups the caller's ``self`` must satisfy once ``site`` (a call of ``callee``)
    is taken, or None when no class the caller's ``self`` can be satisfies them.

    ``method`` looks a method up along a class's bases; ``caller_class`` is the class
    whose ``self`` the caller uses (its own, or the
    enclosing method's for a nested function); ``unbound`` says whether ``site`` is a
    ``Class.method(obj, …)`` call; ``constructed`` names the class ``site`` builds when
    it is a constructor call (``Class(…)``, ``class_(fp)``).
    """
    if callee.cls is None or _not_instance_method(callee):
        return ()
    ref = site.ref
    built = constructed() if callee.name in ("__init__", "__new__") else None
    if built is not None:
        # ``NullTranslations(fp)`` builds exactly that class: its ``__init__``'s
        # ``self._parse(fp)`` runs ``NullTranslations._parse``, not a subclass's
        return () if all(_may_run(method, built, n, t) for n, t in lookups) else None
    made = _constructed(index, caller, ref)
    if made is not None:
        # ``parser = ArgumentParser(); parser.add_argument(…)``: exactly that class
        lookups = (*lookups, (ref[1], callee.qualname))
        ok = all(_may_run(method, made, name, target) for name, target in lookups)
        return () if ok else None
    if caller_class is None:
        return ()
    if len(ref) == 2 and ref[0] == "self":
        lookups = (*lookups, (ref[1], callee.qualname))
    elif not (
        (len(ref) == 2 and ref[0] == "super()")
        or (site.args and site.args[0] == ("name", "self") and unbound())
    ):
        return ()  # another receiver: what it is, is not known
    if not lookups:
        return lookups
    for cls in (caller_class, *subclasses.get(caller_class, ())):
        if all(_may_run(method, cls, name, target) for name, target in lookups):
            return lookups
    return None


def _constructed(index: RepoIndex, caller: FuncFacts, ref: tuple[str, ...]) -> str | None:
    """The class of a local bound once to its constructor's result, the receiver of a
    method call ``ref`` (``parser.add_argument``)."""
    if len(ref) != 2 or ref[0] in ("self", "cls", "super()", ""):
        return None
    made = caller.local_calls.get(ref[0])
    if made is None:
        return None
    target = index.resolve(caller.module, made, caller.local_imports)
    return target.qualname if target is not None and target.kind == "class" else None


def _may_run(method: Method, cls: str, name: str, target: str) -> bool:
    """Whether ``cls.name`` may be ``target``: it is, or the lookup finds no definition
    in the repository (a base outside it may hold it)."""
    found = method(cls, name)
    return found is None or found == target


def _not_instance_method(func: FuncFacts) -> bool:
    return any(d in (("staticmethod",), ("classmethod",)) for d in func.decorators)
