"""Which fields of a syntax node type can hold child nodes: the fast walks' one table."""

from __future__ import annotations

import ast

__all__ = ["child_fields"]

#: Fields that never hold a node worth visiting (contexts, operators, plain values).
_LEAF_FIELDS = frozenset({"ctx", "op", "ops", "id", "attr", "arg", "value_kind", "kind", "n", "s"})
_FIELDS_MEMO: dict[type, tuple[str, ...]] = {}


def child_fields(t: type) -> tuple[str, ...]:
    """The fields of a node type that may hold child expressions or statements."""
    found = _FIELDS_MEMO.get(t)
    if found is None:
        if t is ast.Constant or not issubclass(t, ast.AST):
            found = ()
        else:
            found = tuple(f for f in t._fields if f not in _LEAF_FIELDS)
        _FIELDS_MEMO[t] = found
    return found
