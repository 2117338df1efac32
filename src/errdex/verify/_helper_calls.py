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
and a call that passes no ``*x``/``**x`` of its own. A helper named ``assert...``
(``self.assertRaisesMessage(ValueError, msg, F, '3/')``) is one too when the test module
defines it: unittest's own assertions are in no test module, so the finder never finds
them.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field

from ._ast_names import bound_names, used_names

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
    #: Each parameter (by its name in ``func``) the helper's body never rebinds, to the
    #: call's argument: what an ``except exc_type`` or ``assertRaises(exc)`` there names.
    bindings: dict[str, ast.expr] = field(default_factory=dict)

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
        try:  # a helper read wrongly costs its own cut, never the whole verify
            found = _inlined(func, helper, call, on_self=on_self, local=helper in local.values())
        except (ValueError, TypeError, AttributeError, RecursionError):
            continue
        if found is None:
            continue
        inlined, bindings = found

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
        yield HelperCut(new, helper.lineno, helper.end_lineno or helper.lineno, bindings)


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
        and not func.attr.startswith(("fail", "skip", "subTest"))
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
            if isinstance(outer, ast.Try) and not outer.handlers and not outer.finalbody:
                out += outer.body  # its finally was the helper's call: 'try: pass' alone
            else:  # does not parse
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


def _inlined(
    func: ast.FunctionDef, helper: ast.FunctionDef, call: ast.Call, *, on_self: bool, local: bool
) -> tuple[list[ast.stmt], dict[str, ast.expr]] | None:
    """The helper's body after one statement binding its parameters, and the parameters
    the body never rebinds to their values; None when the call cannot be read so, or when
    a name the test binds would shadow a module global the helper's body or defaults read
    (a local helper's free names are the test's own)."""
    params = _param_names(helper)
    rest = [s for s in func.body if s is not helper]  # a local helper's def is not the test's
    test_bound = _test_bound(func, rest)
    body_bound: set[str] = set()
    for stmt in _statements(helper.body):
        body_bound |= bound_names(stmt)
    if not local:
        free = used_names([*helper.body, *helper.args.defaults, *_kw_defaults(helper)])
        free -= {*params, *body_bound, "self", "cls"}
        if free & test_bound:
            return None
    values = _bind(helper, call, skip_self=on_self and not _decorated(helper, "staticmethod"))
    if values is None:
        return None
    body = copy.deepcopy(helper.body)
    test_names = test_bound | used_names(rest)
    renamed = _fresh_names(values, test_names, used_names(helper.body), helper.name)
    for node in (n for stmt in body for n in ast.walk(stmt)):
        if isinstance(node, ast.Name) and node.id in renamed:
            node.id = renamed[node.id]
    pairs = [
        (renamed.get(name, name), value)
        for name, value in values.items()
        if not (isinstance(value, ast.Name) and value.id == name)  # 'text = text'
    ]
    bindings = {
        renamed.get(name, name): value for name, value in values.items() if name not in body_bound
    }
    return [*_assign_all(pairs, call), *body], bindings


def _param_names(helper: ast.FunctionDef) -> set[str]:
    args = helper.args
    stars = [a for a in (args.vararg, args.kwarg) if a is not None]
    return {a.arg for a in [*args.posonlyargs, *args.args, *args.kwonlyargs, *stars]}


def _kw_defaults(helper: ast.FunctionDef) -> list[ast.expr]:
    return [d for d in helper.args.kw_defaults if d is not None]


def _test_bound(func: ast.FunctionDef, body: list[ast.stmt]) -> set[str]:
    """Every name the test's ``body`` binds, its parameters too."""
    out = {a.arg for a in func.args.args}
    for stmt in _statements(body):
        out |= bound_names(stmt)
    return out


def _decorated(helper: ast.FunctionDef, name: str) -> bool:
    return any(
        (d.attr if isinstance(d, ast.Attribute) else getattr(d, "id", "")) == name
        for d in helper.decorator_list
    )


