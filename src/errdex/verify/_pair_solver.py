"""Two parameters set at once, where the guard that leads to the raise reads both.

:func:`._guard_solver.solve` changes one argument and keeps the others as the test's call
gives them, so ``if b is not None and b < a`` or ``if lo > 0 and hi < lo`` stays false (or
unknown) whatever one value is tried: the call passes ``b=None`` and ``a`` from an
expression, or literals that make the other half false. Here the trial values of two
parameters that one guard reads together are tried in pairs, and a pair is kept when no
guard is false on it and every guard naming either parameter is true. Only pairs where
neither parameter alone decides those guards are tried (one value is the smaller change).
"""

from __future__ import annotations

import ast
import itertools
from collections.abc import Mapping
from typing import Any

from ._guard_solver import solve, trials, truth

__all__ = ["solve_pairs"]

#: Trial values taken per parameter of a pair (their product is evaluated).
_PER_PARAM = 24


def _reads(guard: ast.expr) -> set[str]:
    return {n.id for n in ast.walk(guard) if isinstance(n, ast.Name)}


def _decided_alone(
    guards: list[ast.expr], known: Mapping[str, Any], param: str, objects: frozenset[str]
) -> bool:
    """Whether one value of ``param`` makes every guard naming it true."""
    naming = [g for g in guards if param in _reads(g)]
    for _, value in solve(guards, known, [param], limit=1, objects=objects):
        env = {**known, param: value}
        return all(truth(g, env) for g in naming)
    return False


def solve_pairs(
    guards: list[ast.expr],
    known: Mapping[str, Any],
    params: list[str],
    limit: int = 1,
    objects: frozenset[str] = frozenset(),
) -> list[tuple[tuple[str, Any], tuple[str, Any]]]:
    """Up to ``limit`` pairs ((p, value), (q, value)) of parameters a guard reads together,
    neither decided alone, whose values leave no guard false and make every guard
    naming p or q true."""
    found: list[tuple[tuple[str, Any], tuple[str, Any]]] = []
    read = [_reads(g) for g in guards]
    pairs = [
        (p, q)
        for p, q in itertools.combinations(params, 2)
        if any(p in names and q in names for names in read)
    ]
    alone: dict[str, bool] = {}
    for p, q in pairs:
        for name in (p, q):
            if name not in alone:
                alone[name] = _decided_alone(guards, known, name, objects)
        if alone[p] or alone[q]:
            continue
        naming = [g for g, names in zip(guards, read, strict=True) if p in names or q in names]
        firsts = list(itertools.islice(trials(naming, p in objects), _PER_PARAM))
        seconds = list(itertools.islice(trials(naming, q in objects), _PER_PARAM))
        for first, second in itertools.product(firsts, seconds):
            env = {**known, p: first, q: second}
            if any(truth(g, env) is False for g in guards):
                continue
            if all(truth(g, env) for g in naming):
                found.append(((p, first), (q, second)))
                break
        if len(found) >= limit:
            break
    return found
