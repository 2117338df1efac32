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

import re

from .catch_own import attribute_place, in_main_block, own_entry, own_place
from .facts import FuncFacts
from .gathered import Gathered
from .guards import code, has_private

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
    if path is None or in_main_block(g):
        return None  # an import never runs a ``__main__`` block
    if g.site.kind == "assert" and g.site.function is None:
        return None  # the module checks its own tables as it loads: nothing of the caller's
    own = own_entry(g)
    if own is not None:  # the raising call itself: an outer one may never pass what fires
        place, func = own_place(g, *own), own[1]
    if not place.startswith(_PLACES):
        return None  # "the use of `Handle.__getstate__`" names no code the caller wrote
    if place.startswith(" around the import of") and has_private(g.site.module):
        return None  # a private module is imported by its package, not by calling code
    if func is not None and "the call to" in place:
        place = attribute_place(func) or place
    unchecked = (
        " (an `assert`: under `python -O` it is not checked at all)"
        if g.site.kind == "assert"
        else ""
    )
    return (
        f"Catch {code(path)}{place} where the program must go on after it{unchecked}.",
        ["errorClass", *(["entryPoints"] if _NAMED_CALL.search(place) else [])],
    )


#: Places a caller wrote: a call, its result's iteration or ``await``, the module's import.
_PLACES = (
    " around the call to",
    " around the import of",
    " around the code that iterates the result of",
    " around the `async for` over the result of",
    " around the `await` of",
)
_NAMED_CALL = re.compile(r"the call to|the result of|the `await` of")