def _fresh_names(
    values: dict[str, ast.expr], test: set[str], helper_names: set[str], helper: str
) -> dict[str, str]:
    """A new name for each parameter the test also uses: the test's own stays as it was
    (``self._check(hi, lo)`` against ``def _check(self, lo, hi)``)."""
    out: dict[str, str] = {}
    taken = test | helper_names
    for name, value in values.items():
        if name not in test or (isinstance(value, ast.Name) and value.id == name):
            continue
        fresh = f"{helper.strip('_')}_{name}"
        while fresh in taken or fresh in values:
            fresh += "_"
        taken.add(fresh)
        out[name] = fresh
    return out


def _assign_all(pairs: list[tuple[str, ast.expr]], call: ast.Call) -> list[ast.stmt]:
    """``param = value`` each, or one assignment binding all at once where a value reads
    a parameter bound before it (``def f(a, b=a)``: ``a, b = 1, a`` crosses nothing)."""
    if not pairs:
        return []
    targets = {n for n, _ in pairs}
    if not used_names([v for _, v in pairs]) & targets:
        return [
            ast.Assign(
                targets=[ast.Name(n, ast.Store())],
                value=copy.deepcopy(v),
                lineno=call.lineno,
                col_offset=call.col_offset,
            )
            for n, v in pairs
        ]
    if len(pairs) == 1:
        target: ast.expr = ast.Name(pairs[0][0], ast.Store())
        value: ast.expr = copy.deepcopy(pairs[0][1])
    else:
        target = ast.Tuple([ast.Name(n, ast.Store()) for n, _ in pairs], ast.Store())
        value = ast.Tuple([copy.deepcopy(v) for _, v in pairs], ast.Load())
    return [
        ast.Assign(targets=[target], value=value, lineno=call.lineno, col_offset=call.col_offset)
    ]


def _bind(
    helper: ast.FunctionDef, call: ast.Call, *, skip_self: bool
) -> dict[str, ast.expr] | None:
    """Each of the helper's parameters (after ``self``/``cls`` for a method called on
    ``self``, not a static one) to the call's argument, else its default; ``*args`` to a
    tuple of the positional arguments left over and ``**kwargs`` to a dict of the keywords
    no parameter takes (``assertRaisesMessage(self, exc_type, message, callable, *args,
    **kwargs)``: test_fractions' ten bad literals). None when the call cannot be read so."""
    args = helper.args
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    every = [a.arg for a in [*args.posonlyargs, *args.args]]
    if len(args.defaults) > len(every):
        return None
    defaults = dict(zip(every[len(every) - len(args.defaults) :], args.defaults, strict=True))
    params = every[1:] if skip_self else every
    if skip_self and not every:
        return None
    extra = call.args[len(params) :]
    if extra and args.vararg is None:
        return None
    values: dict[str, ast.expr] = dict(zip(params, call.args, strict=False))
    kw_defaults = {
        a.arg: d for a, d in zip(args.kwonlyargs, args.kw_defaults, strict=True) if d is not None
    }
    allowed = {*params, *(a.arg for a in args.kwonlyargs)} - {a.arg for a in args.posonlyargs}
    left: list[ast.keyword] = []
    for keyword in call.keywords:
        if keyword.arg in values:
            return None
        if keyword.arg in allowed:
            values[str(keyword.arg)] = keyword.value
        elif args.kwarg is not None:
            left.append(keyword)
        else:
            return None
    out: dict[str, ast.expr] = {}
    for name in [*params, *(a.arg for a in args.kwonlyargs)]:
        value = values.get(name, defaults.get(name, kw_defaults.get(name)))
        if value is None:
            return None
        out[name] = value
    if args.vararg is not None:
        out[args.vararg.arg] = ast.Tuple(list(extra), ast.Load())
    if args.kwarg is not None:
        keys: list[ast.expr | None] = [ast.Constant(k.arg) for k in left]
        out[args.kwarg.arg] = ast.Dict(keys=keys, values=[k.value for k in left])
    return out


def _pass(where: ast.stmt) -> ast.Pass:
    """A ``pass`` with a line: the cutter reads every statement's line
    (:func:`.expectation.expectation_at`), and one without it crashed a whole verify."""
    return ast.Pass(lineno=where.lineno, col_offset=where.col_offset)
