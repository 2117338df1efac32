"""Early exits before a raise, as conditions the raise needs, for ruling callers out.

``gettext.translation(domain, …, fallback=False)`` raises ``FileNotFoundError`` only
past ``if fallback: return NullTranslations()``, the statement before the raise in the
same block; ``gettext.install`` calls it with ``fallback=True`` and so never gets there
(blind review 2026-12-06). An ``if COND:`` with no ``else`` whose block ends by leaving
(``return``, ``raise``, ``continue``, ``break``) makes each later statement of its own
block run only where ``not (COND)``: the chain walk (:func:`.walk_scope.with_exits`) tests that beside
the raise's enclosing conditions. The record's prose does not use it
(:mod:`.fall_through` words such exits itself).
"""

from __future__ import annotations

import ast

from .local_values import statement_blocks

__all__ = ["EarlyExit", "early_exits"]

#: (the ``if``'s line, ``COND`` as :func:`ast.unparse` writes it, the first lines of the
#: statements after it in its block).
EarlyExit = tuple[int, str, tuple[int, ...]]
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def early_exits(func: ast.FunctionDef | ast.AsyncFunctionDef) -> tuple[EarlyExit, ...]:
    """Each ``if COND: … leave`` (no ``else``) of the function's own blocks, with the
    statements after it in the same block."""
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
                out.append((stmt.lineno, cond, tuple(s.lineno for s in block[index + 1 :])))
    return tuple(out)
