"""Early exits before a raise, as conditions the raise needs, for ruling callers out.

``gettext.translation(domain, …, fallback=False)`` raises ``FileNotFoundError`` only
past ``if fallback: return NullTranslations()``, the statement before the raise in the
same block; ``gettext.install`` calls it with ``fallback=True`` and so never gets there
(blind review 2026-12-06). An ``if COND:`` with no ``else`` whose block ends by leaving
(``return``, ``raise``, ``continue``, ``break``) makes the rest of its block, however
deep (``ZipFile.open``'s read path, in a ``try`` after ``if mode == 'w': return …``),
run only where ``not (COND)``, up to the first line that may change what ``COND``
reads (:func:`.held_reads.changed_at`): the chain walk (:func:`.walk_scope.with_exits`) tests that beside
the raise's enclosing conditions. The record's prose does not use it
(:mod:`.fall_through` words such exits itself).
"""

from __future__ import annotations

import ast

from .held_reads import Changes, changed_at
from .local_values import statement_blocks

__all__ = ["EarlyExit", "early_exits"]

#: (the ``if``'s line, ``COND`` as :func:`ast.unparse` writes it, the first and last line
#: of the rest of its block: a raise there, however deep, is past the ``if``).
EarlyExit = tuple[int, str, int, int]
_LEAVES = (ast.Return, ast.Raise, ast.Continue, ast.Break)


def early_exits(
    func: ast.FunctionDef | ast.AsyncFunctionDef, changed: Changes | None = None
) -> tuple[EarlyExit, ...]:
    """Each ``if COND: … leave`` (no ``else``) of the function's own blocks, with the
    lines of the rest of its block (``changed``: the attributes the module may change,
    :func:`.held_reads.module_changes`)."""
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
                end = block[-1].end_lineno or block[-1].lineno
                last = changed_at(stmt.test, block[index + 1 :], end, changed)
                out.append((stmt.lineno, cond, (stmt.end_lineno or stmt.lineno) + 1, last))
    return tuple(out)
