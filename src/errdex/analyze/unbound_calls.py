"""Two readings of how a call names its callee, by the index alone: whether a reference
names a class, and whether ``Class.method(obj, ...)`` passes the instance itself (moved
out of :mod:`.chains`, which reads them while binding arguments)."""

from __future__ import annotations

from .callsites import CallSite
from .facts import FuncFacts
from .repo import RepoIndex

__all__ = ["names_class", "unbound_call"]


def names_class(index: RepoIndex, caller: FuncFacts, ref: tuple[str, ...]) -> bool:
    """Whether ``ref`` names a class where ``caller`` writes it."""
    owner = index.resolve(caller.module, ref, caller.local_imports) if ref else None
    return owner is not None and owner.kind == "class"


def unbound_call(index: RepoIndex, caller: FuncFacts, site: CallSite, callee: FuncFacts) -> bool:
    """``Class.method(obj, ...)``: the instance is passed as the first argument."""
    if len(site.ref) < 2 or site.ref[-1] != callee.name or callee.name in ("__init__", "__new__"):
        return False
    if ("classmethod",) in callee.decorators:
        return False
    owner = index.resolve(caller.module, site.ref[:-1], caller.local_imports)
    return owner is not None and owner.kind == "class"
