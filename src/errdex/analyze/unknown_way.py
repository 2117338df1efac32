"""commonSituations where no public call errdex resolved reaches the raise: that the way
in is not known, and why it may be, never where it is raised.

"It is raised inside `datetime._check_date_fields`." restated the location the record
already gives, most often a private name (``pickle._Unpickler.load``,
``importlib._bootstrap…``): the paired blind review of stop 37 judged it misleading 13
times, the largest share of its family ("restates the location; no situation"). What is
true is that the way in is not known: the raise may still be reached through what the
call graph does not follow, a callback (``XMLParser._default``, set as expat's handler),
a table of methods (``optparse.Option.CHECK_METHODS``), or C code that runs in the
module's place and raises alike (``_datetime`` for ``datetime.py``). Saying so without
"no public call reaches it" (read as "unreachable": stop 35) is all the record claims.
"""

from __future__ import annotations

from .gathered import Gathered
from .guards import code

__all__ = ["UNKNOWN_WAY", "unknown_way"]

#: What is said where no public call errdex resolved reaches the raise.
UNKNOWN_WAY = (
    "Which public call leads here is not known: no chain of calls errdex resolved starts at "
    "a public function (calls through a callback, a table of methods or a name looked up "
    "at run time are not followed, nor C code that runs in the module's place)."
)


def unknown_way(g: Gathered, own: str | None) -> str:
    """:data:`UNKNOWN_WAY`; at a module's top level, importing the module, which is the
    way (``asyncio.unix_events`` on Windows). Where this interpreter runs a C twin in
    place of the raising function (:func:`twin_runs`) and its name is public (``own``,
    how a caller runs it: "a call of `date.fromisoformat()`"), that call, only where the
    C module is missing: "not known" was false of ``operator.length_hint`` itself."""
    if not g.site.function:
        return f"It is raised while the module {code(g.site.module)} is imported."
    if own is not None and g.shadow is not None and twin_runs(g):
        module = code(g.shadow.module)
        return (
            f"It comes from {own} only where {module} cannot be imported: this "
            f"interpreter imports {module}, whose code runs instead."
        )
    return UNKNOWN_WAY


def twin_runs(g: Gathered) -> bool:
    """Whether this interpreter has the C module that replaces the raising definition
    (:class:`.twins.ShadowFact` of kind ``replaced``): no call reaches its lines here."""
    shadow = g.shadow
    return shadow is not None and shadow.kind == "replaced" and shadow.present and not shadow.guard
