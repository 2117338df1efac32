"""The handler as the fix of last resort for a mistake of the calling code: "catch
``TypeError`` around the call to ``Response()``" where errdex can state no requirement
on what the call is passed. It replaces "errdex found no fix it can state in the
caller's terms", which blind reviewers judged misleading every time (stop 39: "not a
solution; a fix exists (catch requests.exceptions.InvalidHeader …)").

Said only where the class can be named as a caller imports it (a builtin by its name,
a library class by a dotted path with no private part: ``requests.exceptions.InvalidHeader``,
never ``httpx._exceptions.InvalidURL``) and the handler has a place the caller wrote (a
public call errdex resolved, the raising function when public, the import of the
module); a special method's "use" (``Client.__enter__``, ``__getstate__``) is none.
"""

from __future__ import annotations

from .entrypoints import run_by_syntax
from .facts import FuncFacts
from .gathered import Gathered
from .guards import code, has_private
from .own_state import is_attribute
from .param_requirement import call_name

__all__ = ["catch_path", "public_catch"]

Remedy = tuple[str, list[str]]


def catch_path(g: Gathered) -> str | None:
    """The class as an ``except`` clause names it: ``TypeError``, or a public dotted path."""
    qualified = g.site.canonical_class or g.site.qualified_class or ""
    name = g.site.error_class
    if not name or not qualified or has_private(name):
        return None
    if qualified.startswith("builtins."):
        return qualified.removeprefix("builtins.")
    if "." not in qualified or has_private(qualified):
        return None  # a bare name (a local, a parameter) or a private module's path
    return qualified


def public_catch(g: Gathered, place: str, func: FuncFacts | None) -> Remedy | None:
    """ "Catch ``X`` around …": the class's public path and the handler's place; ``func``
    is the entry point the place names, whose property or setter is read or assigned,
    not called (``Response.request``)."""
    path = catch_path(g)
    if path is None or not place.startswith((" around the call to", " around the import of")):
        return None  # "the use of `Handle.__getstate__`" names no code the caller wrote
    if g.site.kind == "assert" and g.site.function is None:
        return None  # the module checks its own tables as it loads: nothing of the caller's
    own = _own_entry(g)
    if own is not None:  # the raising call itself: an outer one may never pass what fires
        place, func = f" around the call to {code(call_name(own.qualname, own))}", own
    if func is not None and func.cls is not None and "the call to" in place:
        attr = f"{code(func.cls.rpartition('.')[2] + '.' + func.name)}"
        if any(ref and ref[-1] == "setter" for ref in func.decorators):
            place = f" around the assignment to {attr}"
        elif is_attribute(func):
            place = f" around the read of {attr}"
    unchecked = (
        " (an `assert`: under `python -O` it is not checked at all)"
        if g.site.kind == "assert"
        else ""
    )
    return (
        f"Catch {code(path)}{place} where the program must go on after it{unchecked}: "
        "errdex found no check the calling code can make beforehand that avoids it.",
        ["errorClass", *(["entryPoints"] if "the call to" in place else [])],
    )


def _own_entry(g: Gathered) -> FuncFacts | None:
    """The raising function, where it is itself an entry point a caller calls by name
    (``QueryParams()``, not ``URL()``, which passes it one argument only)."""
    func = g.func
    if func is None or (func.name.startswith("__") and func.name not in ("__init__", "__new__")):
        return None
    own = any(e["qualname"] == func.qualname and e.get("depth", 0) == 0 for e in g.entry_points)
    return func if own and not run_by_syntax(func.qualname) else None
