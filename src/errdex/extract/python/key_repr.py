"""Whether a ``KeyError``'s one argument prints as itself rather than as a quoted string.

``str(KeyError(k))`` is ``repr(k)``: ``KeyError('a')`` prints ``'a'``, but
``KeyError(None)`` prints ``None``, ``KeyError(1)`` ``1`` and ``KeyError(('a', 1))``
``('a', 1)``. The message template of a non-str value already reads as its repr (a
constant's text, a tuple display's), so only a string's is quoted. Known not to be a
string: a non-str constant, a negated number, a tuple/list/set/dict display, and a local
name every binding of which is one of those.
"""

from __future__ import annotations

import ast

from .scope import LAZY, Scope
from .signed import signed_number

__all__ = ["not_text"]

_DISPLAYS = (ast.Tuple, ast.List, ast.Set, ast.Dict)


def not_text(node: ast.expr, scope: Scope) -> bool:
    """Whether ``node`` is known to hold a value other than a ``str``."""
    if isinstance(node, ast.Constant):
        return not isinstance(node.value, str)
    if signed_number(node) is not None:
        return True
    if isinstance(node, _DISPLAYS):
        return True
    if isinstance(node, ast.Name) and scope.env is not LAZY:
        bound = scope.env.get(node.id) or ()
        return bool(bound) and all(
            isinstance(v, ast.expr) and not isinstance(v, ast.Name) and not_text(v, scope)
            for v in bound
        )
    return False
