"""Whether a function's ``**kwargs`` may gain keys the walk does not see.

The entry-point walk holds a ``**kwargs`` the body only removes items from to the keys
the call passes (:class:`.fixed_args.KeysAtMost`). Keys stored by ``kwargs["x"] = …`` or
``kwargs.update(…)`` are seen (``FuncFacts.filled``); but ``opts = kwargs; opts["x"] =
…``, ``_fill(kwargs)``, ``dict.update(kwargs, x=…)`` or a nested function storing into
it add keys no fact names (a read-only review of session 38). The mapping is trusted only
when every use of it is one of a few that add nothing: an item read, store or ``del``, a
method in :data:`_METHODS`, a test (``if args or kwargs:`` too), ``in``, iteration, a builtin that reads
(``len(kwargs)``, ``", ".join(kwargs)``: :func:`.item_uses.reader`), a formatted value,
``**kwargs`` unpacked into a call or a display (a copy); and no nested function or class
refers to it.
"""

from __future__ import annotations

import ast

from .item_uses import reader

__all__ = ["escaped_kwargs"]

#: Methods of a ``dict`` that remove or read items, or add them where ``filled`` sees it.
_METHODS = frozenset(
    {"pop", "popitem", "clear", "get", "items", "keys", "values", "update", "setdefault"}
)
_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def escaped_kwargs(node: ast.FunctionDef | ast.AsyncFunctionDef) -> frozenset[str]:
    """The function's ``**kwargs`` name when some use of it may add keys unseen; else
    empty."""
    kwarg = node.args.kwarg
    if kwarg is None:
        return frozenset()
    name = kwarg.arg
    tested = _tested(node)
    escapes = any(_escapes(stmt, name, isinstance(stmt, _SCOPES), tested) for stmt in node.body)
    return frozenset({name}) if escapes else frozenset()


def _tested(node: ast.AST) -> set[int]:
    """The ids of ``and``/``or`` expressions only tested for truth (``if args or
    kwargs:``), whose value is never kept."""
    todo = [
        n.test if isinstance(n, (ast.If, ast.While, ast.Assert, ast.IfExp)) else n.operand
        for n in ast.walk(node)
        if isinstance(n, (ast.If, ast.While, ast.Assert, ast.IfExp))
        or (isinstance(n, ast.UnaryOp) and isinstance(n.op, ast.Not))
    ]
    out: set[int] = set()
    while todo:
        test = todo.pop()
        if isinstance(test, ast.BoolOp):
            out.add(id(test))
            todo.extend(test.values)
    return out


def _escapes(node: ast.AST, name: str, nested: bool, tested: set[int]) -> bool:
    """Whether some use of ``name`` under ``node`` may add keys (``nested``: inside a
    nested function or class)."""
    for child in ast.iter_child_nodes(node):
        if isinstance(child, ast.Name) and child.id == name:
            if nested or not _harmless(child, node, tested):
                return True
        elif _escapes(child, name, nested or isinstance(child, _SCOPES), tested):
            return True
    return False


def _harmless(name: ast.Name, parent: ast.AST, tested: set[int]) -> bool:
    """A use that adds no key the walk does not see."""
    if isinstance(parent, ast.BoolOp):
        return id(parent) in tested
    if not isinstance(name.ctx, ast.Load):
        return True  # a binding: :func:`.chain_funcs.rebound_before` reads those
    if isinstance(parent, ast.Attribute):
        return parent.attr in _METHODS
    if isinstance(parent, ast.Subscript):
        return parent.value is name
    if isinstance(parent, ast.keyword):
        return parent.arg is None  # ``f(**kwargs)``: the callee gets a copy
    if isinstance(parent, ast.Dict):
        return any(k is None and v is name for k, v in zip(parent.keys, parent.values, strict=True))
    if isinstance(parent, ast.Call):
        return name in parent.args and (reader(parent.func) or _joined(parent.func))
    if isinstance(parent, (ast.Compare, ast.FormattedValue)):
        return True
    if isinstance(parent, ast.UnaryOp):
        return isinstance(parent.op, ast.Not)
    if isinstance(parent, (ast.If, ast.While, ast.Assert, ast.IfExp)):
        return parent.test is name
    if isinstance(parent, (ast.For, ast.AsyncFor, ast.comprehension)):
        return parent.iter is name
    return False


def _joined(func: ast.expr) -> bool:
    """``", ".join``: a string's join reads the keys."""
    return (
        isinstance(func, ast.Attribute)
        and func.attr == "join"
        and isinstance(func.value, ast.Constant)
        and isinstance(func.value.value, str)
    )
