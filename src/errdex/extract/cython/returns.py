"""Helpers that return one of several exceptions, one per branch.

A Cython module often builds its errors in one method and raises what it returns
(PyYAML's ``error = self._parser_error(); raise error``, where ``_parser_error`` returns
``MemoryError``, a ``ReaderError``, a ``ScannerError`` or a ``ParserError`` by the C
library's state). The Python reader follows a helper to the first exception it returns;
here every exception any branch returns is found, so the raise is one site per class.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Callable, Sequence

from errdex.extract.python.scope import Scope

__all__ = ["builtin_rooted", "returned_exceptions"]

IsClass = Callable[[ast.expr, Scope], bool]


def returned_exceptions(
    body: Sequence[ast.stmt], scope: Scope, is_class: IsClass
) -> list[ast.expr]:
    """The exceptions ``return`` statements give, on every branch (in source order): a
    constructed class (``ScannerError(…)``) or a class itself (``return MemoryError``)."""
    found: list[ast.expr] = []
    for stmt in body:
        if isinstance(stmt, ast.Return) and stmt.value is not None:
            value = stmt.value
            if (isinstance(value, ast.Call) and is_class(value.func, scope)) or (
                isinstance(value, (ast.Name, ast.Attribute)) and is_class(value, scope)
            ):
                found.append(value)
        elif isinstance(stmt, ast.If):
            found += returned_exceptions(stmt.body, scope, is_class)
            found += returned_exceptions(stmt.orelse, scope, is_class)
    return found


def builtin_rooted(name: str, bases: dict[str, list[str | None]], depth: int = 0) -> bool:
    """Whether a class of the module derives from builtins only, through classes of the
    module (``bases``: each Python class statement's bases by name): then Python's rules
    say how its arguments print. A base from another module may print them its own way
    (lxml's ``LxmlError.__init__(self, message, error_log=None)``). A class whose bases
    the module does not list (a ``cdef class``, or one an include defines) does not count
    as rooted: what its arguments print is not known."""
    if depth > 20 or name not in bases:
        return False
    for base in bases.get(name, []):
        if base is None:
            return False
        if base in bases:
            if not builtin_rooted(base, bases, depth + 1):
                return False
        elif not isinstance(getattr(builtins, base, None), type):
            return False
    return True
