"""The repository's own call graph: name-based, resolved through imports, walked to a bounded depth.

Edges are ``exact`` when the callee was resolved through the caller's imports and
definitions (``nx.foo()``, ``helper()``, ``self.method()``), and ``name`` when they
rest on a name alone: a method called on a receiver of unknown type
(``G.add_edge()`` -> every ``add_edge`` method), a decorator wrapping a function,
or a function reaching the functions nested in it. A chain is as precise as its
least precise edge.
"""

from __future__ import annotations

from collections import deque
from dataclasses import dataclass, field

from .facts import CallRef, FuncFacts
from .repo import RepoIndex, Target

__all__ = ["MAX_DEPTH", "CallGraph", "Reach", "build_callgraph", "exact_targets"]

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


@dataclass(frozen=True, slots=True)
class Reach:
    """A function that reaches the raising one: how far, through whom, how surely."""

    depth: int
    via: tuple[str, ...]  # the chain from this function down to the raising one
    precision: Precision


@dataclass
class CallGraph:
    callers: dict[str, dict[str, Precision]] = field(default_factory=dict)
    _reach_memo: dict[str, dict[str, Reach]] = field(default_factory=dict)

    def add(self, caller: str, callee: str, precision: Precision) -> None:
        if caller == callee:
            return
        edges = self.callers.setdefault(callee, {})
        if edges.get(caller) != "exact":
            edges[caller] = precision

    def reach(self, function: str, max_depth: int = MAX_DEPTH) -> dict[str, Reach]:
        """Every function that reaches ``function`` in at most ``max_depth`` calls (itself at 0)."""
        memo = self._reach_memo.get(function)
        if memo is not None:
            return memo
        found: dict[str, Reach] = {function: Reach(0, (function,), "exact")}
        queue: deque[str] = deque([function])
        while queue and len(found) < MAX_VISITED:
            current = queue.popleft()
            here = found[current]
            if here.depth >= max_depth:
                continue
            for caller in sorted(self.callers.get(current, {})):
                if caller in found:
                    continue
                edge = self.callers[current][caller]
                precision = "exact" if edge == "exact" and here.precision == "exact" else "name"
                found[caller] = Reach(here.depth + 1, (caller, *here.via), precision)
                queue.append(caller)
                if len(found) >= MAX_VISITED:
                    break
        self._reach_memo[function] = found
        return found


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
    if head in func.local_calls and len(ref) <= 2:
        made = index.resolve(func.module, func.local_calls[head], func.local_imports)
        if made is not None and made.kind == "class":
            method = index.method(made.qualname, ref[1] if len(ref) == 2 else "__call__")
            return [(method, "exact")] if method is not None else []
    target = index.resolve(func.module, ref, func.local_imports)
    if target is not None:
        return _target_functions(index, target, "exact")
    module = index.modules.get(func.module)
    known = module is not None and (head in module.imports or head in module.top)
    if len(ref) > 1 and not known and head not in func.local_imports:
        return _by_name(index, ref[-1])  # a method on a local variable
    return []


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


def _decorator_targets(index: RepoIndex, func: FuncFacts, ref: CallRef) -> list[str]:
    target = index.resolve(func.module, ref, func.local_imports)
    if target is None:
        return []
    if target.kind == "function":
        return [target.qualname]
    if target.kind == "class":
        return [
            m
            for name in ("__init__", "__new__", "__call__")
            if (m := index.method(target.qualname, name)) is not None
        ]
    return []


def build_callgraph(index: RepoIndex) -> CallGraph:
    """Edges for every call, decorator and nesting in the repository."""
    graph = CallGraph()
    for qualname, defs in index.functions.items():
        for func in defs:
            for ref in func.calls:
                for callee, precision in _callee_targets(index, func, ref):
                    graph.add(qualname, callee, precision)
            for ref in func.decorators:
                for callee in _decorator_targets(index, func, ref):
                    graph.add(qualname, callee, "name")
            if func.parent is not None:
                graph.add(func.parent, qualname, "name")
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
