"""Which function a Python line's calls reach, for Cython's frameless argument errors.

A site of Cython's generated argument parsing (:mod:`errdex.extract.cython.arguments`)
raises before its function prints a frame, so under a Python innermost line it is the
function that line calls. A name reaches a function of its own name; a class called
(``XMLParser(bogus=1)``: a capitalised name, as :func:`errdex.match.rank_frames.credit_callees`
reads it) reaches its construction (``__init__``, ``__cinit__``); any call may be a call
of an instance (``__call__``). A site is ruled out only when every name the line calls is
known not to reach it: a name that no catalogued function of the competing sites' files
bears may be an alias (``f = etree.XML``), and ``map(XML, items)`` calls what it is given.
"""

from __future__ import annotations

import builtins
from collections.abc import Iterable, Set

from errdex.match.index import MatchIndex

__all__ = ["Reach", "known_functions", "reach"]

#: Construction of a ``cdef class`` (``__cinit__``) or a Python class.
_CONSTRUCTORS = frozenset({"__init__", "__cinit__", "__new__", "__post_init__"})
#: Builtins that call a function they are handed (``map(XML, items)``, ``sorted(key=f)``).
_CALLING_BUILTINS = frozenset({"map", "filter", "sorted", "min", "max", "iter", "reversed"})
#: Builtins that call nothing a paste's Cython module defines.
_PLAIN_BUILTINS = frozenset(n for n in dir(builtins) if not n.startswith("_")) - _CALLING_BUILTINS


class Reach:
    """What a line's calls say of one site's function."""

    CALLED = "called"  # the line calls it
    NOT_CALLED = "not called"  # every name called is known, and none reaches it
    UNKNOWN = "unknown"  # a name called may reach it (an alias, a function handed on)


def known_functions(index: MatchIndex, sites: Iterable[int]) -> frozenset[str]:
    """The functions catalogued in the files of ``sites``: names a line may call that are
    known (a call of one reaches it, nothing else)."""
    paths = {index.entry(i).file_path for i in sites}
    return frozenset(
        f for p in paths for j in index.file_entries(p) if (f := index.entry(j).function)
    )


def reach(function: str, calls: Iterable[str], known: Set[str]) -> str:
    """Whether the line's ``calls`` reach ``function`` (see the module's doc)."""
    calls = tuple(calls)
    if function in calls or (
        function in _CONSTRUCTORS and any(name[:1].isupper() for name in calls)
    ):
        return Reach.CALLED
    if function == "__call__":
        return Reach.UNKNOWN  # the instance is called by whatever name holds it
    if all(n in known or n in _PLAIN_BUILTINS or n[:1].isupper() for n in calls):
        return Reach.NOT_CALLED
    return Reach.UNKNOWN
