"""A ``return`` between a condition on the way and the raise it guards: the condition
alone does not make the call raise. ``inspect.getfile`` tests ``ismodule(object)``,
returns ``object.__file__`` when there is one and only then raises "is a built-in
module": "the call raises `TypeError` when `ismodule(object)`" is false for every module
with a file. The record's guards hold only the ``if`` tests, so a requirement over such a
condition is said as one way out among other conditions (``partial``), not whole.

Read from the function's syntax tree, on the path from its body to the raise: a
statement before the path's one in the same body, after the outermost condition's line,
that holds a ``return``; for a raise in a ``try``'s ``else`` or handler, the ``try``
body and the other handlers too (``findsource``: ``except ClassFoundException: return
…`` before ``else: raise OSError``). The other branch of an ``if`` on the path is no
step before the raise (``if f == A: return … else: raise``); for a raise in a loop's
``else`` (``for k in obj: if k == key: return k`` / ``else: raise KeyError``), the loop's
body is. An ``else`` guard's line is its first statement's, which counts as after it.
Nothing is said where the tree is not read.
"""

from __future__ import annotations

import ast

from .file_trees import function_node
from .gathered import Gathered
from .guards import CONDITION_KINDS

__all__ = ["returns_before_raise"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef


def returns_before_raise(g: Gathered) -> bool:
    """A ``return`` on the way from the outermost condition to the raise."""
    lines = [int(x.get("line") or 0) for x in g.site.guards if x["kind"] in CONDITION_KINDS]
    func = g.func
    if not lines or min(lines) <= 0 or func is None or g.source_file is None:
        return False
    node = function_node(g.source_file, func.line, func.name)
    if node is None:
        return False
    return _before(node.body, g.site.line, min(lines))


def _before(body: list[ast.stmt], line: int, after: int) -> bool:
    for stmt in body:
        end = stmt.end_lineno or stmt.lineno
        if not stmt.lineno <= line <= end:
            if stmt.lineno >= after and end < line and _returns(stmt):
                return True
            continue
        if isinstance(stmt, ast.If):
            branch = stmt.body if _holds(stmt.body, line) else stmt.orelse
            return _before(branch, line, after)
        if isinstance(stmt, ast.Try):
            if _holds(stmt.body, line):
                return _before(stmt.body, line, after)
            if any(_returns(s) for s in stmt.body) or any(
                _returns(h) for h in stmt.handlers if not _holds(h.body, line)
            ):
                return True
            for part in (*(h.body for h in stmt.handlers), stmt.orelse, stmt.finalbody):
                if _holds(part, line):
                    return _before(part, line, after)
            return False
        if isinstance(stmt, (ast.For, ast.AsyncFor, ast.While)) and _holds(stmt.orelse, line):
            if any(_returns(s) for s in stmt.body):  # the loop runs before its ``else``
                return True
            return _before(stmt.orelse, line, after)
        for field in ("body", "orelse", "finalbody"):  # ``for``, ``while``, ``with``
            inner = getattr(stmt, field, None)
            if isinstance(inner, list) and _holds(inner, line):
                return _before(inner, line, after)
        return False
    return False


def _holds(body: list[ast.stmt], line: int) -> bool:
    return any(s.lineno <= line <= (s.end_lineno or s.lineno) for s in body)


def _returns(node: ast.AST) -> bool:
    """A ``return`` in ``node``, outside functions and classes defined in it."""
    stack = [node]
    while stack:
        current = stack.pop()
        if isinstance(current, ast.Return):
            return True
        for child in ast.iter_child_nodes(current):
            if not isinstance(
                child, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)
            ):
                stack.append(child)
    return False
