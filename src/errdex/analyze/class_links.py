"""What a raising method's class tree says about who calls it and who supplies it, for
fixes where errdex said "found no fix" (issue 10, stop-38 blind review):

- the public interface method it implements: ``_UnixWritePipeTransport.write`` is what
  ``transport.write(data)`` runs, though the class is private; callers write the
  interface's name (``asyncio.transports.WriteTransport.write``);
- the repository's subclasses that supply a private hook by binding its name in the class
  body rather than by ``def`` (``encodings.utf_8.IncrementalDecoder``'s
  ``_buffer_decode = codecs.utf_8_decode`` for ``codecs.BufferedIncrementalDecoder``).
"""

from __future__ import annotations

from typing import NamedTuple

from .classes import ClassTree
from .facts import ClassFacts, FuncFacts
from .guards import has_private
from .repo import RepoIndex

__all__ = ["ClassLinks", "class_links", "hook_bindings"]

#: Classes walked above a method's own, at most (a cycle or a deep tree stops there).
_WALKED = 64
#: Subclasses named, at most.
_NAMED = 3


class ClassLinks(NamedTuple):
    """The nearest public base method a method overrides, and the subclasses that bind
    its name by assignment."""

    interface: str | None
    assigners: tuple[str, ...]


def class_links(index: RepoIndex, tree: ClassTree, func: FuncFacts | None) -> ClassLinks | None:
    """For a method with a name of its own (not a special method), None elsewhere."""
    if func is None or func.cls is None or func.name.startswith("__"):
        return None
    interface = _public_base_method(index, func) if not func.name.startswith("_") else None
    assigners = _assigners(index, tree, func) if func.name.startswith("_") else ()
    return ClassLinks(interface, assigners) if interface or assigners else None


def _public_base_method(index: RepoIndex, func: FuncFacts) -> str | None:
    """The nearest base class method of the same name on a public class, breadth first."""
    assert func.cls is not None
    seen: set[str] = {func.cls}
    queue = list(index.bases(func.cls))
    while queue and len(seen) < _WALKED:
        base = queue.pop(0)
        if base in seen:
            continue
        seen.add(base)
        qual = f"{base}.{func.name}"
        if qual in index.functions and not has_private(base):
            return qual
        queue.extend(index.bases(base))
    return None


def hook_bindings(cls: ClassFacts) -> frozenset[str]:
    """The names a class body binds that :func:`_assigners` reads (private, not mangled):
    a record names the class for them, so a re-scan must see them come and go
    (:func:`.deps.interface`, :mod:`.local_change`), though the class's header stays."""
    return frozenset(n for n in cls.assigned if n.startswith("_") and not n.startswith("__"))


def _assigners(index: RepoIndex, tree: ClassTree, func: FuncFacts) -> tuple[str, ...]:
    """Public subclasses of ``func``'s class whose body binds ``func``'s name (``_x =
    other_function``): they supply the hook without a ``def`` of it."""
    assert func.cls is not None
    found = sorted(
        c.qualname
        for c in index.classes.values()
        if func.name in hook_bindings(c)
        and c.qualname != func.cls
        and not c.is_test
        and not has_private(c.qualname)
        and "<locals>" not in c.qualname
        and func.cls in tree.ancestors(c.qualname)
    )
    return tuple(found[:_NAMED])
