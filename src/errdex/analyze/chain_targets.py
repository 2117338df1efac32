"""Where each call lands for the chains (:class:`~errdex.analyze.chains.Chains`), kept by
file from one scan to the next.

Resolving every call of the repository to its exact targets is the chains' one pass
over the whole repository (0.4 s on jax). An incremental scan whose changes stay local
(:mod:`errdex.analyze.deps`, as for the call graph's edges: no name a changed file offers,
adds or drops is used elsewhere) resolves only the changed files' calls again: an
unchanged file's calls land where they did, since what they resolve through is
unchanged. The chains also send ``self.m()`` to the overrides of ``m`` in subclasses and
a call through ``os.path`` to each platform's module: those read the whole repository's
classes and bindings, so the last scan's targets are used only when the subclasses, their
methods and the per-platform bindings are what they were (:func:`context`).
"""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from .callsites import CallSite
from .facts import FuncFacts
from .repo import Carried, RepoIndex

__all__ = ["CONTEXT", "CarriedTargets", "TargetTables", "Targets", "context"]

#: A call's targets: (function, the platform it goes there on, or None).
Targets = list[tuple[str, str | None]]
#: File path -> (function, line) -> each call site's targets in order; and under
#: :data:`CONTEXT` what they were resolved in.
TargetTables = dict[str, Any]
#: The key of the context (no path begins with a NUL).
CONTEXT = "\x00context"


def context(
    index: RepoIndex, subclasses: dict[str, list[str]], bound: dict[str, Any]
) -> tuple[Any, ...]:
    """What the targets read beyond the calling file: the subclasses of each class, the
    methods those define, and the per-platform bindings."""
    below = {sub for subs in subclasses.values() for sub in subs}
    methods: dict[str, list[str]] = {}
    for qualname in index.functions:
        cls, _, name = qualname.rpartition(".")
        if cls in below:
            methods.setdefault(cls, []).append(name)
    return subclasses, {cls: sorted(names) for cls, names in methods.items()}, bound


class CarriedTargets:
    """Each function's call targets: the last scan's for an unchanged file when
    ``carried`` allows and the context is the same, else resolved; this scan's are left
    in ``carried.targets``."""

    def __init__(self, carried: Carried | None, now_context: tuple[Any, ...]) -> None:
        self.last: TargetTables | None = None
        self.changed: frozenset[str] = frozenset()
        if (
            carried is not None
            and carried.changed is not None
            and carried.last_targets is not None
            and carried.last_targets.get(CONTEXT) == now_context
        ):
            self.last, self.changed = carried.last_targets, carried.changed
        self.now: TargetTables = {CONTEXT: now_context}
        if carried is not None:
            carried.targets = self.now

    def of(self, func: FuncFacts, resolve: Callable[[CallSite], Targets]) -> tuple[Targets, ...]:
        """The targets of each of ``func``'s call sites, in order."""
        key = (func.qualname, func.line)
        found: tuple[Targets, ...] | None = None
        if self.last is not None and func.path not in self.changed:
            found = self.last.get(func.path, {}).get(key)
        if found is None or len(found) != len(func.call_sites):
            found = tuple(resolve(site) for site in func.call_sites)
        self.now.setdefault(func.path, {})[key] = found
        return found
