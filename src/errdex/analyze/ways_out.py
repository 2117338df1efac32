"""The ways out of a function before a raise: an earlier ``raise`` or ``return`` on the
way to it (for :mod:`.state_words` and :mod:`.exact_args`).

``accept()`` raises under ``self._listener is None`` only past ``if self._closed: raise``,
and ``close()`` sets both: after ``close()`` the first raise fires, never the second; in
``early_return()``, ``if a == 3: return`` runs before ``if a < 10: raise``. A sentence
that names the raise's own condition as the situation is true only where no such earlier
way out can fire under it (review rr1 of b46, finding 1).
"""

from __future__ import annotations

import ast

from .dominating import holds
from .parsed import len_of_name

__all__ = ["exit_tests"]

_Scope = (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.Lambda)
_Exit = (ast.Return, ast.Raise, ast.Assert)


def exit_tests(func: ast.FunctionDef | ast.AsyncFunctionDef, line: int) -> list[ast.expr] | None:
    """The tests of the ``if <test>:`` statements (no ``else``) holding a ``raise`` or
    ``return`` that run before the raise at ``line`` on the way to it ([] where there are
    none): each way out runs only where its test holds. None where another statement
    before it may leave the function (a ``raise`` in a loop, an ``else``, a handler, an
    ``assert``), whose condition is not read here."""
    out: list[ast.expr] = []
    body: list[ast.stmt] = func.body
    while body:
        holder = next((s for s in body if s.lineno <= line <= (s.end_lineno or s.lineno)), None)
        if holder is None:
            return out
        for stmt in body[: body.index(holder)]:
            if not _exits(stmt):
                continue
            if not isinstance(stmt, ast.If) or stmt.orelse:
                return None
            out.append(stmt.test)  # its ways out run only where it holds
        blocks = [
            getattr(holder, "body", []),
            getattr(holder, "orelse", []),
            *[h.body for h in getattr(holder, "handlers", [])],
            getattr(holder, "finalbody", []),
        ]
        if isinstance(holder, (ast.For, ast.AsyncFor, ast.While)):
            return out  # the ways of a loop's rounds are the rules' own (none said here)
        body = next((b for b in blocks if holds(b, line)), [])
    return out


def _exits(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` holds a ``raise``, ``return`` or ``assert`` of this function."""
    todo: list[ast.AST] = [stmt]
    while todo:
        node = todo.pop()
        if isinstance(node, _Exit):
            return True
        todo.extend(c for c in ast.iter_child_nodes(node) if not isinstance(c, _Scope))
    return False


def unpack_checks(
    func: ast.FunctionDef | ast.AsyncFunctionDef, tests: list[ast.expr], unpacked: set[str]
) -> bool:
    """Whether each of ``tests`` is ``len(p) != n`` for a ``p`` of ``unpacked`` that the
    function unpacks into ``n`` names: it cannot hold where the unpacking the raise reads
    succeeds (``if len(fields) != 6: raise`` before ``(…) = fields``)."""
    sizes = {
        (node.value.id, len(node.targets[0].elts))
        for node in ast.walk(func)
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], (ast.Tuple, ast.List))
        and isinstance(node.value, ast.Name)
    }
    return all(_length_check(t) in sizes and _length_check(t)[0] in unpacked for t in tests)


def _length_check(test: ast.expr) -> tuple[str, int]:
    """(p, n) for ``len(p) != n``; ("", -1) for any other test."""
    left, value = _against_constant(test, ast.NotEq)
    name = len_of_name(left) if left is not None else None
    if name is not None and type(value) is int:
        return name, value
    return "", -1


def _against_constant(test: ast.expr, op: type[ast.cmpop]) -> tuple[ast.expr | None, object]:
    """(left, constant) for ``left <op> constant``; (None, None) for any other test."""
    if (
        isinstance(test, ast.Compare)
        and len(test.ops) == 1
        and isinstance(test.ops[0], op)
        and isinstance(test.comparators[0], ast.Constant)
    ):
        return test.left, test.comparators[0].value
    return None, None


def other_values(
    func: ast.FunctionDef | ast.AsyncFunctionDef, tests: list[ast.expr], way: list[ast.expr]
) -> list[ast.expr]:
    """The ``tests`` not excused by ``way`` (the raise's own tests): ``how == 'OK'`` cannot
    hold where a test on the way reads ``how == 'ERROR'`` and ``how`` is not bound again
    between the two (``SocketIO.decoderesponse``)."""
    said = [_equal(t) for t in way]
    left: list[ast.expr] = []
    for test in tests:
        name, value = _equal(test)
        if not name or not any(
            n == name
            and v != value  # both a str or an int (no bool, no float): never equal
            and not _stored_between(func, name, test.lineno, w.lineno)
            for (n, v), w in zip(said, way, strict=True)
        ):
            left.append(test)
    return left


def _equal(test: ast.expr) -> tuple[str, object]:
    """(name, constant) for ``name == constant`` of a str or int; ("", None) otherwise."""
    left, value = _against_constant(test, ast.Eq)
    if isinstance(left, ast.Name) and type(value) in (str, int):
        return left.id, value
    return "", None


def _stored_between(func: ast.AST, name: str, first: int, last: int) -> bool:
    return any(
        isinstance(n, ast.Name)
        and n.id == name
        and not isinstance(n.ctx, ast.Load)
        and first <= n.lineno <= last
        for n in ast.walk(func)
    )
