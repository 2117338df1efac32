"""Expressions that never give None, so a ``__str__`` that tests an attribute set from
one (``if self.option is not None:``) is decided at the raise.

optparse-like ``raise OptionError("bad", self)`` prints ``option -x: bad`` whatever
``self`` is; ``raise OptionError("bad", o)`` of a parameter ``o`` may print either form.
Only what Python itself guarantees counts: ``self`` and ``cls`` in a method, a literal
other than None, a display (list, dict, f-string…), arithmetic or formatting, a
comparison, ``not``, a lambda, a call of a class (its instance) or of a builtin that
always returns a value. A name, an attribute, a subscript or any other call may be None.
"""

from __future__ import annotations

import ast
from collections.abc import Callable

from .scope import Scope

__all__ = ["surely_not_none"]

#: Builtins that return a value for every argument they accept.
_VALUED_BUILTINS = frozenset(
    {
        "abs", "ascii", "bin", "bool", "bytearray", "bytes", "chr", "dict", "float",
        "format", "frozenset", "hex", "int", "len", "list", "oct", "ord", "repr", "set",
        "sorted", "str", "tuple", "type",
    }
)  # fmt: skip

_DISPLAYS = (
    ast.JoinedStr,
    ast.List,
    ast.Tuple,
    ast.Dict,
    ast.Set,
    ast.ListComp,
    ast.SetComp,
    ast.DictComp,
    ast.GeneratorExp,
    ast.Lambda,
    ast.Compare,
    ast.UnaryOp,
    ast.BinOp,
)


def surely_not_none(
    expr: ast.expr, scope: Scope, is_class: Callable[[ast.expr, Scope], bool]
) -> bool:
    """Whether ``expr`` surely evaluates to something other than None in ``scope``."""
    if isinstance(expr, ast.Constant):
        return expr.value is not None
    if isinstance(expr, _DISPLAYS):
        return True
    if isinstance(expr, ast.Name):
        return expr.id in ("self", "cls") and scope.class_name is not None  # of a method
    if isinstance(expr, ast.Call):
        func = expr.func
        if isinstance(func, ast.Name) and func.id in _VALUED_BUILTINS and func.id not in scope.env:
            return True
        return is_class(func, scope)
    return False
