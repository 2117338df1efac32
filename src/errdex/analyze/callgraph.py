"""The repository's own call graph: name-based, resolved through imports, walked to a bounded depth.

Edges are ``exact`` when the callee was resolved through the caller's imports and
definitions (``nx.foo()``, ``helper()``, ``self.method()``), and ``name`` when they
rest on a name alone: a method called on a receiver of unknown type
(``G.add_edge()`` -> every ``add_edge`` method), a decorator wrapping a function,
or a function reaching the functions nested in it. A chain is as precise as its
least precise edge.

A file's edges (its functions as callers) are kept by file (:data:`EdgeTables`), so a
re-scan whose changes stay local (:mod:`errdex.analyze.deps`: no name a changed file
offers, adds or drops is used elsewhere) resolves only the changed files' calls again:
an unchanged file's calls then land where they did, since what they resolve through
(definitions, imports, bases, method names) is unchanged.
"""

from __future__ import annotations

from collections import Counter
from collections.abc import Mapping
from dataclasses import dataclass, field
from typing import NamedTuple

from .bound_names import bound_target
from .facts import CallRef, FuncFacts, ModuleFacts
from .repo import RepoIndex, Target

__all__ = [
    "MAX_DEPTH",
    "CallGraph",
    "EdgeTables",
    "Reach",
    "ReachCounts",
    "build_callgraph",
    "exact_targets",
]

#: Calls between an entry point and the raising function, at most.
MAX_DEPTH = 4
#: Functions visited by one reverse walk, at most (the walk is breadth-first: closest first).
MAX_VISITED = 3000
#: A method name shared by more definitions than this says too little to follow.
MAX_NAME_FANOUT = 12

#: Methods of builtin containers: ``x.get()`` on an unknown receiver is almost never ours.
_CONTAINER_METHODS = frozenset(
    name
    for t in (dict, list, set, str, bytes, tuple, frozenset)
    for name in dir(t)
    if not name.startswith("_")
)

Precision = str  # "exact" or "name"
#: A file's edges, by the path of the calling functions' file: path -> caller -> callee
#: -> precision.
EdgeTables = dict[str, dict[str, dict[str, Precision]]]


class Reach(NamedTuple):
    """A function that reaches the raising one: how far, through whom, how surely (a
    named tuple: a reverse walk makes hundreds of thousands on jax, and a frozen
    dataclass costs three times as much to make)."""

    depth: int
    via: tuple[str, ...]  # the chain from this function down to the raising one
    precision: Precision


@dataclass
class CallGraph:
    callers: dict[str, dict[str, Precision]] = field(default_factory=dict)
    _reach_memo: dict[str, dict[str, Reach]] = field(default_factory=dict)
    #: A function's callers in name order, sorted once: the reverse walks of every
    #: raising function pass through the same functions (jax: ~3,800 walks).
    _in_order: dict[str, list[tuple[str, Precision]]] = field(default_factory=dict)

    def add(self, caller: str, callee: str, precision: Precision) -> None:
        if caller == callee:
            return
        self._in_order.pop(callee, None)
        edges = self.callers.setdefault(callee, {})
        if edges.get(caller) != "exact":
            edges[caller] = precision

    def reach(self, function: str, max_depth: int = MAX_DEPTH) -> dict[str, Reach]:
        """Every function that reaches ``function`` in at most ``max_depth`` calls (itself at 0),
        breadth-first (callers in name order), stopping at :data:`MAX_VISITED`."""
        memo = self._reach_memo.get(function)
        if memo is not None:
            return memo
        make = tuple.__new__
        found: dict[str, Reach] = {function: make(Reach, (0, (function,), "exact"))}
        callers = self.callers
        in_order = self._in_order
        frontier = [function]
        depth = 0
        full = False
        while frontier and depth < max_depth and not full:
            depth += 1
            below: list[str] = []
            for current in frontier:
                edges = in_order.get(current)
                if edges is None:
                    edges = in_order[current] = sorted(callers.get(current, {}).items())
                if not edges:
                    continue
                here = found[current]
                via, exact = here.via, here.precision == "exact"
                for caller, edge in edges:
                    if caller in found:
                        continue
                    precision = "exact" if exact and edge == "exact" else "name"
                    found[caller] = make(Reach, (depth, (caller, *via), precision))
                    below.append(caller)
                    if len(found) >= MAX_VISITED:
                        full = True
                        break
                if full:
                    break
            frontier = below
        self._reach_memo[function] = found
        return found


