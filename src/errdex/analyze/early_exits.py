"""Early exits before a raise, as conditions the raise needs, for ruling callers out.

``gettext.translation(domain, …, fallback=False)`` raises ``FileNotFoundError`` only
past ``if fallback: return NullTranslations()``, the statement before the raise in the
same block; ``gettext.install`` calls it with ``fallback=True`` and so never gets there
(blind review 2026-12-06). An ``if COND:`` with no ``else`` whose block ends by leaving
(``return``, ``raise``, ``continue``, ``break``) makes the rest of its block, however
deep (``ZipFile.open``'s read path, in a ``try`` after ``if mode == 'w': return …``),
run only where ``not (COND)`` (a condition over ``self``: up to the first line that may
change ``self``'s state, :func:`_touched`): the chain walk (:func:`.walk_scope.with_exits`) tests that beside
the raise's enclosing conditions. The record's prose does not use it
(:mod:`.fall_through` words such exits itself).
"""

from __future__ import annotations

import ast

from .local_values import statement_blocks

__all__ = ["EarlyExit", "early_exits"]

#: (the ``if``'s line, ``COND`` as :func:`ast.unparse` writes it, the first and last line
#: of the rest of its block: a raise there, however deep, is past the ``if``).
EarlyExit = tuple[int, str, int, int]
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def early_exits(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[EarlyExit, ...]:
    """Each ``if COND: … leave`` (no ``else``) of the function's own blocks, with the
    lines of the rest of its block."""
    out: list[EarlyExit] = []
    for block in statement_blocks(func.body):
        for index, stmt in enumerate(block):
            if (
                isinstance(stmt, ast.If)
                and not stmt.orelse
                and isinstance(stmt.body[-1], _LEAVES)
                and index + 1 < len(block)
            ):
                try:
                    cond = ast.unparse(stmt.test)
                except (ValueError, RecursionError):
                    continue
                last = block[-1].end_lineno or block[-1].lineno
                if _reads_self(stmt.test):
                    last = min(last, _touched(block[index + 1 :], last))
                out.append((stmt.lineno, cond, (stmt.end_lineno or stmt.lineno) + 1, last))
    return tuple(out)


def _reads_self(test: ast.expr) -> bool:
    return any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(test))


def _touched(rest: list[ast.stmt], last: int) -> int:
    """The first line of ``rest`` where ``self``'s state may change: a store to an
    attribute of ``self``, or a call on ``self`` or passing it. ``ZipExtFile._read1``
    returns ``if self._eof or n <= 0``, then sets ``self._eof`` before it calls
    ``_update_crc``: the exit's condition does not hold there any more."""
    lines = [
        node.lineno
        for node in _nodes(rest)
        if (
            isinstance(node, ast.Attribute)
            and isinstance(node.ctx, (ast.Store, ast.Del))
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        )
        or (isinstance(node, ast.Call) and _reads_self(node))
    ]
    return min(lines, default=last)


def _nodes(stmts: list[ast.stmt]) -> list[ast.AST]:
    """The nodes of ``stmts`` but a ``raise``'s (its path goes no further: ``repr(self)``
    in its message changes nothing the rest reads) and a nested definition's."""
    out: list[ast.AST] = []
    todo: list[ast.AST] = list(stmts)
    while todo:
        node = todo.pop()
        if isinstance(
            node, (ast.Raise, ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
        ):
            continue
        out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out
