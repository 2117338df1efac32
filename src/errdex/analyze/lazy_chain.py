"""Whether a call of an entry point runs the raise, or only makes a generator or a
coroutine whose iteration or ``await`` does (issue 10).

A generator's body runs when its result is iterated, a coroutine's when it is awaited:
``difflib.restore(delta, 3)`` returns a generator and raises nothing, and its ValueError
comes at the first ``next()`` (blind review of stop 39: "It comes from a call of
restore()" misleading, "Catch FilterArgumentError around the call to select_or_reject()"
false). Read from the syntax tree, hop by hop up the chain errdex resolved: a caller that
iterates the generator it calls surely to the end (``list(g(…))``, a ``for`` loop no
``break`` or ``return`` leaves: :mod:`.lazy_uses`) or awaits the coroutine makes its own
call the one that raises; one that returns it (``return
g(…)``) hands the lazy result on; any other use is not known, and nothing is said.
"""

from __future__ import annotations

import ast
import os

from errdex.evidence import EntryPoint

from .facts import FuncFacts
from .file_trees import function_node
from .lazy_uses import (
    ASYNC_GENERATOR,
    CONSUMED,
    COROUTINE,
    GENERATOR,
    PARTIAL,
    RETURNED,
    use_of,
)
from .repo import RepoIndex

__all__ = [
    "ASYNC_GENERATOR",
    "COROUTINE",
    "GENERATOR",
    "LAZY",
    "PARTLY",
    "UNKNOWN",
    "chain_states",
    "own_kind",
]

#: A generator or coroutine on the way whose result is used in a way not read here.
UNKNOWN = "unknown"
#: The states whose result runs the raise when iterated or awaited.
LAZY = (GENERATOR, COROUTINE, ASYNC_GENERATOR)
#: Before a lazy kind: the entry point's result, iterated or awaited, is where the raise
#: can come from, but a caller below iterates perhaps not far enough (``any(g())``).
PARTLY = "partly "

#: Decorators that leave a generator or coroutine function as it is; any other, dotted
#: or not (``@_eager[0]``), may change what the call returns (``@contextmanager`` runs
#: the body at ``with``).
_PLAIN = frozenset(
    {("staticmethod",), ("classmethod",), ("abstractmethod",), ("abc", "abstractmethod")}
)
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def own_kind(func: FuncFacts | None) -> str | None:
    """What a call of ``func`` returns in place of running its body: a generator, a
    coroutine, an async generator; :data:`UNKNOWN` for one under a decorator that may
    change it; None for a plain function."""
    if func is None or not (func.is_generator or func.is_async):
        return None
    if func.odd_decorators or any(tuple(d) not in _PLAIN for d in func.decorators):
        return UNKNOWN
    if func.is_async and func.is_generator:
        return ASYNC_GENERATOR
    return COROUTINE if func.is_async else GENERATOR


def chain_states(
    index: RepoIndex, func: FuncFacts, entries: list[EntryPoint], funcs: dict[str, FuncFacts]
) -> dict[str, str]:
    """Entry point qualname -> what its call gives where it does not run the raise: a
    :data:`LAZY` kind (its result, iterated or awaited, does) or :data:`UNKNOWN`.
    Entry points whose call runs the raise are left out."""
    out: dict[str, str] = {}
    for entry in entries:
        if entry.get("handsOut"):
            continue  # a returned function: said as such (:mod:`.closures`)
        state = _state(index, func, entry, funcs.get(entry["qualname"]))
        if state is not None:
            out[entry["qualname"]] = state
    return out


def _state(
    index: RepoIndex, func: FuncFacts, entry: EntryPoint, entry_func: FuncFacts | None
) -> str | None:
    via = list(entry.get("via") or ())
    state = own_kind(func)
    if entry.get("depth", 0) == 0 or len(via) < 2:
        return state
    callee, partly = via[-1], False
    for at in range(len(via) - 2, -1, -1):
        caller = entry_func if at == 0 and entry_func is not None else index.function(via[at])
        if caller is None:
            return UNKNOWN if state is not None else None
        if state is not None:  # the callee's call only makes a generator or coroutine
            use = _use(index, caller, callee.rpartition(".")[2], state)
            if use == RETURNED and own_kind(caller) is None:
                callee = via[at]
                continue  # handed on: the caller's result is as lazy
            partly = partly or use == PARTIAL
            if use not in (CONSUMED, PARTIAL) or state == UNKNOWN:
                return UNKNOWN
        state = own_kind(caller)
        callee = via[at]
    if partly:  # in the entry point's body, perhaps not reached; its own result is lazy
        return PARTLY + state if state in LAZY else UNKNOWN
    return state


def _use(index: RepoIndex, caller: FuncFacts, name: str, kind: str) -> str | None:
    """How ``caller``'s body uses the result of its calls of ``name``: "consumed"
    (iterated to the end, or awaited), "returned", or None (not known, or mixed)."""
    module = index.modules.get(caller.module)
    if module is None or not index.root:
        return None
    node = function_node(os.path.join(index.root, module.rel), caller.line, caller.name)
    if node is None:
        return None
    uses = {use_of(parent, call, kind) for parent, call in _calls_of(node, name)}
    return uses.pop() if len(uses) == 1 else None


def _calls_of(node: ast.AST, name: str) -> list[tuple[ast.AST, ast.Call]]:
    """Each call of ``name`` in the body (not in nested definitions), with its parent
    and, for a comprehension's iterable, the comprehension expression as the parent."""
    found: list[tuple[ast.AST, ast.Call]] = []
    stack: list[ast.AST] = [node]
    while stack:
        parent = stack.pop()
        for child in ast.iter_child_nodes(parent):
            if isinstance(child, _NESTED):
                continue
            if isinstance(child, ast.comprehension):
                if isinstance(child.iter, ast.Call) and _named(child.iter, name):
                    found.append((parent, child.iter))  # the ListComp, GeneratorExp, …
                stack.append(child)
                continue
            if (
                isinstance(child, ast.Call)
                and _named(child, name)
                and not _comp_iter(parent, child)
            ):
                found.append((parent, child))
            stack.append(child)
    return found


def _comp_iter(parent: ast.AST, child: ast.Call) -> bool:
    return isinstance(parent, ast.comprehension) and parent.iter is child


def _named(call: ast.Call, name: str) -> bool:
    func = call.func
    return (isinstance(func, ast.Name) and func.id == name) or (
        isinstance(func, ast.Attribute) and func.attr == name
    )
