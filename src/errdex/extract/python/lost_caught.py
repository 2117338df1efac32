"""``raise e`` in a function defined under ``except … as e``: a ``NameError``, not ``e``.

numpy's ``typing/mypy_plugin.py``::

    except ModuleNotFoundError as e:
        def plugin(version): raise e

Python deletes ``e`` when the handler ends, so a later call of ``plugin`` finds no ``e``:
``NameError: name 'e' is not defined`` at module level, ``cannot access free variable 'e'
where it is not associated with a value in enclosing scope`` in a function (3.11's words).
Read so only where nothing else could give ``e`` a value: the function binds no ``e``
(nor declares it global or nonlocal), the handler is the one binding of ``e`` in the
scope enclosing the function, the ``def`` lies in the handler with no function or class
between them, carries no decorator, the handler's body names the function at most in
``return f`` (a call there, while ``e`` still holds the exception, would raise it), runs
nothing after the ``def`` that could call it by another way (a call of ``g`` that calls
``f``, ``getattr(module, "f")()``, an operator, an attribute, an ``await``; no loop or
``with`` around it), and the enclosing scope sets no name through ``globals()`` and kin.
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["deleted_name_message", "handler_names"]

_SCOPES = (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
_FUNCTIONS = (ast.FunctionDef, ast.AsyncFunctionDef)
#: What runs no code of the program's own when a handler executes it.
_INERT = (
    ast.Name, ast.Constant, ast.expr_context, ast.Pass, ast.Return, ast.Assign, ast.Expr,
    ast.Tuple, ast.List, ast.Break, ast.Continue, ast.Global, ast.Nonlocal, ast.If,
    ast.FunctionDef, ast.AsyncFunctionDef, ast.arguments, ast.arg,
)  # fmt: skip
_REFLECTIVE = frozenset({"globals", "locals", "vars", "exec", "eval", "setattr"})


def deleted_name_message(tree: ast.Module | None, func: ast.AST | None, name: str) -> str | None:
    """The ``NameError`` message a ``raise name`` in ``func`` prints, when ``name`` is the
    enclosing handler's ``as`` name, deleted before the function can run; else None."""
    if tree is None or not isinstance(func, _FUNCTIONS) or func.decorator_list:
        return None
    if _binds(func, name):
        return None
    path = _path(tree, func)
    if path is None:
        return None
    handler = next(
        (p for p in reversed(path) if isinstance(p, ast.ExceptHandler) and p.name == name), None
    )
    if handler is None:
        return None
    between = path[path.index(handler) + 1 :]
    if any(isinstance(p, _SCOPES) for p in between):
        return None
    outer = next((p for p in reversed(path[: path.index(handler)]) if isinstance(p, _SCOPES)), tree)
    if not isinstance(outer, (ast.Module, *_FUNCTIONS)) or _count_bindings(outer, name) != 1:
        return None
    handed = {id(s.value) for s in ast.walk(handler) if isinstance(s, ast.Return) and s.value}
    if any(
        isinstance(n, ast.Name) and n.id == func.name and id(n) not in handed
        for stmt in handler.body
        for n in ast.walk(stmt)
    ):
        return None  # named in the handler, maybe called while ``name`` holds the exception
    if not _inert_after(handler, func, between) or _reflective(outer):
        return None
    if isinstance(outer, ast.Module):
        return f"name '{name}' is not defined"
    return (
        f"cannot access free variable '{name}' where it is not associated with a value "
        "in enclosing scope"
    )


def _inert_after(
    handler: ast.ExceptHandler, func: ast.FunctionDef | ast.AsyncFunctionDef, between: list[ast.AST]
) -> bool:
    """Whether nothing the handler runs after the ``def`` can run other code: a call (of a
    function that calls ``func``, or ``getattr(module, "f")()``), an attribute, an operator
    or an ``await`` could call it while ``e`` still holds the exception. A loop or ``with``
    around the ``def`` runs code after it too."""
    if any(
        isinstance(p, (ast.For, ast.AsyncFor, ast.While, ast.With, ast.AsyncWith)) for p in between
    ):
        return False
    inside = {id(n) for n in ast.walk(func)}
    start = (func.lineno, func.col_offset)
    for node in ast.walk(handler):
        if id(node) in inside or isinstance(node, (ast.ExceptHandler, *_INERT)):
            continue
        where = (getattr(node, "lineno", 0), getattr(node, "col_offset", 0))
        if where >= start:
            return False
    return True


def _reflective(outer: ast.AST) -> bool:
    """Whether ``outer`` may bind names other than by statements (``globals()["e"] = …``,
    ``setattr(sys.modules[__name__], "e", …)``): its ``e`` may then be set again."""
    return any(
        (isinstance(n, ast.Name) and n.id in _REFLECTIVE)
        or (isinstance(n, ast.Attribute) and n.attr in ("__dict__", "modules"))
        for n in ast.walk(outer)
    )


def handler_names(tree: ast.Module) -> frozenset[str]:
    """The names every ``except … as name`` of the module binds."""
    return frozenset(n.name for n in ast.walk(tree) if isinstance(n, ast.ExceptHandler) and n.name)


def _path(node: ast.AST, target: ast.AST) -> list[ast.AST] | None:
    """The nodes from ``node`` down to ``target``'s parent (statements and handlers)."""
    for child in ast.iter_child_nodes(node):
        if child is target:
            return [node]
        if isinstance(child, (ast.stmt, ast.ExceptHandler, ast.match_case)):
            found = _path(child, target)
            if found is not None:
                return [node, *found]
    return None


def _binds(func: ast.FunctionDef | ast.AsyncFunctionDef, name: str) -> bool:
    """Whether ``func``'s own scope binds ``name`` (parameters too)."""
    return _count_bindings(func, name) > 0


def _count_bindings(scope: ast.AST, name: str) -> int:
    """How many times ``scope`` binds ``name``: its parameters, then its body's bindings."""
    count = sum(1 for _ in _bindings(scope, name))
    if isinstance(scope, _FUNCTIONS):
        args = scope.args
        params = [*args.posonlyargs, *args.args, *args.kwonlyargs, args.vararg, args.kwarg]
        count += sum(1 for a in params if a is not None and a.arg == name)
    return count


def _bindings(scope: ast.AST, name: str) -> Iterator[ast.AST]:
    """Each node binding ``name`` in ``scope``'s own body (nested scopes left out, but for
    their ``def``/``class`` name and any ``global``/``nonlocal`` of it, which may bind
    it from there)."""
    todo = list(ast.iter_child_nodes(scope))
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Global, ast.Nonlocal)) and name in node.names:
            yield node
        elif isinstance(node, _SCOPES):
            if getattr(node, "name", None) == name:
                yield node
            # a nested scope's own bindings are its own, unless it declares the name
            todo.extend(n for n in ast.walk(node) if isinstance(n, (ast.Global, ast.Nonlocal)))
            continue
        elif (
            (isinstance(node, ast.Name) and node.id == name and not isinstance(node.ctx, ast.Load))
            or (isinstance(node, ast.ExceptHandler) and node.name == name)
            or (isinstance(node, ast.alias) and (node.asname or node.name.split(".")[0]) == name)
            or (isinstance(node, (ast.MatchAs, ast.MatchStar)) and node.name == name)
            or (isinstance(node, ast.MatchMapping) and node.rest == name)
        ):
            yield node
        todo.extend(ast.iter_child_nodes(node))
