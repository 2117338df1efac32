"""A caller's local list that certainly holds an item where it makes a call.

``asyncio.staggered.staggered_race`` binds ``running_tasks = []``, appends its first task,
and only then calls ``tasks.wait(running_tasks)``: ``wait``'s "Set of Tasks/Futures is
empty." (``if not fs``) can never fire from that call (blind review stop 35, record 35).
The entry-point walk (:mod:`errdex.analyze.chains`) passes such a local as
:class:`NonEmpty`, whose truth is known and nothing else.

A local counts when the function (nested scopes included) binds it once, to an empty or
filled list or set display (``[]``, ``set()``, ``list()``), and then adds to it with a
statement of its own (``x.append(...)``, ``x.add(...)``, ``x.insert(...)``,
``x.appendleft(...)``) not under any condition: from the next statement of that block to
the block's end it holds an item. Nothing in the function may take an item out (``pop``,
``remove``, ``clear``, ``discard``, ``del x[...]``, an item or slice assignment, any other
method) and the span ends at the first call that is handed the list (other than a few
builtins that only read it): that call may empty it.
"""

from __future__ import annotations

import ast

from .guard_eval import Made

__all__ = ["NonEmpty", "filled_at", "filled_spans"]

#: Methods that add an item whatever their argument.
_ADDING = frozenset({"append", "add", "insert", "appendleft"})
#: Methods that leave the items where they are.
_READING = frozenset({"count", "index", "copy", "extend", "update", "__len__"})
#: Builtins that read what they are handed and change nothing.
_READERS = frozenset(
    {
        "len", "enumerate", "list", "tuple", "set", "frozenset", "sorted", "iter",
        "any", "all", "sum", "min", "max", "reversed", "zip", "isinstance", "repr", "str",
        "bool", "print",
    }
)  # fmt: skip
#: What an empty container the local starts as is written as.
_EMPTY_CALLS = frozenset({"list", "set"})
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)

#: Local -> (first line, last line) where it holds an item.
Spans = dict[str, tuple[tuple[int, int], ...]]


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


def filled_at(spans: Spans, name: str, line: int) -> bool:
    """Whether the local ``name`` certainly holds an item on ``line``."""
    return any(first <= line <= last for first, last in spans.get(name, ()))


def filled_spans(func: ast.FunctionDef | ast.AsyncFunctionDef) -> Spans:
    """Local -> where it certainly holds an item (see the module's docstring)."""
    starts = _containers(func)
    if not starts:
        return {}
    uses = _uses(func, set(starts))
    out: dict[str, list[tuple[int, int]]] = {}
    for block in _blocks(func.body):
        for i, stmt in enumerate(block):
            name = _added_to(stmt)
            if name is None or name not in starts or name in uses.spoiled:
                continue
            if starts[name] >= stmt.lineno:
                continue  # bound after it: a loop may bind it again, empty
            first = (stmt.end_lineno or stmt.lineno) + 1
            last = block[-1].end_lineno or block[-1].lineno
            handed = [at for at in uses.handed.get(name, ()) if at >= first]
            if handed:
                last = min(last, min(handed))
            if i + 1 < len(block) and first <= last:
                out.setdefault(name, []).append((first, last))
    return {name: tuple(spans) for name, spans in out.items()}


def _containers(func: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, int]:
    """Locals bound exactly once, to a list or set display or ``list()``/``set()``: the
    line of that binding."""
    binds: dict[str, list[int]] = {}
    shared: set[str] = set()
    good: dict[str, int] = {}
    for node in ast.walk(func):
        if isinstance(node, (ast.Global, ast.Nonlocal)):
            shared.update(node.names)
        elif isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            binds.setdefault(node.id, []).append(node.lineno)
        elif isinstance(node, ast.arg):
            binds.setdefault(node.arg, []).extend((0, 0))
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
        and value.func.id in _EMPTY_CALLS
        and not value.args
        and not value.keywords
    )


class _Uses:
    def __init__(self) -> None:
        #: Locals something may take an item out of.
        self.spoiled: set[str] = set()
        #: Local -> lines of the calls it is handed to.
        self.handed: dict[str, list[int]] = {}


def _uses(func: ast.AST, names: set[str]) -> _Uses:
    """How the body uses each of ``names`` besides reading it."""
    found = _Uses()
    for node in ast.walk(func):
        if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
            name = node.value.id
            if name in names and node.attr not in _ADDING | _READING:
                found.spoiled.add(name)
        elif isinstance(node, ast.Subscript) and isinstance(node.value, ast.Name):
            if node.value.id in names and not isinstance(node.ctx, ast.Load):
                found.spoiled.add(node.value.id)  # ``del x[0]``, ``x[:] = []``
        elif isinstance(node, ast.Call):
            reader = isinstance(node.func, ast.Name) and node.func.id in _READERS
            for arg in (*node.args, *(k.value for k in node.keywords)):
                inner = arg.value if isinstance(arg, ast.Starred) else arg
                if isinstance(inner, ast.Name) and inner.id in names and not reader:
                    found.handed.setdefault(inner.id, []).append(node.lineno)
    return found


def _added_to(stmt: ast.stmt) -> str | None:
    """``x.append(...)`` as a statement of its own: ``x``."""
    if not isinstance(stmt, ast.Expr) or not isinstance(stmt.value, ast.Call):
        return None
    func = stmt.value.func
    if (
        isinstance(func, ast.Attribute)
        and func.attr in _ADDING
        and isinstance(func.value, ast.Name)
    ):
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
