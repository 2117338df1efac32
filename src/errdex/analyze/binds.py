"""The local names a function body binds to something a test's calls go through, and
what its ``return`` statements give (read by :mod:`errdex.analyze.test_types`).

Beside ``x = Cls(...)`` (:attr:`~errdex.analyze.facts.FuncFacts.local_calls`), a test
binds what it calls in three more ways (issue 10, deliver 2): an alias of a dotted name
(``nodemap = elem.attributes``, ``f = obj.method``), the value of a ``with`` block
(``with dumbdbm.open(name) as db``, and as ``"db()"`` the call given to the block's
callee, ``with closing(dumbdbm.open(name)) as db``) and the elements of a call's tuple
(``a, b = self.Pipe()``). Each is kept only for a name bound once in the body, by any
statement; ``self.thing = thing`` is kept as ``"self.thing"``, and a ``return
self.thing`` as ``("self.", "thing")`` (:data:`SELF_ATTRIBUTE`: no callee is written so).
"""

from __future__ import annotations

import ast
from collections import Counter

from .callsites import constant_of
from .facts import CallRef, dotted

__all__ = ["SELF_ATTRIBUTE", "Binds", "bind_alias", "bind_call", "class_alias", "class_calls"]

#: A return element: the callee of the call it gives, ``("self",)``, ``(SELF_ATTRIBUTE,
#: name)`` for ``self.<name>``, or None.
Returned = CallRef | None
SELF_ATTRIBUTE = "self."


class Binds:
    """Collects one function body's bindings while the walker visits its nodes."""

    def __init__(self) -> None:
        self.counts: Counter[str] = Counter()  # how many statements bind each name
        self.found: dict[str, tuple[str, CallRef]] = {}
        self.callees: dict[str, set[CallRef | None]] = {}  # name -> the calls it holds
        self.returns: list[ast.expr | None] = []
        #: ``name = "literal"``: the literal of each name so bound (:mod:`.settled`), and
        #: (line, literal) of every such binding.
        self.literals: dict[str, object] = {}
        self.literal_lines: dict[str, list[tuple[int, object]]] = {}
        #: ``kwargs["x"] = 1``: names the body stores an item into; ``del kwargs["x"]``:
        #: names it deletes one from.
        self.item_stores: set[str] = set()
        self.item_deletes: set[str] = set()

    def assign(self, node: ast.Assign) -> None:
        value = node.value
        for target in node.targets:
            if isinstance(target, ast.Name):
                self._count(target.id)
                known, literal = constant_of(value)
                if known:
                    self.literals[target.id] = literal
                    self.literal_lines.setdefault(target.id, []).append((node.lineno, literal))
                ref = dotted(value.func) if isinstance(value, ast.Call) else None
                self.callees.setdefault(target.id, set()).add(ref)
                if isinstance(value, (ast.Name, ast.Attribute)):
                    alias = dotted(value)
                    if alias is not None and alias[0]:
                        self.found[target.id] = ("alias", alias)
            elif isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                self.item_stores.add(target.value.id)
            elif _self_attribute(target) and isinstance(value, ast.Name):
                key = f"self.{target.attr}"  # type: ignore[attr-defined]
                self._count(key)
                self.found[key] = ("alias", (value.id,))  # ``self.thing = thing``
            elif isinstance(target, (ast.Tuple, ast.List)):
                callee = dotted(value.func) if isinstance(value, ast.Call) else None
                for pos, elt in enumerate(target.elts):
                    if isinstance(elt, ast.Name):
                        self._count(elt.id)
                        self.callees.setdefault(elt.id, set()).add(None)
                        if callee is not None and callee[0]:
                            self.found[elt.id] = (str(pos), callee)
                    elif isinstance(elt, ast.Starred):
                        break  # the positions after it are not known

    def delete(self, node: ast.Delete) -> None:
        for target in node.targets:
            if isinstance(target, ast.Subscript) and isinstance(target.value, ast.Name):
                self.item_deletes.add(target.value.id)

    def other(self, target: ast.expr) -> None:
        """A name bound by a statement that binds nothing a test calls (``for x in``)."""
        for node in ast.walk(target):
            if isinstance(node, ast.Name):
                self._count(node.id)
                self.callees.setdefault(node.id, set()).add(None)

    def with_items(self, node: ast.With | ast.AsyncWith) -> None:
        for item in node.items:
            target = item.optional_vars
            if target is None:
                continue
            expr = item.context_expr
            callee = dotted(expr.func) if isinstance(expr, ast.Call) else None
            if isinstance(target, ast.Name) and callee is not None and callee[0]:
                self._count(target.id)
                self.callees.setdefault(target.id, set()).add(None)
                self.found[target.id] = ("enter", callee)
                first = expr.args[0] if isinstance(expr, ast.Call) and expr.args else None
                inner = dotted(first.func) if isinstance(first, ast.Call) else None
                if inner is not None and inner[0]:
                    # ``with closing(dumbdbm.open(name)) as f``: what closing was given
                    self.found[f"{target.id}()"] = ("arg0", inner)
            else:
                self.other(target)

    def _count(self, name: str) -> None:
        self.counts[name] += 1

    def result(
        self, local_calls: dict[str, CallRef]
    ) -> tuple[dict[str, tuple[str, CallRef]], tuple[tuple[Returned, ...], ...]]:
        """The names bound once (not already in ``local_calls``), and the returns."""
        binds = {
            name: found
            for name, found in self.found.items()
            if self.counts[name.removesuffix("()")] == 1 and name not in local_calls
        }
        returns = tuple(self._returned(value) for value in self.returns)
        return binds, returns

    def _returned(self, value: ast.expr | None) -> tuple[Returned, ...]:
        if isinstance(value, ast.Tuple):
            return tuple(self._element(e) for e in value.elts)
        return (self._element(value),)

    def _element(self, node: ast.expr | None) -> Returned:
        if isinstance(node, ast.Call):
            ref = dotted(node.func)
            return ref if ref is not None and ref[0] else None
        if _self_attribute(node) and self.counts["self"] == 0:
            return (SELF_ATTRIBUTE, node.attr)  # type: ignore[union-attr]
        if isinstance(node, ast.Name):
            if node.id == "self" and self.counts[node.id] == 0:
                return ("self",)
            held = self.callees.get(node.id)
            if held is not None and len(held) == 1:
                (ref,) = held
                return ref if ref is not None and ref[0] else None
        return None


