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
MAX_INLINED = 24
_BLOCKS = ("body", "orelse", "finalbody")


@dataclass(frozen=True)
class HelperCut:
    """A test with one helper call replaced by the helper's body."""

    func: ast.FunctionDef
    first: int  # the helper's lines: only the expectations there are new
    last: int

    def holds(self, line: int) -> bool:
        return self.first <= line <= self.last


#: (the name called, whether it is called on ``self``) -> the helper's def, or None
Finder = Callable[[str, bool], ast.FunctionDef | None]


def helper_cuts(
    func: ast.FunctionDef, find: Finder, expects: Callable[[ast.stmt], bool]
) -> Iterator[HelperCut]:
    """Each ``self.helper(...)`` or ``helper(...)`` statement of ``func`` whose helper (a
    function the test defines, else what ``find`` finds in the test's module) holds a
    statement ``expects`` calls an expectation, inlined in a copy of ``func`` where the
    helper's other calls and its local ``def`` are left out (each is a check of its own,
    cut in its own copy); at most :data:`MAX_INLINED`."""
    local = {s.name: s for s in func.body if isinstance(s, ast.FunctionDef)}
    done = 0
    for call, on_self in _helper_calls(func.body):
        if done >= MAX_INLINED:
            return
        name = _callee(call)
        helper = find(name, True) if on_self else local.get(name) or find(name, False)
        if helper is None or helper is func or not _runs_at_top(helper):
            continue
        if not any(expects(s) for s in _statements(helper.body)):
            continue
        bindings = _bind(helper, call, skip_self=on_self)
        if bindings is None:
            continue
        inlined = [*bindings, *copy.deepcopy(helper.body)]

        def drop(stmt: ast.stmt, name: str = name, on_self: bool = on_self) -> bool:
            if isinstance(stmt, ast.FunctionDef):
                return not on_self and stmt.name == name
            found = _as_helper_call(stmt)
            return found is not None and found[1] == on_self and _callee(found[0]) == name

        new = ast.FunctionDef(
            name=func.name,
            args=func.args,
            body=_rewritten(func.body, call, inlined, drop) or [_pass(func)],
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
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
            continue
        for name in _BLOCKS:
            inner = getattr(stmt, name, None)
            if isinstance(inner, list):
                yield from _statements(inner)


def _callee(call: ast.Call) -> str:
    func = call.func
    return func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")


def _as_helper_call(stmt: ast.stmt) -> tuple[ast.Call, bool] | None:
    """(the call, whether on ``self``) of a statement ``self.name(...)``/``name(...)``."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call, func = stmt.value, stmt.value.func
    if isinstance(func, ast.Name):
        return call, False
    if (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
        and not func.attr.startswith(("assert", "fail", "skip", "subTest"))
    ):
        return call, True
    return None


def _helper_calls(body: list[ast.stmt]) -> Iterator[tuple[ast.Call, bool]]:
    """Every helper call statement in the test, in loops, withs, ifs and trys too."""
    for stmt in _statements(body):
        found = _as_helper_call(stmt)
        if found is not None:
            yield found


def _rewritten(
    body: list[ast.stmt],
    call: ast.Call,
    inlined: list[ast.stmt],
    drop: Callable[[ast.stmt], bool],
) -> list[ast.stmt]:
    """``body`` with the statement of ``call`` replaced by ``inlined`` and those ``drop``
    names left out (compound statements copied on the way)."""
    out: list[ast.stmt] = []
    for stmt in body:
        if isinstance(stmt, ast.Expr) and stmt.value is call:
            out += inlined
        elif drop(stmt):
            continue
        elif isinstance(stmt, (ast.For, ast.While, ast.With, ast.If, ast.Try)):
            outer = copy.copy(stmt)
            for name in _BLOCKS:
                inner = getattr(stmt, name, None)
                if isinstance(inner, list):
                    kept = _rewritten(inner, call, inlined, drop)
                    setattr(outer, name, kept or ([_pass(stmt)] if name == "body" else []))
            out.append(outer)
        else:
            out.append(stmt)
    return out


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


def _bind(helper: ast.FunctionDef, call: ast.Call, *, skip_self: bool) -> list[ast.stmt] | None:
    """``param = argument`` for each of the helper's parameters (after ``self`` for a
    method), defaults for those the call leaves out; None when the call cannot be read
    that way."""
    args = helper.args
    if args.vararg or args.kwarg or args.posonlyargs:
        return None
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    params = [a.arg for a in args.args[1 if skip_self else 0 :]]
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


def _pass(where: ast.stmt) -> ast.Pass:
    """A ``pass`` with a line: the cutter reads every statement's line
    (:func:`.expectation.expectation_at`), and one without it crashed a whole verify."""
    return ast.Pass(lineno=where.lineno, col_offset=where.col_offset)
