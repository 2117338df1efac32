"""What the walk (:mod:`.walk`) reads of a definition's shape beside its body: its
decorators, and which ``yield`` in its body belongs to a lambda rather than to it.

``f = lambda: (yield)`` makes the lambda a generator, not the function around it, and
``@_eager[0]`` decorates as surely as ``@eager``: counting the one as the function's own
``yield`` or leaving the other out said "a call of it only makes a generator" of functions
whose call runs the body (review of a48's lazy-call rule, session 41)."""

from __future__ import annotations

import ast

from .facts import CallRef, FunctionNode, dotted

__all__ = ["decorator_refs", "lambda_yields"]


def decorator_refs(node: FunctionNode) -> tuple[list[CallRef], int]:
    """The dotted decorators (``@a.b``, ``@a.b(…)`` as ``("a", "b")``), and how many
    others there are (``@_eager[0]``, ``@make()(x)``)."""
    refs = [
        ref
        for d in node.decorator_list
        if (ref := dotted(d.func if isinstance(d, ast.Call) else d)) is not None
    ]
    return refs, len(node.decorator_list) - len(refs)


def lambda_yields(node: ast.Lambda) -> set[int]:
    """The ids of the ``yield`` and ``yield from`` nodes in a lambda: the lambda's."""
    return {id(n) for n in ast.walk(node) if isinstance(n, (ast.Yield, ast.YieldFrom))}
