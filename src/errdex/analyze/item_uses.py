"""Where a body may change a list it holds: the uses that surely leave its items alone,
and every other.

A list known to hold an item (:mod:`.filled_locals`) stays so only while nothing can
take one out. A use is taken as harmless only when it is one of a few known readers: a
test or comparison, iteration, an item read, a method that adds or reads
(``append``, ``count``), a builtin that reads (``len``, ``sorted``), or a predicate
named ``is_…`` or one of a few known ones (``futures.isfuture(fs)``). Anything else may empty it: another method
(``pop``, ``clear``), an item store or ``del``, and a use that lets the object escape
where it cannot be followed (``box = out``, ``self.a = a``, ``yield a``, ``return a``,
a display holding it). A call handed it is told apart: the caller may trust the one call
it makes itself (:func:`item_uses`).
"""

from __future__ import annotations

import ast
from dataclasses import dataclass, field

__all__ = ["ADDING", "ItemUses", "item_uses", "reader"]

#: Methods that add an item whatever their argument.
ADDING = frozenset({"append", "add", "insert", "appendleft"})
#: Methods that leave the items where they are.
_READING = frozenset({"count", "index", "copy", "extend", "update", "__len__"})
#: Builtins that read what they are handed and change nothing.
_READERS = frozenset(
    {
        "len", "enumerate", "list", "tuple", "set", "frozenset", "sorted", "iter",
        "any", "all", "sum", "min", "max", "reversed", "zip", "isinstance", "repr", "str",
        "bool", "print", "type", "id", "callable",
    }
)  # fmt: skip
#: Predicates by their conventional names (``inspect``, ``asyncio``'s own).
_PREDICATES = frozenset(
    {
        "isfuture", "iscoroutine", "iscoroutinefunction", "isawaitable", "isclass",
        "isfunction", "ismethod", "isgenerator", "isabstract", "issubclass", "isinstance",
    }
)  # fmt: skip
#: (``a or b`` is left out: its value may be the list itself.)
_TESTS = (ast.Compare, ast.UnaryOp, ast.FormattedValue)


@dataclass
class ItemUses:
    """How a body uses each of some names besides harmless reads."""

    #: Name -> lines of uses that may take an item out or let the object escape.
    changes: dict[str, list[int]] = field(default_factory=dict)
    #: Name -> the calls (other than readers) handed it.
    calls: dict[str, list[ast.Call]] = field(default_factory=dict)


def item_uses(node: ast.AST, names: set[str]) -> ItemUses:
    """The uses of ``names`` (loaded, nested scopes included) in ``node``'s body."""
    found = ItemUses()
    parents: dict[int, ast.AST] = {}
    for above in ast.walk(node):
        for below in ast.iter_child_nodes(above):
            parents[id(below)] = above
    for name in ast.walk(node):
        if not isinstance(name, ast.Name) or name.id not in names:
            continue
        if not isinstance(name.ctx, ast.Load):
            continue  # a binding: the caller counts those
        parent: ast.AST | None = parents.get(id(name))
        child: ast.AST = name
        if isinstance(parent, (ast.Starred, ast.keyword)):
            child, parent = parent, parents.get(id(parent))
        kind = _kind(child, parent)
        if kind == "call" and isinstance(parent, ast.Call):
            found.calls.setdefault(name.id, []).append(parent)
        elif kind == "change":
            found.changes.setdefault(name.id, []).append(name.lineno)
    return found


def _kind(child: ast.AST, parent: ast.AST | None) -> str:
    """``read``, ``call`` (handed to a call that is no known reader) or ``change``."""
    if isinstance(parent, ast.Attribute):
        return "read" if parent.attr in ADDING | _READING else "change"
    if isinstance(parent, ast.Call):
        if child is parent.func:
            return "change"  # called: what it does is not known
        return "read" if reader(parent.func) else "call"
    if isinstance(parent, ast.Subscript):
        return "read" if child is parent.value and isinstance(parent.ctx, ast.Load) else "change"
    if isinstance(parent, _TESTS):
        return "read" if not isinstance(parent, ast.UnaryOp) or _not(parent) else "change"
    if isinstance(parent, (ast.If, ast.While, ast.IfExp, ast.Assert)):
        return "read" if child is parent.test else "change"
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return "read" if child is parent.iter else "change"
    return "change"


def _not(node: ast.UnaryOp) -> bool:
    return isinstance(node.op, ast.Not)


def reader(func: ast.expr) -> bool:
    """A builtin that only reads, or a predicate by its name."""
    name = func.id if isinstance(func, ast.Name) else getattr(func, "attr", "")
    if isinstance(func, ast.Name) and name in _READERS:
        return True
    return name.startswith("is_") or name in _PREDICATES
