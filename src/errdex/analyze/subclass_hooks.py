"""A private abstract hook of a public base class that no public class of the repository
defines with a ``def``: ``codecs.BufferedIncrementalEncoder._buffer_encode``, called by
its ``encode()``. errdex said "found no fix" there, and the stop-38 blind review named
the fix: "override ``_buffer_encode(input, errors, final)`` in the subclass". The hook's
name is private, but it is what a subclass author writes, so it is said here, with the
signature the base gives it and the public method of the base that calls it. Subclasses
that supply it by binding the name in their body (``_buffer_decode =
codecs.utf_8_decode``, :mod:`.class_links`) are named as the repository's own way.
"""

from __future__ import annotations

import re

from .facts import CallRef
from .gathered import Gathered, class_phrase, short_name
from .guards import code, has_private
from .param_requirement import call_name

__all__ = ["subclass_hook_solution"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_DEF = re.compile(r"^(?:async\s+)?def\s+")
#: Decorators that change how the hook is written, and the one it is written with (the
#: ``abc`` forms of them are written with the plain one under ``@abstractmethod``).
_DECORATED = {
    "staticmethod": "staticmethod",
    "classmethod": "classmethod",
    "property": "property",
    "abstractstaticmethod": "staticmethod",
    "abstractclassmethod": "classmethod",
    "abstractproperty": "property",
}


def subclass_hook_solution(g: Gathered) -> Remedy | None:
    """For an abstract method with a private name on a public class that one of the
    class's own public methods calls: define it in the subclass; None elsewhere, and for
    a name Python mangles (``__step`` is ``_Base__step`` to the base: a subclass's
    ``__step`` is another name)."""
    role, func = g.role, g.func
    if role is None or role.kind != "abstract" or func is None or func.cls is None:
        return None
    if has_private(role.subject) or role.subject != func.cls:
        return None  # a private base: nobody subclasses it by name
    if not func.name.startswith("_") or func.name.startswith("__"):
        return None  # public (the role's own text), mangled, or special
    callers = _own_callers(g)
    signature = _DEF.sub("", func.signature.strip()).rstrip(":").strip()
    kind = _kind(func.decorators)
    if not callers or not signature.startswith(f"{func.name}(") or kind is None:
        return None
    base = short_name(func.cls)
    called = " and ".join(code(c) for c in callers)
    written = code(f"async def {signature}" if func.is_async else signature)
    text = f"Define {written}{kind} in your subclass of {code(base)}"
    if role.abc_from is not None:  # the base, and a subclass without it, are never made
        text += (
            f", without calling the base's: {called} "
            f"{'calls' if len(callers) == 1 else 'call'} it, and {code(base)}'s own "
            f"{code(func.name)} raises {class_phrase(g)} with no condition. It is an "
            f"`@abstractmethod`, so a class that does not define {code(func.name)} cannot be "
            f"instantiated: the raise is reached only from an override that calls it "
            f"(`super().{func.name}(...)`) or a direct call of {code(f'{base}.{func.name}')}."
        )
    else:
        text += (
            f": {called} {'calls' if len(callers) == 1 else 'call'} it, and {code(base)}'s "
            f"own {code(func.name)} raises {class_phrase(g)} with no condition, so an object "
            f"of {code(base)} itself, or of a subclass that does not define it, fails there."
        )
    assigners = g.links.assigners if g.links is not None else ()
    if assigners:
        listed = ", ".join(code(c) for c in assigners)
        text += (
            f" The repository's own subclasses ({listed}) assign {code(func.name)} in the "
            f"class body ({code(f'{func.name} = …')}) instead of a `def`."
        )
    return text, ["site.role", "entryPoints", "function.signature"]


def _kind(decorators: list[CallRef]) -> str | None:
    """How the definition is written beside its signature (" as a `@staticmethod`"),
    "" for a plain method; None for a decorator whose effect is not known here."""
    kinds = set()
    for ref in decorators:
        name = ref[-1] if ref else ""
        if name == "abstractmethod":
            continue
        found = _DECORATED.get(name)
        if found is None:
            return None
        kinds.add(found)
    if len(kinds) > 1:
        return None
    return f" as a `@{kinds.pop()}`" if kinds else ""


def _own_callers(g: Gathered) -> list[str]:
    """The base's own public methods that call the hook directly, as callers write them."""
    func = g.func
    assert func is not None and func.cls is not None
    out: list[str] = []
    for entry in g.entry_points:
        owner, _, name = entry["qualname"].rpartition(".")
        if entry.get("depth") != 1 or owner != func.cls or name.startswith("_"):
            continue
        facts = g.entry_funcs.get(entry["qualname"])
        said = call_name(entry["qualname"], facts) if facts else f"{short_name(owner)}.{name}()"
        if said not in out:
            out.append(said)
    return out[:2]
