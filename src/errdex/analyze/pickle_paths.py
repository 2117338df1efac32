"""Which of ``pickle.dumps``, ``copy.copy`` and ``copy.deepcopy`` really run a class's
pickling or copying special method.

A ``__getstate__`` that raises does not stop pickling when the class defines
``__reduce__`` (``pickle`` calls that instead), nor ``copy.copy`` when it defines
``__copy__``: "cannot be pickled or copied" was false of both (read-only review, session
38; checked by running ``pickle.dumps``, ``copy.copy`` and ``copy.deepcopy`` on each).
The protocol, as CPython 3.11 runs it: ``pickle.dumps`` calls ``__reduce_ex__``;
``object.__reduce_ex__`` calls ``__reduce__`` when the class overrides it, else
``object.__reduce__``'s path, which calls ``__getstate__``; ``copy.copy`` calls
``__copy__`` when the class has one, else ``__reduce_ex__``; ``copy.deepcopy`` likewise
with ``__deepcopy__``. A base outside the repository is read by importing it only where
it is built into the interpreter or is ``builtins``; any other makes the answer unknown.
"""

from __future__ import annotations

import builtins
import importlib

from .ancestors import lineage
from .repo import RepoIndex
from .shadows import interpreter_module

__all__ = ["COPY", "DEEPCOPY", "PICKLE", "PICKLING_METHODS", "run_by", "ways_in"]

PICKLE, COPY, DEEPCOPY = "pickle", "copy", "deepcopy"
PICKLING_METHODS = frozenset(
    {"__reduce_ex__", "__reduce__", "__getstate__", "__copy__", "__deepcopy__"}
)


def _external(dotted: str) -> type | None:
    """A base class outside the repository, where it can be read safely."""
    module, _, name = dotted.rpartition(".")
    if module == "builtins":
        found = getattr(builtins, name, None)
    elif interpreter_module(module):
        try:
            found = getattr(importlib.import_module(module), name, None)
        except ImportError:
            return None
    else:
        return None
    return found if isinstance(found, type) else None


def _defines(index: RepoIndex, cls: str, name: str) -> bool | None:
    """Whether ``cls`` or a base defines ``name`` over ``object``'s; None: not known."""
    if index.method(cls, name) is not None:
        return True
    for base in lineage(index, cls):
        if base in index.classes:
            if name in index.classes[base].assigned:
                return None  # bound by assignment (``__copy__ = None``): not read here
            continue
        found = _external(base)
        if found is None:
            return None
        if getattr(found, name, None) is not getattr(object, name, None):
            return True
    return False


def run_by(index: RepoIndex, cls: str, method: str) -> frozenset[str] | None:
    """Which of :data:`PICKLE`, :data:`COPY`, :data:`DEEPCOPY` call ``cls``'s ``method``
    (``__reduce_ex__``, ``__reduce__``, ``__getstate__``, ``__copy__``,
    ``__deepcopy__``) on an object of ``cls``; None where a base is not known."""
    if method == "__copy__":
        return frozenset({COPY})
    if method == "__deepcopy__":
        return frozenset({DEEPCOPY})
    before = {"__reduce_ex__": (), "__reduce__": ("__reduce_ex__",)}.get(
        method, ("__reduce_ex__", "__reduce__")
    )
    for earlier in before:  # what pickle reaches first, when the class overrides it
        defined = _defines(index, cls, earlier)
        if defined is None:
            return None
        if defined:
            return frozenset()
    ops = {PICKLE}
    for op, own in ((COPY, "__copy__"), (DEEPCOPY, "__deepcopy__")):
        defined = _defines(index, cls, own)
        if defined is None:
            return None
        if not defined:
            ops.add(op)
    return frozenset(ops)


_DOING = {PICKLE: "pickling", COPY: "copying", DEEPCOPY: "deep-copying"}


def ways_in(ops: frozenset[str]) -> str | None:
    """How a caller runs the method, in words ("pickling or deep-copying `x`"); None
    where nothing does (a ``__getstate__`` under the class's own ``__reduce__``)."""
    order = [op for op in (PICKLE, COPY, DEEPCOPY) if op in ops]
    if COPY in ops and DEEPCOPY in ops:
        order.remove(DEEPCOPY)
    return " or ".join(_DOING[op] for op in order) + " `x`" if order else None
