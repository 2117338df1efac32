"""What the call graph does not see, for linking tests (:mod:`.tests_evidence`).

A site's function may be reached from code the graph does not link: a private function
nothing in the repository calls (a callback of C code, a ``getattr`` dispatch, a table),
or it may hand work on where the graph cannot follow (``setattr`` into a
``__setattr__``, ``super().setstate()`` into a C base). The linker asks both, once per
function, to weigh a fit it reached against one it did not.
"""

from __future__ import annotations

from .callgraph import CallGraph
from .repo import RepoIndex

__all__ = ["UnseenCalls"]

#: Calls that run code the call graph does not link: a class's ``__setattr__`` and
#: ``__delattr__`` hooks (``getattr`` is left out: it raises ``AttributeError`` itself,
#: which the test expects as often as the site's own).
_DISPATCH = frozenset({("setattr",), ("delattr",)})


class UnseenCalls:
    """Per function, memoised: whether it is called unseen, whether it hands on."""

    def __init__(self, index: RepoIndex, graph: CallGraph) -> None:
        self.index = index
        self.graph = graph
        self._hidden: dict[str, bool] = {}
        self._handing: dict[str, bool] = {}
        self._roots: dict[str, bool] = {}

    def hands_on(self, function: str | None) -> bool:
        """Whether ``function`` calls ``setattr``/``getattr``/``delattr`` or a ``super()``
        method no repository base defines (once per function: each candidates set of a
        class asks again for every function of its sites)."""
        found = self._handing.get(function or "")
        if found is None:
            found = self._handing[function or ""] = self._hands_on_now(function)
        return found

    def _hands_on_now(self, function: str | None) -> bool:
        func = self.index.function(function or "")
        if func is None:
            return False
        for ref in func.calls:
            if ref in _DISPATCH:
                return True
            bases = self.index.bases(func.cls) if ref[0] == "super()" and func.cls else ()
            if bases and not any(self.index.method(b, ref[-1]) for b in bases):
                return True
        return False

    def called_unseen(self, function: str) -> bool:
        """Whether ``function`` is reached from a private function nothing in the
        repository calls (a callback of C code, a ``getattr`` dispatch, a table), along
        callers of its own package: a name-only edge from elsewhere (asyncio's
        ``fut.done()`` to graphlib's ``done``) is no caller of it."""
        found = self._hidden.get(function)
        if found is None:
            package = function.split(".")[0]
            found = False
            for caller, reach in self.graph.reach(function).items():
                if self._unseen_root(caller) and all(f.split(".")[0] == package for f in reach.via):
                    found = True
                    break
            self._hidden[function] = found
        return found

    def _unseen_root(self, caller: str) -> bool:
        """Whether ``caller`` is a private library function nothing in the repository
        calls (once per caller: every site's reach holds most callers again)."""
        found = self._roots.get(caller)
        if found is None:
            found = False
            if not self.graph.callers.get(caller) and _private(caller):
                facts = self.index.function(caller)
                found = facts is not None and not facts.is_test
            self._roots[caller] = found
        return found


def _private(qualname: str) -> bool:
    """``re._compile_template``, ``Cls._handle``: a leading underscore, no dunder."""
    name = qualname.rpartition(".")[2]
    return name.startswith("_") and not name.endswith("__")
