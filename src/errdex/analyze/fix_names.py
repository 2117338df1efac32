"""The class a fix may name: the raising method's class as users write it.

"make a new `_BufferedIOMixin`" and "Call `_RLock.release()`" named classes users never
make (read-only review, session 38): a private class (or one in a private class) is not
named, nor one a C twin replaces where this code runs (:mod:`.twins`), whose behaviour
is not this code's.
"""

from __future__ import annotations

from .gathered import Gathered, short_name

__all__ = ["public_class"]


def public_class(g: Gathered) -> str | None:
    """The raising method's class as a fix names it, or None where it is not to be named."""
    func = g.func
    if func is None or func.cls is None:
        return None
    if g.shadow is not None and g.shadow.present:
        return None  # a C twin runs instead
    cls = short_name(func.cls)
    if any(part.startswith("_") for part in cls.split(".")):
        return None
    return cls
