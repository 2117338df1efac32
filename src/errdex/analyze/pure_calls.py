"""The module's functions that change nothing a caller holds, by name.

``asyncio.base_events.BaseEventLoop.sock_sendfile`` raises where ``self._debug and
sock.gettimeout() != 0``, then calls ``_check_ssl_socket(sock)`` and
``self._check_sendfile_params(sock, …)`` before its fallback reaches ``sock_sendall``'s
own such raise: both only test their arguments, so the condition is still false there
(run: a blocking socket raises at ``sock_sendfile``'s line, a non-blocking one not at
all). A function is taken to change nothing when no definition of its name in the
module stores or deletes an attribute or item, declares a name ``global`` or
``nonlocal``, or calls anything but a reading builtin or another such function (calls
in a ``raise`` statement build the exception, and count for nothing).
"""

from __future__ import annotations

import ast

__all__ = ["READERS", "call_name", "pure_call", "pure_functions"]

#: Builtins that do not change the arguments they are passed.
READERS = frozenset(
    {
        "len", "isinstance", "issubclass", "type", "id", "str", "repr", "hash", "bool",
        "int", "float", "callable", "hasattr", "getattr", "format", "print", "abs",
        "min", "max", "sorted", "tuple", "list", "set", "frozenset", "dict", "any", "all",
    }
)  # fmt: skip
_FUNCS = (ast.FunctionDef, ast.AsyncFunctionDef)


def call_name(call: ast.Call) -> str:
    """The name a call is made by: ``f`` of ``f(x)`` and of ``self.f(x)``."""
    func = call.func
    return (
        func.id
        if isinstance(func, ast.Name)
        else func.attr
        if isinstance(func, ast.Attribute)
        else ""
    )


def pure_call(call: ast.Call, pure: frozenset[str]) -> bool:
    """Whether ``call`` changes nothing: a reading builtin called by its name, or one of
    the module's ``pure`` functions."""
    name = call_name(call)
    return (isinstance(call.func, ast.Name) and name in READERS) or name in pure


def pure_functions(tree: ast.Module) -> frozenset[str]:
    """Names every definition of which in the module changes nothing (see above)."""
    calls: dict[str, list[ast.Call]] = {}
    impure: set[str] = set()
    for func in (n for n in ast.walk(tree) if isinstance(n, _FUNCS)):
        made = calls.setdefault(func.name, [])
        for node in _nodes(func.body):
            if isinstance(node, (ast.Global, ast.Nonlocal)) or (
                isinstance(node, (ast.Attribute, ast.Subscript))
                and isinstance(node.ctx, (ast.Store, ast.Del))
            ):
                impure.add(func.name)
            elif isinstance(node, ast.Call):
                made.append(node)
    pure = {name for name in calls if name not in impure}
    while True:
        kept = {n for n in pure if all(pure_call(c, frozenset(pure)) for c in calls[n])}
        if kept == pure:
            return frozenset(pure)
        pure = kept


def _nodes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``stmts`` but a ``raise``'s (its calls build the exception)."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if not isinstance(node, ast.Raise):
            out.append(node)
            todo.extend(ast.iter_child_nodes(node))
    return out
