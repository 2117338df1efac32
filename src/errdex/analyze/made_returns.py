"""Whether a function's every ``return`` gives a new object on every path.

``FuncFacts.returns`` reads ``return value`` as the class call ``value`` was bound to
once, and so took ``def coerce(value): if isinstance(value, str): value = _Group();
return value`` (the argument, unless a string) and ``def get(): global _current; if
_current is None: _current = _Impl(); return _current`` (the cached object, or what
``install`` set) for factories of a new ``_Group`` / ``_Impl`` (review rr5: false ways
in, :mod:`.made_ways`). Here the syntax decides: each ``return`` is a call, or a local
name bound once, by ``name = call(...)`` at the top of the body before that ``return``;
a parameter, a ``global`` or ``nonlocal`` name, or one bound anywhere else is not.
The body must also end with a ``return`` or ``raise``: falling off it returns ``None``.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["fresh_returns"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
_Scope = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)


def fresh_returns(node: _Function) -> bool:
    """Whether every ``return`` of ``node`` gives the object a call just made."""
    if not node.body or not isinstance(node.body[-1], (ast.Return, ast.Raise)):
        return False
    returns = [n for n in _own_nodes(node) if isinstance(n, ast.Return)]
    return bool(returns) and all(_fresh(node, r) for r in returns)


def _fresh(node: _Function, ret: ast.Return) -> bool:
    value = ret.value
    if isinstance(value, ast.Call):
        return True
    if not isinstance(value, ast.Name):
        return False
    name = value.id
    args = node.args
    params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
    if any(p is not None and p.arg == name for p in params):
        return False
    if _declared(node, name):
        return False
    binds = [
        n
        for n in _own_nodes(node)
        if isinstance(n, ast.Name) and n.id == name and not isinstance(n.ctx, ast.Load)
    ]
    if len(binds) != 1 or any(_names(n) == name for n in _own_nodes(node)):
        return False
    top = next(
        (
            s
            for s in node.body
            if isinstance(s, ast.Assign)
            and len(s.targets) == 1
            and s.targets[0] is binds[0]
            and isinstance(s.value, ast.Call)
        ),
        None,
    )
    return top is not None and (top.end_lineno or top.lineno) < ret.lineno


def _names(node: ast.AST) -> str | None:
    """The name a ``def``, ``class``, ``except … as``, import or ``case`` capture binds."""
    if isinstance(node, ast.alias):
        return node.asname or node.name.partition(".")[0]
    found = getattr(node, "name", None)
    return found if isinstance(found, str) and not isinstance(node, ast.Name) else None


def _declared(node: _Function, name: str) -> bool:
    """Whether ``name`` is ``global`` or ``nonlocal`` in ``node`` or in a function
    nested in it (which may then bind it)."""
    return any(
        isinstance(n, (ast.Global, ast.Nonlocal)) and name in n.names for n in ast.walk(node)
    )


def _own_nodes(node: _Function) -> Iterator[ast.AST]:
    """The nodes of ``node``'s body, not those of functions or classes nested in it."""
    stack: list[ast.AST] = list(node.body)
    while stack:
        here = stack.pop()
        yield here
        if not isinstance(here, _Scope):
            stack.extend(ast.iter_child_nodes(here))
