"""Whether an entry point, called on an object as users call it, can run the chain below.

``jinja2``'s ``BaseLoader.load`` calls ``self.get_source(…)``, which reaches
``ChoiceLoader.get_source``'s ``TemplateNotFound`` only when ``self`` is a
``ChoiceLoader``; but a ``ChoiceLoader`` runs its own ``load``, and ``loader.load(…)``
never runs ``BaseLoader.load`` on one (blind review stop 36, record f3eab6cce6a9e969).
The walk (:mod:`.receivers`) keeps ``BaseLoader.load`` as a step, rightly: a subclass's
``super().load()`` runs it on its own ``self``. Named as an entry point, the method is
called by its name on an object, so the class of that object must resolve the name to
this very method as well as the ``self.m()`` lookups the chain made: where no class of
the repository at or below the method's does, it is no way in. A method a class at or
below its own also binds under another name (``fetch = load`` in ``Base``, which
``Choice`` leaves alone) runs under that name on objects that override the first: it
stays (a read-only review of session 38).
"""

from __future__ import annotations

from collections.abc import Mapping, Sequence

from .chain_parts import Hop
from .repo import RepoIndex

__all__ = ["called_by_name"]


def called_by_name(index: RepoIndex, hop: Hop, below: Mapping[str, Sequence[str]]) -> bool:
    """Whether some class at or below the hop's method's class runs that method for its
    name and every ``self`` lookup the hop depends on (a lookup the repository does not
    define may be a base's outside it: it may hold)."""
    if not hop.lookups:
        return True
    func = index.function(hop.qualname, hop.line)
    if func is None or func.cls is None:
        return True
    if any(d in (("staticmethod",), ("classmethod",)) for d in func.decorators):
        return True
    wanted = (*hop.lookups, (func.name, func.qualname))
    for cls in (func.cls, *below.get(func.cls, ())):
        if _aliased(index, cls, func.name):
            return True
        if all(index.method(cls, name) in (None, target) for name, target in wanted):
            return True
    return False


def _aliased(index: RepoIndex, cls: str, name: str) -> bool:
    """Whether ``cls``'s body binds another name to a method called ``name``
    (``fetch = load``, ``fetch = Base.load``)."""
    facts = index.classes.get(cls)
    return facts is not None and any(
        attr != name and ref[-1] == name for attr, ref in facts.attrs.items()
    )
