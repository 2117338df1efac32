"""A module's own ``__getattr__(name)`` (PEP 562) that supplies a few names on demand
and raises ``AttributeError`` for every other: ``io.__getattr__`` returns ``OpenWrapper``
and raises "module 'io' has no attribute …" otherwise. Python runs it only for a name
the module does not bind, so the raise means the name read (``io.x``, ``from io import
x``) is none of the module's: errdex said "found no fix" there. The names it supplies
are read from its body: each ``if name == 'X'`` (or ``name in (…)``) that returns.
"""

from __future__ import annotations

import ast

from .file_trees import function_node
from .gathered import Gathered, class_phrase
from .guards import code, has_private

__all__ = ["listed", "module_getattr_fix", "supplied_names"]

#: A solution and the evidence keys it rests on.
Remedy = tuple[str, list[str]]

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def module_getattr_fix(g: Gathered) -> Remedy | None:
    """For a raise at the top level of a public module's ``__getattr__``; None elsewhere."""
    supplied = supplied_names(g)
    if supplied is None:
        return None
    module = g.site.module
    which = (
        "supplies no name of its own"
        if not supplied
        else "supplies only " + listed([code(n) for n in supplied])
    )
    return (
        f"Read only a name {code(module)} has: Python runs {code(f'{module}.__getattr__')} "
        f"for a name the module does not define ({code(f'{module}.x')}, "
        f"{code(f'from {module} import x')}), and it {which} and raises {class_phrase(g)} "
        f"for any other; check the name's spelling against {code(f'dir({module})')}, "
        "and that this version of the module has it.",
        ["site.function", "sourceCode"],
    )


def supplied_names(g: Gathered) -> list[str] | None:
    """The names a public module's own ``__getattr__`` supplies, where the site is the
    ``AttributeError`` it raises for every other name; None for any other site."""
    func, module = g.func, g.site.module
    if func is None or func.name != "__getattr__" or func.cls is not None or func.parent:
        return None
    if has_private(module) or g.source_file is None or g.site.error_class != "AttributeError":
        return None
    node = function_node(g.source_file, func.line, func.name)
    if node is None or len(node.args.args) != 1:
        return None
    return _supplied(node, node.args.args[0].arg, g.site.line)


def listed(items: list[str]) -> str:
    """``a``, ``a and b``, ``a, b and c``."""
    return f"{', '.join(items[:-1])} and {items[-1]}" if len(items) > 1 else items[0]


def _supplied(node: _Function, param: str, line: int) -> list[str] | None:
    """The names each top-level ``if`` before the raise at ``line`` returns for, in order;
    None where a statement other than such an ``if`` (or a ``global``) comes first, or
    the raise is not the body's last statement."""
    body = [s for s in node.body if not _docstring(s)]
    last = body[-1] if body else None
    if isinstance(last, ast.If) and len(last.orelse) == 1:  # ``if …: return … else: raise``
        body = [*body[:-1], ast.If(test=last.test, body=last.body, orelse=[]), last.orelse[0]]
    if not body or not isinstance(body[-1], ast.Raise) or body[-1].lineno != line:
        return None
    names: list[str] = []
    for stmt in body[:-1]:
        if isinstance(stmt, ast.Global):
            continue
        if not isinstance(stmt, ast.If) or stmt.orelse or not _returns(stmt.body):
            return None
        tested = _tested(stmt.test, param)
        if tested is None:
            return None
        names.extend(n for n in tested if n not in names)
    return names


def _tested(test: ast.expr, param: str) -> list[str] | None:
    """``name == 'X'`` -> ``[X]``; ``name in ('X', 'Y')`` -> ``[X, Y]``; None otherwise."""
    if not (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.left, ast.Name)
        and test.left.id == param
    ):
        return None
    op, right = test.ops[0], test.comparators[0]
    if isinstance(op, ast.Eq):
        items = [right]
    elif isinstance(op, ast.In) and isinstance(right, (ast.Tuple, ast.List, ast.Set)):
        items = list(right.elts)
    else:
        return None
    found = [i.value for i in items if isinstance(i, ast.Constant) and isinstance(i.value, str)]
    return found if len(found) == len(items) else None


def _returns(body: list[ast.stmt]) -> bool:
    return bool(body) and isinstance(body[-1], ast.Return)


def _docstring(stmt: ast.stmt) -> bool:
    return (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Constant)
        and isinstance(stmt.value.value, str)
    )