def _self_attribute(node: ast.expr | None) -> bool:
    """``self.<name>``."""
    return (
        isinstance(node, ast.Attribute)
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


# -- what a module or class body binds (read by the statement walk, :mod:`.walk`) -------


def class_alias(value: ast.expr) -> CallRef | None:
    """``tarinfo = TarInfo`` in a class body, or ``Pipe = staticmethod(mp.Pipe)``: the
    dotted name the class attribute stands for."""
    if _static_wrapped(value) is not None:
        value = value.args[0]  # type: ignore[attr-defined]
    if isinstance(value, (ast.Name, ast.Attribute)):
        return dotted(value)
    return None


def _static_wrapped(value: ast.expr) -> CallRef | None:
    """``staticmethod(f)``: the function stays ``f`` when called through the class."""
    if (
        isinstance(value, ast.Call)
        and isinstance(value.func, ast.Name)
        and value.func.id == "staticmethod"
        and len(value.args) == 1
        and isinstance(value.args[0], (ast.Name, ast.Attribute))
    ):
        return dotted(value.args[0])
    return None


def class_calls(body: list[ast.stmt]) -> dict[str, CallRef]:
    """``gen = random.Random()`` in a class body, bound once: name -> the callee."""
    bound: dict[str, CallRef | None] = {}
    for stmt in body:
        if (
            isinstance(stmt, ast.Assign)
            and isinstance(stmt.value, ast.Call)
            and _static_wrapped(stmt.value) is None
        ):
            bind_call(stmt, bound)
    return {name: ref for name, ref in bound.items() if ref is not None}


def bind_call(node: ast.Assign, bound: dict[str, CallRef | None]) -> None:
    """Note ``name = f(...)`` (and ``self.name = f(...)`` as ``self.name``, which test
    linking reads from ``setUp``); a name bound again to a call of the same callee
    (``x = wmod.catch_warnings(record=True)`` … ``x = wmod.catch_warnings(record=False)``)
    holds what it held; bound to anything else, it is not followed."""
    ref = dotted(node.value.func) if isinstance(node.value, ast.Call) else None
    for target in node.targets:
        name = _bound_name(target)
        if name is not None:
            bound[name] = ref if name not in bound or bound[name] == ref else None


def bind_alias(node: ast.Assign, aliases: dict[str, CallRef | None]) -> None:
    """Note a top-level ``name = other.name`` (bound once: twice, or to anything else,
    is not followed)."""
    value = node.value
    ref = dotted(value) if isinstance(value, (ast.Name, ast.Attribute)) else None
    for target in node.targets:
        if isinstance(target, ast.Name):
            name = target.id
            aliases[name] = ref if name not in aliases and ref and ref[0] else None


def _bound_name(target: ast.expr) -> str | None:
    if isinstance(target, ast.Name):
        return target.id
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
    ):
        return f"{target.value.id}.{target.attr}"
    return None
