"""Entry points above a module's own plumbing: where every nearest public function that
reaches a raise is one its module keeps for itself, the nearest public calls further up
the same resolved chains; where only some are, the others alone.

Paired blind review of stop 37: "It comes from a call of `nameprep()` or `ToASCII()`"
(``encodings.idna``), "`FTP.makepasv()` or `FTP.ntransfercmd()`" were judged misleading:
helpers the module calls itself, where users reach the raise through a call higher up
(``FTP.retrlines``, ``str.encode('idna')``). A public-named function is the module's own
when the module says so: its docstring opens with "Internal" (``FTP.makepasv``, ``FieldStorage.read_multi``), or it is
a module-level helper of a codec module (one defining ``getregentry``, which
:mod:`codecs` looks up by name), called only from that module. Being called only from
its own module is no sign by itself: ``FTP.sendcmd`` is, and users call it. Constructors
and special methods never are. Nothing is invented: the calls above come from the same
walk (:func:`.entrypoints.entry_points`), with those helpers counted as steps. A caller
that converts the class (``surfacesAs``) is no way in for it: plumbing is dropped only
where a caller that lets the class out is left.
"""

from __future__ import annotations

import re
from collections.abc import Callable, Sequence
from typing import Any

from errdex.evidence import EntryPoint

from .chains import Chains
from .entrypoints import PublicApi, entry_points
from .repo import RepoIndex

__all__ = ["ModuleOwn", "outer_entry_points"]


class ModuleOwn:
    """Decides, once per function, whether it is plumbing of its own module."""

    def __init__(self, index: RepoIndex, chains: Chains, api: PublicApi) -> None:
        self.index = index
        self.chains = chains
        self.api = api
        self._memo: dict[str, bool] = {}
        self._above: _Above | None = None

    @property
    def above(self) -> PublicApi:
        """The public API with this module plumbing left out (built once: its own
        memo and the classes functions return are filled as it is asked)."""
        if self._above is None:
            self._above = _Above(self.api, self)
        return self._above

    def __call__(self, qualname: str) -> bool:
        found = self._memo.get(qualname)
        if found is None:
            found = self._memo[qualname] = self._decide(qualname)
        return found

    def _decide(self, qualname: str) -> bool:
        func = self.index.function(qualname)
        if func is None or func.name.startswith("__"):
            return False  # a constructor is built by users too; a special method is syntax
        if _INTERNAL.match(func.docstring or ""):
            return True
        # ``__all__`` is no sign, with a docstring or without: pydoc lists only ``help``,
        # yet documents ``render_doc``; tarfile's 3.11 ``__all__`` leaves out its
        # documented ``data_filter``, which has no docstring (test_platform_binds)
        module = self.index.modules.get(func.module)
        if func.cls is not None or module is None or "getregentry" not in module.top:
            return False
        callers = [c for c, _ in self.chains.callers.get(qualname, ()) if not c.is_test]
        return bool(callers) and all(c.module == func.module for c in callers)


#: A docstring that says the function is the module's own.
_INTERNAL = re.compile(r"\s*(?:internal\b|for internal use)", re.IGNORECASE)


class _Above(PublicApi):
    """:class:`.PublicApi` for which a module's own plumbing is no way in."""

    def __init__(self, api: PublicApi, own: Callable[[str], bool]) -> None:
        vars(self).update(vars(api))
        self._memo = {}
        self._own = own

    def is_public(self, qualname: str) -> bool:
        return not self._own(qualname) and super().is_public(qualname)


def outer_entry_points(
    index: RepoIndex,
    chains: Chains,
    own: ModuleOwn,
    function: str,
    found: Sequence[EntryPoint],
    how: dict[str, Any],
) -> list[EntryPoint] | None:
    """``found`` without the module plumbing among it; where all of it is plumbing, the
    nearest public calls above it that are not, when the walk finds any. None where
    ``found`` stands as it is."""
    kept = [e for e in found if not own(e["qualname"])]
    if len(kept) == len(found):
        return None
    if any(_lets_out(e) for e in kept):  # as near as they were: the walk above adds nothing
        return kept
    above = entry_points(index, chains, own.above, function, **how)
    # a caller that raises another class or exits in its place (``surfacesAs``: pydoc's
    # ``cli``, which prints the ImportError and calls ``sys.exit``) is no way in for the
    # record's class: never the only one named where the plumbing was precise
    return above if any(_lets_out(e) for e in above) else None


def _lets_out(entry: EntryPoint) -> bool:
    """Whether the class leaves ``entry`` as it was raised, not converted."""
    return not entry.get("surfacesAs")
