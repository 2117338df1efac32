"""Where a condition a function tested may stop holding, for ruling callers out.

``def add(cache, k): if k in cache: return`` / ``cache[k] = 1`` / ``check(cache, k)``:
past the ``return`` ``k in cache`` is false, but the item store makes it true again
before ``check`` runs (``add({}, 'a')`` reaches ``check``'s raise). A condition holds
at a later line only while nothing between may change what it reads: a store to, or a
``del`` of, a name it reads or an attribute or item under one (``+=``, ``:=``, ``for``
targets too), or a call that mentions one (a method called on it, or it passed on),
but a builtin that only reads. A name the condition reads only by identity (``x is
None``, ``isinstance(x, T)``) changes only by a store to the name itself; so does one
read only through attributes nothing in the module changes (:func:`settled_attributes`:
``xml.dom.minidom``'s ``Node.insertBefore`` returns for ``newChild.nodeType ==
self.DOCUMENT_FRAGMENT_NODE``, then calls ``removeChild(newChild)`` before
``appendChild``, which cannot make a node a fragment).
"""

from __future__ import annotations

import ast
from typing import NamedTuple
from weakref import WeakKeyDictionary

from .pure_calls import pure_call, pure_functions

__all__ = ["Changes", "changed_at", "module_changes", "settled_attributes"]


class Changes(NamedTuple):
    """What the module's own code may change: attribute names, and the names of its
    functions that change nothing (:mod:`.pure_calls`)."""

    attributes: frozenset[str]
    pure: frozenset[str]


def module_changes(tree: ast.Module) -> Changes:
    return Changes(settled_attributes(tree), pure_functions(tree))


_SKIP = (ast.Raise, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)


def changed_at(
    test: ast.expr, rest: list[ast.stmt], last: int, changed: Changes | None = None
) -> int:
    """The first line of ``rest`` where what ``test`` reads may change (``last`` where
    nothing may); ``changed``: what the module may change (None: anything)."""
    names = {n.id for n in ast.walk(test) if isinstance(n, ast.Name)}
    attributes = None if changed is None else changed.attributes
    kept = names - _identity_only(test) - _through_settled(test, attributes)
    pure = frozenset() if changed is None else changed.pure
    for stmt in rest:  # in line order: the first statement that may change it has the line
        lines = [
            getattr(node, "lineno", last)
            for node in _stmt_nodes(stmt)
            if _changes(node, names, kept, pure)
        ]
        if lines:
            return min(lines)
    return last


def _changes(node: ast.AST, names: set[str], kept: set[str], pure: frozenset[str]) -> bool:
    """Whether ``node`` may change one of ``names`` (rebinding) or what one of ``kept``
    holds (a store under it, or a call that mentions it)."""
    if isinstance(node, ast.Name) and isinstance(node.ctx, (ast.Store, ast.Del)):
        return node.id in names
    if isinstance(node, ast.ExceptHandler):
        return node.name in names
    if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(
        node.ctx, (ast.Store, ast.Del)
    ):
        return _root(node) in kept
    if isinstance(node, ast.Call):
        if pure_call(node, pure):
            return False
        return any(isinstance(n, ast.Name) and n.id in kept for n in ast.walk(node))
    return False


def _may_change(node: ast.AST) -> bool:
    """Whether :func:`_changes` may say yes of ``node``, whatever the names."""
    if isinstance(node, (ast.Name, ast.Attribute, ast.Subscript)):
        return isinstance(node.ctx, (ast.Store, ast.Del))
    return isinstance(node, (ast.ExceptHandler, ast.Call))


def _root(node: ast.expr) -> str:
    while isinstance(node, (ast.Attribute, ast.Subscript, ast.Starred)):
        node = node.value
    return node.id if isinstance(node, ast.Name) else ""


def _identity_only(test: ast.expr) -> set[str]:
    """Names ``test`` reads only as an operand of ``is``/``is not`` or the first
    argument of ``isinstance``/``callable``: no mutation changes those."""
    plain: set[int] = set()
    for node in ast.walk(test):
        if isinstance(node, ast.Compare) and all(
            isinstance(op, (ast.Is, ast.IsNot)) for op in node.ops
        ):
            plain.update(id(x) for x in (node.left, *node.comparators) if isinstance(x, ast.Name))
        elif (
            isinstance(node, ast.Call)
            and isinstance(node.func, ast.Name)
            and node.func.id in ("isinstance", "callable")
            and node.args
            and isinstance(node.args[0], ast.Name)
        ):
            plain.add(id(node.args[0]))
    found: dict[str, bool] = {}
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            found[node.id] = found.get(node.id, True) and id(node) in plain
    return {name for name, only in found.items() if only}


def settled_attributes(tree: ast.Module) -> frozenset[str]:
    """The attribute names the module may change the value of, or what it holds: one
    on the way to a store's or a ``del``'s target, one whose method it calls, one it
    passes to a call (the rest, ``nodeType``, only read, stay as they are)."""
    out: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, (ast.Attribute, ast.Subscript)) and isinstance(
            node.ctx, (ast.Store, ast.Del)
        ):
            out.update(a.attr for a in ast.walk(node) if isinstance(a, ast.Attribute))
        elif isinstance(node, ast.Call):
            if isinstance(node.func, ast.Attribute) and isinstance(node.func.value, ast.Attribute):
                out.add(node.func.value.attr)
            args = [*node.args, *(k.value for k in node.keywords)]
            out.update(a.attr for a in args if isinstance(a, ast.Attribute))
    return frozenset(out)


def _through_settled(test: ast.expr, changed: frozenset[str] | None) -> set[str]:
    """Names ``test`` reads only as ``name.attr`` with an ``attr`` not in ``changed``."""
    if changed is None:
        return set()
    parents = {id(c): n for n in ast.walk(test) for c in ast.iter_child_nodes(n)}
    found: dict[str, bool] = {}
    for node in ast.walk(test):
        if isinstance(node, ast.Name):
            up = parents.get(id(node))
            settled = isinstance(up, ast.Attribute) and up.attr not in changed
            found[node.id] = found.get(node.id, True) and settled
    return {name for name, only in found.items() if only}


#: A statement's nodes :func:`_changes` may say yes of, kept while its tree lives (a
#: tree parsed again is new statements). Each ``if … leave`` of a block asks for the
#: rest of the block (:mod:`.early_exits`, :mod:`.early_raises`): a function of 3,000
#: such ``if``s walked its rest 3,000 times.
_STMT_NODES: WeakKeyDictionary[ast.stmt, tuple[ast.AST, ...]] = WeakKeyDictionary()


def _stmt_nodes(stmt: ast.stmt) -> tuple[ast.AST, ...]:
    """The nodes of one statement :func:`_changes` may find a change in (a store, a
    ``del``, a handler, a call), memoised by the statement."""
    found = _STMT_NODES.get(stmt)
    if found is None:
        found = _STMT_NODES[stmt] = tuple(node for node in _nodes([stmt]) if _may_change(node))
    return found


def _nodes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``stmts`` but a ``raise``'s (its path goes no further: ``repr(self)``
    in its message changes nothing the rest reads) and a nested definition's."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(node, _SKIP):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out
