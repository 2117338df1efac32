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

from .gathered import Gathered, short_name
from .guards import code
from .special_words import article

__all__ = ["UNKNOWN_WAY", "unknown_way"]

#: What is said where no public call errdex resolved reaches the raise.
UNKNOWN_WAY = (
    "Which public call leads here is not known: no chain of calls errdex resolved starts at "
    "a public function."
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
    return handed_way(g) or ended_way(g) or made_way(g) or UNKNOWN_WAY


def handed_way(g: Gathered) -> str | None:
    """Where a public function returns a nested one that reaches the raise
    (``evidence.handedOut``: ``validator`` returns ``lint_app``): calling what it
    returns. "Not known … no public function" was false of it (session 39)."""
    pairs = []
    for entry in g.handed_out:
        inner = str(entry.get("handsOut") or "").rpartition(".")[2]
        said = f"the function {code(short_name(entry['qualname']) + '()')} returns"
        said += f" ({code(inner)})" if inner else ""
        if said not in pairs:
            pairs.append(said)
    if not pairs:
        return None
    return f"It comes from calling {' or '.join(pairs[:2])}."


def ended_way(g: Gathered) -> str | None:
    """Where every chain up from the raise ends at an object's ``__del__`` or at a
    module run as a program (:func:`.way_ends.way_end`)."""
    end = g.way_end
    if end is None:
        return None
    names = list(dict.fromkeys(short_name(q.rpartition(".")[0]) for q in end.functions))[:2]
    if end.kind == "del":
        classes = " or ".join(code(n) for n in names)
        dels = ", ".join(code(f"{n}.__del__") for n in names)
        return (
            f"It is raised when {article(names[0])} {classes} object is garbage-collected "
            f'({dels}): Python prints it as "Exception ignored in" and no caller sees it.'
        )
    runs = " or ".join(code(short_name(q) + "()") for q in end.functions[:2])
    return (
        f"It comes from running the module {code(end.module)} as a program "
        f'(`python -m {end.module}`): its `if __name__ == "__main__":` block calls {runs}.'
    )


def made_way(g: Gathered) -> str | None:
    """Where a public call returns a new instance of a class whose method reaches the
    raise (:mod:`.made_ways`: ``ArgumentParser.add_mutually_exclusive_group()`` returns
    a ``_MutuallyExclusiveGroup``): that method, on what the call returns."""
    made = g.made_way
    if made is None:
        return None
    name = short_name(made.method)
    doing = f"reading {code(name)} of" if made.read else f"calling {code(name + '()')} on"
    cls = short_name(made.made)
    return f"It comes from {doing} the {code(cls)} object that {code(made.call)} returns."


def twin_runs(g: Gathered) -> bool:
    """Whether this interpreter has the C module that replaces the raising definition
    (:class:`.twins.ShadowFact` of kind ``replaced``): no call reaches its lines here."""
    shadow = g.shadow
    return shadow is not None and shadow.kind == "replaced" and shadow.present and not shadow.guard
