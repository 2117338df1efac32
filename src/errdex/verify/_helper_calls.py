"""A test whose expectation sits in a helper method it calls, with the helper inlined.

CPython's tests often keep the ``assertRaises`` in a method of the test case that the
tests call with what differs between them: ``test_pbkdf2_hmac_py`` is only
``self._test_pbkdf2_hmac(builtin_hashlib.pbkdf2_hmac, builtin_hashes)``, and the
``self.assertRaises(TypeError, pbkdf2, b'sha1', ...)`` is in ``_test_pbkdf2_hmac``. No
test statement holds an expectation, so nothing was cut from it. Here the call is
replaced by the helper's body, its parameters bound to the call's arguments first
(``pbkdf2 = builtin_hashlib.pbkdf2_hmac``): the cutter then finds the helper's
expectations in what reads as the test itself, with the statements the test ran before.

Only a helper of the same test module is inlined (its lines are the module's own), one
whose body a snippet can run at the top level (no ``return`` or ``yield`` of its own),
and whose parameters the call fills without ``*args``/``**kwargs``.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass

__all__ = ["MAX_INLINED", "HelperCut", "helper_cuts"]

#: Helper calls inlined per test (each is a test of its own for the cutter).
MAX_INLINED = 3
_BLOCKS = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class HelperCut:
    """A test with one helper call replaced by the helper's body."""

    func: ast.FunctionDef
    first: int  # the helper's lines: only the expectations there are new
    last: int

    def holds(self, line: int) -> bool:
        return self.first <= line <= self.last


def helper_cuts(
    func: ast.FunctionDef,
    method: Callable[[str], ast.FunctionDef | None],
    expects: Callable[[ast.stmt], bool],
) -> Iterator[HelperCut]:
    """Each ``self.helper(...)`` statement of ``func`` whose helper (``method`` finds it
    in the test's module, or None) holds a statement ``expects`` calls an expectation,
    inlined in a copy of ``func``; at most :data:`MAX_INLINED`."""
    done = 0
    for path, call in _helper_calls(func.body, ()):
        if done >= MAX_INLINED:
            return
        helper = method(call.func.attr)  # type: ignore[attr-defined]
        if helper is None or helper is func or not _runs_at_top(helper):
            continue
        if not any(expects(s) for s in _statements(helper.body)):
            continue
        bindings = _bind(helper, call)
        if bindings is None:
            continue
        inlined = [*bindings, *copy.deepcopy(helper.body)]
        body = _replaced(func.body, path, inlined)
        new = ast.FunctionDef(
            name=func.name,
            args=func.args,
            body=body,
            decorator_list=func.decorator_list,
            returns=None,
            type_comment=None,
            lineno=func.lineno,
            col_offset=func.col_offset,
        )
        done += 1
        yield HelperCut(new, helper.lineno, helper.end_lineno or helper.lineno)


def _statements(body: list[ast.stmt]) -> Iterator[ast.stmt]:
    for stmt in body:
        yield stmt
        for name in _BLOCKS:
            inner = getattr(stmt, name, None)
            if isinstance(inner, list) and not isinstance(stmt, (ast.FunctionDef, ast.ClassDef)):
                yield from _statements(inner)


def _helper_calls(
    body: list[ast.stmt], path: tuple[tuple[int, str], ...]
) -> Iterator[tuple[tuple[tuple[int, str], ...], ast.Call]]:
    """(where, call) of every statement ``self.name(...)`` in loops, withs, ifs and trys."""
    for i, stmt in enumerate(body):
        if (
            isinstance(stmt, ast.Expr)
            and isinstance(stmt.value, ast.Call)
            and isinstance(stmt.value.func, ast.Attribute)
            and isinstance(stmt.value.func.value, ast.Name)
            and stmt.value.func.value.id == "self"
            and not stmt.value.func.attr.startswith(("assert", "fail", "skip", "subTest"))
        ):
            yield (*path, (i, "")), stmt.value
            continue
        if isinstance(stmt, (ast.For, ast.While, ast.With, ast.If, ast.Try)):
            for name in _BLOCKS:
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    yield from _helper_calls(inner, (*path, (i, name)))


def _replaced(
    body: list[ast.stmt], path: tuple[tuple[int, str], ...], inlined: list[ast.stmt]
) -> list[ast.stmt]:
    """``body`` with the statement at ``path`` replaced by ``inlined`` (copies on the way)."""
    (i, block), rest = path[0], path[1:]
    if not rest:
        return [*body[:i], *inlined, *body[i + 1 :]]
    outer = copy.copy(body[i])
    setattr(outer, block, _replaced(getattr(outer, block), rest, inlined))
    return [*body[:i], outer, *body[i + 1 :]]


def _runs_at_top(helper: ast.FunctionDef) -> bool:
    """No ``return``/``yield`` of the helper's own: its body runs as top-level statements."""
    todo: list[ast.AST] = list(helper.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom, ast.Await)):
            return False
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        todo.extend(ast.iter_child_nodes(node))
    return True


def _bind(helper: ast.FunctionDef, call: ast.Call) -> list[ast.stmt] | None:
    """``param = argument`` for each of the helper's parameters after ``self``, defaults
    for those the call leaves out; None when the call cannot be read that way."""
    args = helper.args
    if args.vararg or args.kwarg or args.posonlyargs:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    params = [a.arg for a in args.args[1:]]  # after self
    if len(call.args) > len(params):
        return None
    values: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    defaults = dict(zip(params[len(params) - len(args.defaults) :], args.defaults, strict=True))
    kw_defaults = {
        a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    }
    allowed = {*params, *(a.arg for a in args.kwonlyargs)}
    for keyword in call.keywords:
        if keyword.arg in values or keyword.arg not in allowed:
            return None
        values[str(keyword.arg)] = keyword.value
    out: list[ast.stmt] = []
    for name in [*params, *(a.arg for a in args.kwonlyargs)]:
        value = values.get(name, defaults.get(name, kw_defaults.get(name)))
        if value is None:
            return None
        if isinstance(value, ast.Name) and value.id == name:
            continue  # 'text = text': the test's own name already
        out.append(
            ast.Assign(
                targets=[ast.Name(name, ast.Store())],
                value=copy.deepcopy(value),
                lineno=call.lineno,
                col_offset=call.col_offset,
            )
        )
    return out
