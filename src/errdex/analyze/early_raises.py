"""A caller that has already raised for the site's condition before it calls.

``BufferWrapper.__init__(size)`` starts with ``if sys.maxsize <= size: raise
OverflowError(...)`` and only then calls ``Heap.malloc(size)``, whose own ``if
sys.maxsize <= size: raise OverflowError`` can then never fire from it: at the call the
condition is false (``RawArray('b', sys.maxsize)`` raises at ``BufferWrapper``'s line).
The caller's test must be a top-level ``if`` of its body with a raise for its whole
block and no ``else``, before the call, and read the raising function's parameters only
through the caller's own, passed on unchanged; the two are compared as written.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Collection, Mapping, Sequence

from .held_reads import Changes, changed_at
from .parsed import parse_guard

__all__ = ["EarlyRaise", "early_raises", "guard_among", "raised_before", "renamed"]

#: (the ``if``'s last line, its condition as :func:`ast.unparse` writes it, the last line
#: it is still false on: up to the first that may change what it reads,
#: :func:`.held_reads.changed_at`).
EarlyRaise = tuple[int, str, int]


def early_raises(
    func: ast.FunctionDef | ast.AsyncFunctionDef, changed: Changes | None = None
) -> tuple[EarlyRaise, ...]:
    """Each top-level ``if COND: raise ...`` of the body (no ``else``); ``changed`` as
    for :func:`.early_exits.early_exits`."""
    out: list[EarlyRaise] = []
    end = func.body[-1].end_lineno or func.body[-1].lineno
    for index, stmt in enumerate(func.body):
        if (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and len(stmt.body) == 1
            and isinstance(stmt.body[0], ast.Raise)
            and stmt.body[0].exc is not None
        ):
            try:
                text = ast.unparse(stmt.test)
            except (ValueError, RecursionError):
                continue
            last = changed_at(stmt.test, func.body[index + 1 :], end, changed)
            out.append((stmt.end_lineno or stmt.lineno, text, last))
    return tuple(out)


def raised_before(
    raises: Sequence[EarlyRaise],
    line: int,
    guards: Sequence[str],
    params: Collection[str],
    passes: Mapping[str, str],
) -> bool:
    """Whether the caller raised already, before its call at ``line``, where one of the
    site's ``guards`` holds: the guard, its parameters (``params``) renamed to the
    caller's (``passes``), is the condition of one of its ``raises``."""
    before = {text for end, text, last in raises if end < line <= last}
    return guard_among(before, guards, params, passes)


def guard_among(
    before: Collection[str],
    guards: Sequence[str],
    params: Collection[str],
    passes: Mapping[str, str],
) -> bool:
    """Whether one of ``guards``, read over the raising function's ``params``, is one of
    the caller's conditions ``before`` once its parameters are renamed to the caller's
    (``passes``: only one that reads no other of ``params`` counts)."""
    if not before:
        return False
    for guard in guards:
        node = parse_guard(guard)
        if node is None:
            continue
        read = {n.id for n in ast.walk(node) if isinstance(n, ast.Name)}
        if not read & set(params) or any(p in read and p not in passes for p in params):
            continue  # it reads no parameter, or one the caller does not pass on
        if renamed(guard, passes) in before:
            return True
    return False


def renamed(text: str, names: Mapping[str, str]) -> str | None:
    """``text`` with each name in ``names`` replaced by its value, as :func:`ast.unparse`
    writes it; None when it does not parse."""
    node = parse_guard(text)
    if node is None:
        return None
    swapped = _Rename(names).visit(copy.deepcopy(node))  # the parse is shared
    try:
        return ast.unparse(swapped)
    except (ValueError, RecursionError):
        return None


class _Rename(ast.NodeTransformer):
    def __init__(self, names: Mapping[str, str]) -> None:
        self.names = names

    def visit_Name(self, node: ast.Name) -> ast.Name:
        return ast.Name(id=self.names.get(node.id, node.id), ctx=node.ctx)
