"""What a name holds where a condition reads it, when the function's own lines settle it:
the parameter as passed, an item of a tuple unpacked from one, or ``getattr(param,
'attr', None)`` (for :mod:`.exact_args`).

A binding counts only where it is the last store of the name before the condition, an
``=`` statement straight on the way to the raise (in the function's body, or in the body
of an ``if``/``try``/``with`` that holds the raise, before it), and the parameter it reads
is not stored before it; a store anywhere else (a branch, a loop, a nested function, an
augmented assignment, an item or attribute stored into it: ``fields[0] = …``) before the
condition leaves the name unsettled (None).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass
from typing import Literal

__all__ = ["Binding", "bindings_at", "holds", "way_tests"]

_Function = (ast.FunctionDef, ast.AsyncFunctionDef)


@dataclass(frozen=True, slots=True)
class Binding:
    """``kind``: ``param`` (the parameter itself), ``item`` (its ``index``-th item),
    ``attr`` (``getattr(param, attr, None)``)."""

    kind: Literal["param", "item", "attr"]
    param: str
    index: int = 0
    attr: str = ""


def bindings_at(
    func: ast.FunctionDef | ast.AsyncFunctionDef,
    line: int,
    raise_line: int,
    names: set[str],
    params: set[str],
) -> dict[str, Binding] | None:
    """Each of ``names`` as bound where line ``line`` reads it on the way to the raise at
    ``raise_line``; None where one is not settled by the rules above."""
    stores = _stores(func)
    way = _way(func.body, raise_line)
    out: dict[str, Binding] = {}
    for name in names:
        before = [s for s in stores.get(name, []) if s[0] < line]
        if not before:
            if name not in params:
                return None
            out[name] = Binding("param", name)
            continue
        last_line, stmt = max(before, key=lambda s: s[0])
        if (
            stmt is None
            or id(stmt) not in way
            or any(s[0] == last_line and s[1] is not stmt for s in before)
        ):
            return None
        found = _bound_from(stmt, name)
        if found is None:
            return None
        if (
            any(s[0] < stmt.lineno for s in stores.get(found.param, []))
            or found.param not in params
        ):
            return None  # the parameter was bound again before it was read
        out[name] = found
    return out


def _bound_from(stmt: ast.stmt, name: str) -> Binding | None:
    if not isinstance(stmt, ast.Assign) or len(stmt.targets) != 1:
        return None
    target, value = stmt.targets[0], stmt.value
    if isinstance(target, (ast.Tuple, ast.List)) and isinstance(value, ast.Name):
        if not all(isinstance(e, ast.Name) for e in target.elts):
            return None  # a starred or nested target
        order = [e.id for e in target.elts if isinstance(e, ast.Name)]
        index = len(order) - 1 - order[::-1].index(name)  # ``a, a = fields``: the last wins
        return Binding("item", value.id, index=index)
    if (
        isinstance(target, ast.Name)
        and isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "getattr"
        and len(value.args) == 3
        and not value.keywords
        and isinstance(value.args[0], ast.Name)
        and isinstance(value.args[1], ast.Constant)
        and isinstance(value.args[1].value, str)
        and isinstance(value.args[2], ast.Constant)
        and value.args[2].value is None
    ):
        return Binding("attr", value.args[0].id, attr=value.args[1].value)
    return None


def _stores(func: ast.AST) -> dict[str, list[tuple[int, ast.stmt | None]]]:
    """Each name stored anywhere in ``func`` (nested scopes too) -> (line, the ``=``
    statement where it is a plain target of one, else None)."""
    owner: dict[int, ast.stmt] = {}
    for node in ast.walk(func):
        if isinstance(node, ast.Assign):
            for target in node.targets:
                for sub in ast.walk(target):
                    owner[id(sub)] = node
    out: dict[str, list[tuple[int, ast.stmt | None]]] = {}
    for node in ast.walk(func):
        name: str | None = None
        if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
            name = node.id
        elif isinstance(node, (ast.Subscript, ast.Attribute)) and isinstance(
            node.ctx, (ast.Store, ast.Del)
        ):
            base = _base(node)  # ``fields[0] = …``, ``obj.__name__ = …``: changed in place
            if base:
                out.setdefault(base, []).append((node.lineno, None))
        elif isinstance(node, ast.ExceptHandler):
            name = node.name
        elif isinstance(node, ast.alias):
            name = (node.asname or node.name).partition(".")[0]
        elif isinstance(node, (ast.Global, ast.Nonlocal)):
            for n in node.names:
                out.setdefault(n, []).append((0, None))
        elif node is not func and isinstance(node, (*_Function, ast.ClassDef)):
            name = node.name
        if name:
            line = getattr(node, "lineno", 0)
            out.setdefault(name, []).append((line, owner.get(id(node))))
    return out


def _base(node: ast.expr) -> str | None:
    """The name ``node`` (``a.b[0].c``) stores into, if a plain name."""
    while isinstance(node, (ast.Subscript, ast.Attribute)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else None


def _way(body: list[ast.stmt], line: int) -> set[int]:
    """Ids of the statements that run, in order, before the raise at ``line`` on every way
    to it: those before it in each ``if``/``try``/``with`` body holding it (not in a
    loop's, nor a nested function's)."""
    out: set[int] = set()
    while body:
        holder = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        if holder is None:
            return out
        out.update(id(s) for s in body[: body.index(holder)])
        if isinstance(holder, (ast.For, ast.AsyncFor, ast.While, *_Function, ast.ClassDef)):
            return out
        blocks = [
            getattr(holder, "body", []),
            getattr(holder, "orelse", []),
            *[h.body for h in getattr(holder, "handlers", [])],
            getattr(holder, "finalbody", []),
        ]
        body = next(
            (b for b in blocks if b and b[0].lineno <= line <= (b[-1].end_lineno or b[-1].lineno)),
            [],
        )
    return out


def way_tests(func: ast.FunctionDef | ast.AsyncFunctionDef, line: int) -> list[ast.expr] | None:
    """The tests of the ``if`` statements whose body holds the ``raise`` at ``line``,
    outermost first, read from the tree (the record's guards leave out a test over a name
    bound again before the raise, which is still needed); None where the way passes an
    ``else``, a handler, a loop or a ``match``, or ``line`` is no ``raise`` statement."""
    out: list[ast.expr] = []
    body: list[ast.stmt] = func.body
    while True:
        holder = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        if holder is None:
            return None
        if isinstance(holder, ast.Raise):
            return out if holder.lineno == line else None
        if isinstance(holder, ast.If) and holds(holder.body, line):
            out.append(holder.test)
            body = holder.body
        elif isinstance(holder, (ast.With, ast.AsyncWith)) or (
            isinstance(holder, ast.Try) and holds(holder.body, line)
        ):
            body = holder.body
        else:
            return None


def holds(body: list[ast.stmt], line: int) -> bool:
    """Whether the statements of ``body`` span ``line``."""
    return bool(body) and body[0].lineno <= line <= (body[-1].end_lineno or body[-1].lineno)
