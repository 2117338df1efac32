"""Type tests that all fail, said as the types the value is none of.

httpx's ``encode_content`` returns for ``bytes``/``str``, for an ``Iterable`` that is no
``dict`` and for an ``AsyncIterable``, and raises ``TypeError`` past them (stop-39 paired
review: "no enclosing condition" was misleading). :mod:`.fall_through` says each branch
not taken as its negated test; three of them, "`not isinstance(content, (bytes, str))`
and `not isinstance(content, Iterable) or isinstance(content, dict)` and …", read as
code to work out. Two or more such clauses over one value are said together: "when
`content` is none of: `bytes`/`str`, `Iterable` (other than `dict`), `AsyncIterable`".
Only the forms ``not isinstance(x, T)`` and ``not isinstance(x, T) or isinstance(x, U)``
(the negation of ``isinstance(x, T) and not isinstance(x, U)``) are read; any other
clause stays as it is, after them.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence

from .guards import code, parse_guard

__all__ = ["none_of"]


def none_of(clauses: Sequence[str]) -> list[str]:
    """``clauses`` (each "`code`" or words), the type tests of one value merged into one
    "`x` is none of: …" clause, first; unchanged where fewer than two share a value."""
    read = [(_types(c), c) for c in clauses]
    subjects = [t[0] for t, _ in read if t is not None]
    subject = next((s for s in subjects if subjects.count(s) >= 2), None)
    if subject is None:
        return list(clauses)
    kinds = [t[1] for t, _ in read if t is not None and t[0] == subject]
    rest = [c for t, c in read if t is None or t[0] != subject]
    return [f"{code(subject)} is none of: {', '.join(kinds)}", *rest]


def _types(clause: str) -> tuple[str, str] | None:
    """(the value, its type in words) for a clause of one of the two forms."""
    if not (clause.startswith("`") and clause.endswith("`") and clause.count("`") == 2):
        return None
    node = parse_guard(clause[1:-1])
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        found = _isinstance(node.operand)
        return (found[0], _kind(found[1])) if found else None
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or) and len(node.values) == 2:
        first, second = node.values
        if not (isinstance(first, ast.UnaryOp) and isinstance(first.op, ast.Not)):
            return None
        kept, other = _isinstance(first.operand), _isinstance(second)
        if kept is None or other is None or kept[0] != other[0]:
            return None
        return kept[0], f"{_kind(kept[1])} (other than {_kind(other[1])})"
    return None


def _isinstance(node: ast.expr) -> tuple[str, ast.expr] | None:
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "isinstance"
        and len(node.args) == 2
        and not node.keywords
    ):
        return ast.unparse(node.args[0]), node.args[1]
    return None


def _kind(types: ast.expr) -> str:
    """``(bytes, str)`` -> "`bytes`/`str`"."""
    if isinstance(types, ast.Tuple) and types.elts:
        return "/".join(code(ast.unparse(e)) for e in types.elts)
    return code(ast.unparse(types))
