"""A call through a name the function binds to one class or function: ``class_(fp)``.

``gettext.translation(domain, …, class_=None)`` starts with ``if class_ is None: class_ =
GNUTranslations`` and later makes ``class_(fp)``: a caller that leaves ``class_`` (every
caller in the standard library) builds a ``GNUTranslations``, whose ``_parse`` raises
"Bad magic number". Without following that name, ``translation``, ``install``,
``dgettext`` and the rest were no entry point of any of ``_parse``'s raises (blind review
stop 33). A local or parameter counts when the body binds it exactly once, to a plain
dotted name the module resolves to a class or function (``f = helper``); a parameter
the body never binds counts through a default that names one (``factory=Reader``). A
caller passing its own object goes elsewhere: the call is a way to the raise, as every
edge is, not the only one.
"""

from __future__ import annotations

from .chain_parts import signature_of
from .facts import CallRef, FuncFacts
from .repo import RepoIndex, Target

__all__ = ["bound_target", "built_class"]


def bound_target(index: RepoIndex, func: FuncFacts, ref: CallRef) -> Target | None:
    """The class or function ``ref``'s head is bound to in ``func`` (see the module); for
    ``name.m(…)``, the method ``m`` of the class so bound. None when not so bound."""
    if not 1 <= len(ref) <= 2:
        return None
    written = _written(func, ref[0])
    if written is None:
        return None
    target = index.resolve(func.module, written, func.local_imports)
    if target is None or target.kind not in ("class", "function"):
        return None
    if len(ref) == 1:
        return target
    if target.kind != "class":
        return None
    method = index.method(target.qualname, ref[1])
    return Target("function", method) if method is not None else None


def _written(func: FuncFacts, head: str) -> CallRef | None:
    """The dotted name ``head`` holds wherever the body calls through it."""
    if head in func.local_calls or head in func.local_imports or head in ("self", "cls"):
        return None
    bound = func.local_binds.get(head)
    if bound is not None:
        kind, written = bound
        if kind != "alias" or len(func.bound_lines.get(head, ())) != 1:
            return None
        return written
    if head in func.params and head not in func.rebound:
        sig = signature_of(func.signature)
        name = sig.named.get(head) if sig is not None else None
        return (name,) if name is not None else None
    return None


def built_class(index: RepoIndex, caller: FuncFacts, ref: CallRef) -> str | None:
    """The class a call ``ref`` in ``caller`` builds (``Class(…)``, ``class_(fp)``)."""
    target = bound_target(index, caller, ref) if len(ref) == 1 else None
    if target is None and ref and ref[0] not in ("", "super()", "self", "cls"):
        target = index.resolve(caller.module, ref, caller.local_imports)
    return target.qualname if target is not None and target.kind == "class" else None