class ReachCounts:
    """``[(caller, class)]``: how many sites of the class the functions ``caller`` reaches
    hold, from each raising function's sites by class (``in_function``). Counted per
    class by ``Counter``'s own loop over each walk's callers: a Counter keyed by every
    (caller, class) pair cost 0.35 s on jax (674k pairs), for a few thousand asked."""

    def __init__(self, graph: CallGraph, in_function: Mapping[tuple[str, str], int]) -> None:
        self._by_class: dict[str, Counter[str]] = {}
        for (function, cls_key), n in in_function.items():
            counts = self._by_class.setdefault(cls_key, Counter())
            callers = graph.reach(function).keys()
            if n == 1:
                counts.update(callers)  # an iterable, not a mapping: counted in C
            else:
                for caller in callers:
                    counts[caller] += n

    def __getitem__(self, key: tuple[str, str]) -> int:
        caller, cls_key = key
        counts = self._by_class.get(cls_key)
        return 0 if counts is None else counts[caller]


def _callee_targets(index: RepoIndex, func: FuncFacts, ref: CallRef) -> list[tuple[str, Precision]]:
    """The repository functions a call in ``func`` may land in."""
    head = ref[0]
    if head == "" or head == "super()":
        name = ref[-1]
        if head == "super()" and func.cls is not None:
            for base in index.bases(func.cls):
                method = index.method(base, name)
                if method is not None:
                    return [(method, "exact")]
        return _by_name(index, name)
    if head in ("self", "cls") and len(ref) == 2 and func.cls is not None:
        method = index.method(func.cls, ref[1])
        if method is not None:
            return [(method, "exact")]
        return _by_name(index, ref[1])
    if len(ref) == 1:
        local = _local_function(index, func, head)
        if local is not None:
            return [(local, "exact")]
    bound = bound_target(index, func, ref)  # ``class_ = GNUTranslations``; ``class_(fp)``
    if bound is not None:
        return _target_functions(index, bound, "exact")
    if head in func.local_calls and len(ref) <= 2:
        made = index.resolve(func.module, func.local_calls[head], func.local_imports)
        if made is not None and made.kind == "class":
            method = index.method(made.qualname, ref[1] if len(ref) == 2 else "__call__")
            return [(method, "exact")] if method is not None else []
    target = index.resolve(func.module, ref, func.local_imports)
    if target is not None:
        return _target_functions(index, target, "exact")
    module = index.modules.get(func.module)
    if module is not None and len(ref) == 2 and head in module.bound_calls:
        found = _global_instance(index, func, module, ref)
        if found is not None:
            return found
    known = module is not None and (head in module.imports or head in module.top)
    if len(ref) > 1 and not known and head not in func.local_imports:
        return _by_name(index, ref[-1])  # a method on a local variable
    return []


def _global_instance(
    index: RepoIndex, func: FuncFacts, module: ModuleFacts, ref: CallRef
) -> list[tuple[str, Precision]] | None:
    """``_default_decoder.decode(s)`` where the module binds ``_default_decoder =
    JSONDecoder(...)`` once at the top level (and the function binds no such name):
    the class's method; None when the name is not such an instance."""
    head = ref[0]
    if head in func.params or head in func.local_calls or head in func.local_binds:
        return None
    if head in module.top or head in module.imports:
        return None  # rebound at the top level by a definition or an import too
    made = index.resolve(module.name, module.bound_calls[head])
    if made is None or made.kind != "class":
        return None
    method = index.method(made.qualname, ref[1])
    return [(method, "exact")] if method is not None else []


def exact_targets(index: RepoIndex, func: FuncFacts, ref: CallRef) -> list[str]:
    """The repository functions a call resolves to without guessing: through imports and
    definitions, ``self.m`` along the class's bases, a class's constructor."""
    return [
        callee for callee, precision in _callee_targets(index, func, ref) if precision == "exact"
    ]


