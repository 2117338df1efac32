"""An expectation inside a ``for`` loop, once per item of the loop.

``for bad in [b'2009-03-01', None, io.StringIO('2009-03-01')]: with
self.assertRaises(TypeError): cls.fromisoformat(bad)`` checks three inputs, each of which
may raise at another line; the loop cut as it stands stops at the first raise, so only the
first item's site was ever reached. Each item is also a snippet of its own, the loop's
variable bound to it (``bad = None``): what a user would write for that one input. Only
the loop nearest the expectation is taken apart, and only one whose body has no
``break``/``continue`` of its own (they mean nothing outside the loop).
"""

from __future__ import annotations

import ast
from collections.abc import Iterator

__all__ = ["MAX_ITEMS", "item_variants"]

#: Items of a literal list or tuple taken one by one; of any other iterable, the first few.
MAX_ITEMS = 6
_OTHER_ITEMS = 3

Outer = list[tuple[ast.stmt, list[ast.stmt]]]


def item_variants(outer: Outer) -> Iterator[Outer]:
    """``outer`` (the statements around an expectation, outermost first) with its innermost
    ``for`` replaced by the assignment of one item to the loop's target, per item."""
    at = next((i for i in range(len(outer) - 1, -1, -1) if isinstance(outer[i][0], ast.For)), None)
    if at is None:
        return
    loop = outer[at][0]
    assert isinstance(loop, ast.For)
    if _jumps(loop.body):
        return
    for value in _items(loop.iter):
        assign = ast.Assign(
            targets=[loop.target], value=value, lineno=loop.lineno, col_offset=loop.col_offset
        )
        yield [*outer[:at], (assign, outer[at][1]), *outer[at + 1 :]]


def _items(iterable: ast.expr) -> list[ast.expr]:
    if isinstance(iterable, (ast.List, ast.Tuple)):
        if any(isinstance(e, ast.Starred) for e in iterable.elts):
            return []
        return list(iterable.elts[:MAX_ITEMS])
    as_list = ast.Call(func=ast.Name("list", ast.Load()), args=[iterable], keywords=[])
    return [ast.Subscript(as_list, ast.Constant(k), ast.Load()) for k in range(_OTHER_ITEMS)]


def _jumps(body: list[ast.stmt]) -> bool:
    """A ``break`` or ``continue`` of this loop (not of a loop or function inside it)."""
    todo: list[ast.AST] = list(body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Break, ast.Continue)):
            return True
        if isinstance(node, (ast.For, ast.AsyncFor, ast.While, ast.FunctionDef, ast.Lambda)):
            continue
        if isinstance(node, (ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return False
