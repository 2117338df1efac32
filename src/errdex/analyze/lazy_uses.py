"""How a caller uses the generator or coroutine a call of its makes: iterated surely to
the end (or awaited), returned, or neither (:mod:`.lazy_chain` walks the chain with it).

Only a use that cannot stop before the end counts as running the raise: ``list()``,
``tuple()``, ``sorted()``, ``"".join()``, ``yield from``, ``*g()``, a comprehension over it,
and a ``for`` loop whose body has no ``break``, ``return`` or ``raise`` that can leave it.
``for x in g(): return x``, ``any(g())`` (stops at the first true item) and ``a, b = g()``
(reads three items at most) may stop before the raise, and a ``try`` around the caller's
call catches nothing then (review of a48's rule, session 41: ``first()``, ``brk()``,
``anyer()`` said to raise at their call)."""

from __future__ import annotations

import ast

__all__ = ["ASYNC_GENERATOR", "CONSUMED", "COROUTINE", "GENERATOR", "PARTIAL", "RETURNED", "use_of"]

CONSUMED = "consumed"
#: Iterated here, in the caller's own body, but perhaps not to the end (``any(g())``).
PARTIAL = "partial"
RETURNED = "returned"
GENERATOR = "generator"
COROUTINE = "coroutine"
ASYNC_GENERATOR = "async generator"

#: Builtins that iterate their argument to the end before they return (not ``any``,
#: ``all``, ``next``, ``zip``: they may stop early).
_DRAINS = frozenset({"list", "tuple", "set", "frozenset", "sorted", "sum", "min", "max", "dict"})
#: Methods that iterate their argument to the end (``"".join(g())``, ``x.extend(g())``);
#: not ``update``, which a hash object's is too and which does not iterate.
_DRAINING_METHODS = frozenset({"join", "extend", "writelines"})
#: Builtins that iterate their argument in the call, perhaps not to the end.
_STEPS = frozenset({"any", "all", "next"})
_NESTED = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_LOOPS = (ast.For, ast.AsyncFor, ast.While)


def use_of(parent: ast.AST, call: ast.Call, kind: str) -> str | None:
    """How ``parent`` uses the result of ``call``, a call that makes a ``kind``:
    :data:`CONSUMED` (to the end, or awaited), :data:`PARTIAL` (iterated there, perhaps
    not to the end), :data:`RETURNED`, or None (not known)."""
    if isinstance(parent, ast.Return):
        return RETURNED
    if kind == COROUTINE:
        return CONSUMED if isinstance(parent, ast.Await) else None
    if kind == ASYNC_GENERATOR:
        if isinstance(parent, ast.AsyncFor) and parent.iter is call:
            return PARTIAL if _may_leave(parent.body) else CONSUMED
        if isinstance(parent, (ast.ListComp, ast.SetComp, ast.DictComp)) and any(
            c.iter is call and c.is_async for c in parent.generators
        ):
            return CONSUMED
        return None
    if isinstance(parent, ast.For) and parent.iter is call:
        return PARTIAL if _may_leave(parent.body) else CONSUMED
    if isinstance(parent, (ast.ListComp, ast.SetComp, ast.DictComp)):
        # its iterable, not its item; a generator expression iterates only when iterated
        return CONSUMED if any(c.iter is call for c in parent.generators) else None
    if isinstance(parent, (ast.YieldFrom, ast.Starred)):
        return CONSUMED
    if isinstance(parent, ast.Assign) and all(
        isinstance(t, (ast.Tuple, ast.List)) for t in parent.targets
    ):  # ``first, *rest = g()``; ``a, b = g()`` stops after three items
        return CONSUMED if all(_starred_target(t) for t in parent.targets) else PARTIAL
    if isinstance(parent, ast.Call) and call in parent.args:
        target = parent.func
        if isinstance(target, ast.Name) and target.id in _DRAINS:
            return CONSUMED
        if isinstance(target, ast.Name) and target.id in _STEPS:
            return PARTIAL
        if isinstance(target, ast.Attribute) and target.attr in _DRAINING_METHODS:
            return CONSUMED
    return None


def _starred_target(target: ast.expr) -> bool:
    return isinstance(target, (ast.Tuple, ast.List)) and any(
        isinstance(e, ast.Starred) for e in target.elts
    )


def _may_leave(body: list[ast.stmt]) -> bool:
    """Whether a loop body can end the loop before its iterable does: a ``return`` or
    ``raise`` anywhere in it, or a ``break`` not inside a loop of its own (nested
    definitions aside)."""
    stack: list[tuple[ast.AST, bool]] = [(stmt, False) for stmt in body]
    while stack:
        node, in_loop = stack.pop()
        if isinstance(node, (ast.Return, ast.Raise)) or (
            isinstance(node, ast.Break) and not in_loop
        ):
            return True
        if isinstance(node, _NESTED):
            continue
        if isinstance(node, _LOOPS):  # its own ``break``; its ``else`` breaks this one
            stack.extend((stmt, True) for stmt in node.body)
            stack.extend((stmt, in_loop) for stmt in node.orelse)
            continue
        stack.extend((child, in_loop) for child in ast.iter_child_nodes(node))
    return False
