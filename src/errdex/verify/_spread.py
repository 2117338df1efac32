"""The call an ``assertRaises(E, f, *args)`` makes, as a statement of its own.

A helper that passes its own ``*args`` on (test_argparse's ``assertArgumentParserError(self,
*args, **kwargs): self.assertRaises(ArgumentParserError, *args, **kwargs)``, 24 calls)
gave the snippet ``*args(**kwargs)``: a SyntaxError on every run. The function is then
the tuple's first item: ``args[0](*args[1:], **kwargs)``."""

from __future__ import annotations

import ast

__all__ = ["spread_call"]


def spread_call(items: list[ast.expr], keywords: list[ast.keyword]) -> ast.Call | None:
    """The call of ``items[0]`` with the rest of ``items``: a starred first item is a tuple
    whose head is the function; None when there is no function to read."""
    if not items:
        return None
    head, rest = items[0], list(items[1:])
    if not isinstance(head, ast.Starred):
        return ast.Call(func=head, args=rest, keywords=keywords)
    seq = head.value
    func = ast.Subscript(value=seq, slice=ast.Constant(0), ctx=ast.Load())
    tail = ast.Subscript(value=seq, slice=ast.Slice(lower=ast.Constant(1)), ctx=ast.Load())
    return ast.Call(func=func, args=[ast.Starred(tail, ast.Load()), *rest], keywords=keywords)