def _local_function(index: RepoIndex, func: FuncFacts, name: str) -> str | None:
    """A function nested in ``func`` or in one of the functions enclosing it."""
    scope: FuncFacts | None = func
    while scope is not None:
        candidate = f"{scope.qualname}.<locals>.{name}"
        if candidate in index.functions:
            return candidate
        scope = index.function(scope.parent) if scope.parent else None
    return None


def _target_functions(
    index: RepoIndex, target: Target, precision: Precision
) -> list[tuple[str, Precision]]:
    if target.kind == "function":
        return [(target.qualname, precision)]
    if target.kind == "class":
        out = []
        for name in ("__init__", "__new__", "__post_init__"):
            method = index.method(target.qualname, name)
            if method is not None:
                out.append((method, precision))
        return out
    return []


def _by_name(index: RepoIndex, name: str) -> list[tuple[str, Precision]]:
    if name in _CONTAINER_METHODS:
        return []
    candidates = index.methods_by_name.get(name, [])
    if not candidates or len(candidates) > MAX_NAME_FANOUT:
        return []
    return [(c, "name") for c in candidates]


def called_functions(
    index: RepoIndex,
    target: Target | None,
    class_methods: tuple[str, ...] = ("__init__", "__new__"),
) -> list[str]:
    """The functions a call of ``target`` runs: the function itself, or a class's
    ``class_methods`` that the repository defines."""
    if target is None:
        return []
    if target.kind == "function":
        return [target.qualname]
    if target.kind == "class":
        return [
            m for name in class_methods if (m := index.method(target.qualname, name)) is not None
        ]
    return []


def _decorator_targets(index: RepoIndex, func: FuncFacts, ref: CallRef) -> list[str]:
    target = index.resolve(func.module, ref, func.local_imports)
    return called_functions(index, target, ("__init__", "__new__", "__call__"))


def _file_edges(index: RepoIndex, module: ModuleFacts) -> dict[str, dict[str, Precision]]:
    """The edges whose caller is a function of ``module``: caller -> callee -> precision
    (``exact`` wins over ``name``, as :meth:`CallGraph.add` keeps it)."""
    out: dict[str, dict[str, Precision]] = {}

    def add(caller: str, callee: str, precision: Precision) -> None:
        if caller != callee:
            edges = out.setdefault(caller, {})
            if edges.get(callee) != "exact":
                edges[callee] = precision

    for func in module.functions:
        qualname = func.qualname
        for ref in func.calls:
            for callee, precision in _callee_targets(index, func, ref):
                add(qualname, callee, precision)
        for ref in func.decorators:
            for callee in _decorator_targets(index, func, ref):
                add(qualname, callee, "name")
        if func.parent is not None:
            add(func.parent, qualname, "name")
    return out


def build_callgraph(index: RepoIndex) -> CallGraph:
    """Edges for every call, decorator and nesting in the repository.

    With ``index.carried`` (an incremental scan whose changes stay local) an unchanged
    file's edges are the last scan's; this scan's are left in ``index.carried.edges``."""
    carried = index.carried
    last: EdgeTables | None = None
    changed: frozenset[str] = frozenset()
    if carried is not None and carried.changed is not None:
        last, changed = carried.last_edges, carried.changed
    tables: EdgeTables = {}
    for module in index.modules.values():
        path = module.path
        if last is not None and path not in changed and path in last:
            tables[path] = last[path]
        else:
            tables[path] = _file_edges(index, module)
    graph = CallGraph()
    callers = graph.callers
    for table in tables.values():
        for caller, edges in table.items():
            for callee, precision in edges.items():
                into = callers.get(callee)
                if into is None:
                    callers[callee] = {caller: precision}
                elif into.get(caller) != "exact":
                    into[caller] = precision
    if carried is not None:
        carried.edges = tables
    return graph


def resolve_calls(
    index: RepoIndex, module: str, refs: list[CallRef], caller: str | None
) -> dict[str, Precision]:
    """What the calls of a test body land in (test helpers included)."""
    func = index.function(caller) if caller else None
    out: dict[str, Precision] = {}
    for ref in refs:
        if func is not None:
            targets = _callee_targets(index, func, ref)
        else:
            target = index.resolve(module, ref)
            targets = _target_functions(index, target, "exact") if target else []
        for callee, precision in targets:
            if out.get(callee) != "exact":
                out[callee] = precision
    return out
