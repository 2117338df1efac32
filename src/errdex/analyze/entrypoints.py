"""Public entry points: the functions a user can call that reach a raising function.

Public means exported by the package (listed in a module's ``__all__`` or re-exported by
a package ``__init__``) or named without a leading underscore all the way down
(module path, class and function); tests and nested functions never are.
"""

from __future__ import annotations

from errdex.evidence import EntryPoint

from .callgraph import CallGraph
from .repo import RepoIndex

__all__ = ["MAX_ENTRY_POINTS", "PublicApi", "entry_points"]

#: Entry points kept per raising function, closest first.
MAX_ENTRY_POINTS = 8


class PublicApi:
    """Decides, once per function, whether users can call it."""

    def __init__(self, index: RepoIndex) -> None:
        self.index = index
        self._exported = self._collect_exports()
        self._memo: dict[str, bool] = {}

    def _collect_exports(self) -> set[str]:
        """Definitions named by an ``__all__`` or reachable from a package's namespace."""
        out: set[str] = set()
        index = self.index
        for facts in index.modules.values():
            if facts.is_test:
                continue
            if facts.all_names is not None:
                for name in facts.all_names:
                    target = index.resolve(facts.name, (name,))
                    if target is not None and target.kind != "module":
                        out.add(target.qualname)
            if facts.is_package and not _private_path(facts.name):
                names = [n for n in facts.imports if not n.startswith("_")]
                for name in names:
                    target = index.resolve(facts.name, (name,))
                    if target is not None and target.kind != "module":
                        out.add(target.qualname)
        return out

    def is_public(self, qualname: str) -> bool:
        found = self._memo.get(qualname)
        if found is None:
            found = self._decide(qualname)
            self._memo[qualname] = found
        return found

    def _decide(self, qualname: str) -> bool:
        func = self.index.function(qualname)
        if func is None or func.is_test or func.parent is not None or "<locals>" in qualname:
            return False
        if _private_name(func.name):
            return False
        if func.cls is not None:
            cls = self.index.classes.get(func.cls)
            if cls is None or cls.name.startswith("_"):
                return False
            return func.cls in self._exported or not _private_path(cls.module)
        return qualname in self._exported or not _private_path(func.module)


def _private_name(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def _private_path(module: str) -> bool:
    return any(p.startswith("_") and p not in ("__init__", "__main__") for p in module.split("."))


def entry_points(
    index: RepoIndex, graph: CallGraph, api: PublicApi, function: str
) -> list[EntryPoint]:
    """Public functions reaching ``function``, closest and most precise first."""
    found = []
    for qualname, reach in graph.reach(function).items():
        if not api.is_public(qualname):
            continue
        func = index.function(qualname)
        if func is None:
            continue
        found.append((reach.depth, reach.precision != "exact", qualname, func, reach))
    found.sort(key=lambda t: (t[0], t[1], t[2]))
    return [
        EntryPoint(
            qualname=qualname,
            path=func.path,
            line=func.line,
            depth=reach.depth,
            via=list(reach.via),
            precision=reach.precision,
        )
        for _, _, qualname, func, reach in found[:MAX_ENTRY_POINTS]
    ]
