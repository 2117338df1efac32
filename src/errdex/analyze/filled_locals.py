"""A caller's local list that certainly holds an item where it makes a call.

``asyncio.staggered.staggered_race`` binds ``running_tasks = []``, appends its first task,
and only then calls ``tasks.wait(running_tasks)``: ``wait``'s "Set of Tasks/Futures is
empty." (``if not fs``) can never fire from that call (blind review stop 35, record 35).
The entry-point walk (:mod:`errdex.analyze.chains`) passes such a local as
:class:`NonEmpty`, whose truth is known and nothing else.

A local counts only where nothing but the call can empty it: the function binds it once
(in its own body, to ``[]``, ``set()`` or ``list()``), adds to it with a statement of its
own (``x.append(...)``, ``x.add(...)``, ``x.insert(...)``, ``x.appendleft(...)``) not
under any condition, and hands it to exactly one call (builtins that only read it aside),
later in that block. Every other use must be a harmless read (:mod:`.item_uses`): no
alias (``box = out``), no store (``self.a = a``), no ``yield``, no other method. A call
inside a loop, comprehension or nested function after the append may run again after
its own first run emptied the list: it is marked so, and the walk then trusts it only
when the callee leaves its argument alone throughout (:mod:`.param_changes`).
"""

from __future__ import annotations

import ast

from .guard_eval import Made
from .item_uses import ADDING, item_uses

__all__ = ["AGAIN", "ONCE", "NonEmpty", "filled_at", "filled_spans", "trusted"]

#: Where the one call handed a filled local runs once after the append, or may run again.
ONCE, AGAIN = 1, 2
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
#: What may run a call more than once.
_REPEATS = (
    ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda,
    ast.ListComp, ast.SetComp, ast.DictComp, ast.GeneratorExp, ast.ClassDef,
)  # fmt: skip

#: Local -> (line of the one call handed it while it holds an item, :data:`ONCE` or
#: :data:`AGAIN`).
Spans = dict[str, tuple[int, int]]


class NonEmpty(Made):
    """A list or set the caller has added an item to: true, and not ``None``; its
    length, items, type and equality with anything stay unknown."""

    __slots__ = ()

    def __init__(self) -> None:
        super().__init__(False)

    def __bool__(self) -> bool:
        return True

    def __eq__(self, other: object) -> bool:
        return type(other) is NonEmpty

    def __hash__(self) -> int:
        return hash("NonEmpty")

    def __repr__(self) -> str:
        return "NonEmpty()"


def filled_at(spans: Spans, name: str, line: int) -> int:
    """Whether the local ``name`` certainly holds an item where the call on ``line`` is
    handed it: 0, or :data:`ONCE` / :data:`AGAIN` (the call may run again)."""
    found = spans.get(name)
    return found[1] if found is not None and found[0] == line else 0


def trusted(filled: int, name: str, kept: tuple[frozenset[str], frozenset[str]]) -> bool:
    """Whether a filled local (``filled``, as :func:`filled_at` says) may be taken as
    holding an item at the callee's test of its parameter ``name``: ``kept`` are the
    callee's parameters untouched up to the test, and those it never changes."""
    return (filled == ONCE and name in kept[0]) or (filled == AGAIN and name in kept[1])


def filled_spans(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Spans:
    """Local -> the call it is handed where it holds an item (see the module's docstring)."""
    starts = _containers(func)
    if not starts:
        return {}
    uses = item_uses(func, set(starts))
    parents: dict[int, ast.AST] = {}
    for parent in ast.walk(func):
        for child in ast.iter_child_nodes(parent):
            parents[id(child)] = parent
    out: Spans = {}
    for block in _blocks(func.body):
        for i, stmt in enumerate(block):
            name = _added_to(stmt)
            if name is None or name not in starts or name in uses.changes:
                continue
            if starts[name] >= stmt.lineno:
                continue  # bound after it: a loop may bind it again, empty
            calls = uses.calls.get(name, [])
            if len(calls) != 1 or calls[0].lineno <= (stmt.end_lineno or stmt.lineno):
                continue  # handed to more than one call, or before the append
            later = {id(s): s for s in block[i + 1 :]}
            path: list[ast.AST] = []
            node: ast.AST | None = calls[0]
            while node is not None and id(node) not in later:
                path.append(node)
                node = parents.get(id(node))
            if node is None:
                continue  # not after the append in its block
            again = any(isinstance(n, _REPEATS) for n in (*path[1:], node))
            out[name] = (calls[0].lineno, AGAIN if again else ONCE)
    return out


def _containers(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
    """Locals bound exactly once, in the function's own body, to a list or set display or
    ``list()``/``set()``: the line of that binding."""
    binds: dict[str, list[int]] = {}
    shared: set[str] = set()
    for node in ast.walk(func):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            shared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            binds.setdefault(node.id, []).append(node.lineno)
        elif isinstance(node, ast.arg):
            binds.setdefault(node.arg, []).extend((0, 0))
    good: dict[str, int] = {}
    for block in _blocks(func.body):
        for node in block:
            if (
                isinstance(node, ast.Assign)
                and len(node.targets) == 1
                and isinstance(node.targets[0], ast.Name)
                and _container(node.value)
            ):
                good[node.targets[0].id] = node.lineno
    return {n: at for n, at in good.items() if len(binds.get(n, ())) == 1 and n not in shared}


def _container(value: ast.expr) -> bool:
    if isinstance(value, (ast.List, ast.Set)):
        return True
    return (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id in ("list", "set")
        and not value.args
        and not value.keywords
    )


def _added_to(stmt: ast.stmt) -> str | None:
    """``x.append(...)`` as a statement of its own: ``x``."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    func = stmt.value.func
    if isinstance(func, ast.Attribute) and func.attr in ADDING and isinstance(func.value, ast.Name):
        return func.value.id
    return None


def _blocks(body: list[ast.stmt]) -> list[list[ast.stmt]]:
    """Every list of statements of the function's own body (not of nested scopes)."""
    out = [body]
    todo = list(body)
    while todo:
        stmt = todo.pop()
        if isinstance(stmt, _SCOPES):
            continue
        for name in ("body", "orelse", "finalbody"):
            inner = getattr(stmt, name, None)
            if isinstance(inner, list) and inner and isinstance(inner[0], ast.stmt):
                out.append(inner)
                todo.extend(inner)
        for handler in getattr(stmt, "handlers", None) or ():
            out.append(handler.body)
            todo.extend(handler.body)
        for case in getattr(stmt, "cases", None) or ():
            out.append(case.body)
            todo.extend(case.body)
    return out
