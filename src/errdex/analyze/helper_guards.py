"""The tests a class-passing helper makes before it raises, said in the call's terms.

"``_pydecimal`` ``Decimal.__floordiv__`` raises ``DivisionByZero`` at 1606 when `not
other` and `self`, through the helper raising at 4058" left out that
``Context._raise_error`` raises only when ``self.traps[error]`` is set: with
``Context(traps=[])``, ``1 // 0`` returns ``Infinity`` (stop-39 paired blind review:
misleading). A site at a helper's call (:mod:`errdex.extract.python.caller_sites`,
``raisedAt``) keeps the caller's guards; here the helper's own early exits before its
raise (``if TEST: … return``, no ``else``) become conditions, with its ``self`` read
as the call's receiver, its parameters as the call's arguments and the local it raises
as the class the site raises. Said only where every statement before the raise is one
such exit or a plain statement, and every name a test reads is one of those, a module
name, or ``self``: any other local, loop, ``try`` or rebinding of a parameter says
nothing.
"""

from __future__ import annotations

import ast
from dataclasses import dataclass

from .file_trees import function_node, module_tree
from .gathered import Gathered, short_name
from .guards import code, has_private, negated

__all__ = ["HelperTests", "helper_tests", "with_helper"]

_Function = ast.FunctionDef | ast.AsyncFunctionDef
#: Statements before the raise that neither leave nor branch.
_PLAIN = (ast.Expr, ast.Assign, ast.AugAssign, ast.AnnAssign, ast.Pass)


@dataclass(frozen=True, slots=True)
class HelperTests:
    """The helper's conditions for raising, in the call's terms: those a caller can read
    (``context.traps[DivisionByZero]``) and how many more read private names."""

    helper: str
    public: tuple[str, ...]
    private: int

    def clause(self) -> str | None:
        """ "`context.traps[DivisionByZero]` (tested by the helper `_raise_error`)"."""
        if not self.public:
            return None
        more = ""
        if self.private:
            more = ", with another condition" if self.private == 1 else ", with other conditions"
            more += " over private names"
        tests = " and ".join(code(c) for c in self.public)
        return f"{tests} (tested by the helper {code(self.helper)}{more})"


def with_helper(g: Gathered, phrase: str | None) -> str | None:
    """``phrase`` ("when `not other` and `self`") with the helper's tests said after it,
    or those tests alone where no phrase is said; ``phrase`` where there are none."""
    found = helper_tests(g)
    clause = found.clause() if found is not None else None
    if clause is None:
        return phrase
    return f"{phrase}, and then only if {clause}" if phrase else f"when {clause}"


def helper_tests(g: Gathered) -> HelperTests | None:
    """The helper's tests before its raise at ``raisedAt``, for a call site; None
    where the site is no helper's call or the tests cannot be said exactly."""
    line = g.site.raised_at
    func, path = g.func, g.source_file
    if line is None or func is None or not path or not g.site.error_class:
        return None
    tree = module_tree(path)
    caller = function_node(path, func.line, func.name)
    if tree is None or caller is None:
        return None
    helper = _holding(tree, line)
    if helper is None:
        return None
    call = _the_call(caller, g.site.line, helper.name)
    if call is None:
        return None
    raised = next(
        (
            s
            for s in helper.body
            if isinstance(s, ast.Raise) and s.lineno == line and isinstance(s.exc, ast.Call)
        ),
        None,
    )
    if raised is None or not isinstance(raised.exc, ast.Call):
        return None
    local = raised.exc.func.id if isinstance(raised.exc.func, ast.Name) else None
    values = _bound(helper, call, local, short_name(g.site.error_class))
    if values is None:
        return None
    tests = _tests(helper, raised, values)
    if not tests:
        return None
    private = [t for t in tests if has_private(t)]
    public = tuple(t for t in tests if not has_private(t))
    return HelperTests(helper.name, public, len(private))


def _holding(tree: ast.Module, line: int) -> _Function | None:
    """The module function or method whose lines hold ``line`` (a helper is one of
    those, :mod:`errdex.extract.python.caller_sites`)."""
    for node in tree.body:
        inner = node.body if isinstance(node, ast.ClassDef) else [node]
        for sub in inner:
            if isinstance(sub, _Function) and sub.lineno <= line <= (sub.end_lineno or 0):
                return sub
    return None


def _the_call(caller: _Function, line: int, name: str) -> ast.Call | None:
    """The one call of ``name`` (a method on a receiver, or a plain name) at ``line``."""
    calls = [
        n
        for n in ast.walk(caller)
        if isinstance(n, ast.Call)
        and n.lineno <= line <= (n.end_lineno or n.lineno)
        and (
            (isinstance(n.func, ast.Attribute) and n.func.attr == name)
            or (isinstance(n.func, ast.Name) and n.func.id == name)
        )
    ]
    return calls[0] if len(calls) == 1 else None


def _bound(
    helper: _Function, call: ast.Call, local: str | None, raised: str
) -> dict[str, ast.expr] | None:
    """What each name of the helper stands for at this call: ``self`` the receiver,
    each parameter the argument passed, the local raised the class; None where a
    parameter is bound again in the helper or a ``*``/``**`` argument is passed."""
    args = helper.args
    params = [a.arg for a in (*args.posonlyargs, *args.args)]
    out: dict[str, ast.expr] = {}
    if isinstance(call.func, ast.Attribute):
        if not params:
            return None
        out[params[0]] = call.func.value  # ``self``: the receiver
        params = params[1:]
    if any(isinstance(a, ast.Starred) for a in call.args):
        return None
    if len(call.args) > len(params) and args.vararg is None:
        return None  # more than it takes: no call of it; the rest go to ``*args``
    out.update(zip(params, call.args, strict=False))
    for kw in call.keywords:
        if kw.arg is None:
            return None
        out[kw.arg] = kw.value
    stored = {
        n.id
        for n in ast.walk(helper)
        if isinstance(n, ast.Name) and not isinstance(n.ctx, ast.Load)
    }
    if stored & set(out):
        return None
    if local is not None and local not in out:
        out[local] = ast.Name(raised, ast.Load())
    return out


def _tests(helper: _Function, raised: ast.Raise, values: dict[str, ast.expr]) -> list[str]:
    """``not (TEST)`` of each exit before the raise, in the call's terms; [] where any
    statement branches otherwise or a test reads a local with no value here."""
    locals_ = {
        n.id for n in ast.walk(helper) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    }
    params = {a.arg for a in ast.walk(helper.args) if isinstance(a, ast.arg)}
    out: list[str] = []
    changed: list[ast.stmt] = []  # plain statements run before the next test
    for stmt in helper.body:
        if stmt is raised:
            return out
        if isinstance(stmt, _PLAIN):
            changed.append(stmt)
            continue
        if not (
            isinstance(stmt, ast.If)
            and not stmt.orelse
            and stmt.body
            and isinstance(stmt.body[-1], ast.Return)
        ):
            return []
        read = {n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name)}
        if (read & (locals_ | params)) - set(values):
            return []
        if any(_changes(s, stmt.test) for s in changed):
            return []  # ``self.count += 1`` before ``if self.count < 3``: not the caller's
        said = _Substitute(values).visit(ast.parse(ast.unparse(stmt.test), mode="eval"))
        out.append(negated(ast.unparse(said.body)))
    return []


def _changes(stmt: ast.stmt, test: ast.expr) -> bool:
    """Whether ``stmt`` may change what ``test`` reads: a store (``=``, ``+=``, annotated)
    to an attribute or item the test reads, to a part of one or to a larger whole
    (``self.traps[error] = True`` before ``if not self.traps[error]``; any key of
    ``self.traps`` counts), or a call on an object the test reads (``self.bump()``). A
    store to a plain name is a local, which :func:`_tests` asks about already."""
    if isinstance(stmt, ast.Expr):
        calls = [n.func for n in ast.walk(stmt) if isinstance(n, ast.Call)]
        roots = {n.id for f in calls for n in ast.walk(f) if isinstance(n, ast.Name)}
        return bool(roots & {n.id for n in ast.walk(test) if isinstance(n, ast.Name)})
    if isinstance(stmt, ast.Assign):
        targets = [t for x in stmt.targets for t in _unpacked(x)]
    elif isinstance(stmt, ast.AugAssign | ast.AnnAssign):
        targets = [stmt.target]
    else:
        return False
    parts = {id(n.value) for n in ast.walk(test) if isinstance(n, ast.Attribute | ast.Subscript)}
    read = [_path(n) for n in ast.walk(test) if isinstance(n, _READ) and id(n) not in parts]
    for target in targets:
        if isinstance(target, ast.Name):
            continue
        stored = _path(target)
        if stored is None or any(r is None or _overlap(stored, r) for r in read):
            return True
    return False


#: What a test reads as a value and a statement may store to.
_READ = (ast.Name, ast.Attribute, ast.Subscript)


def _unpacked(target: ast.expr) -> list[ast.expr]:
    if isinstance(target, ast.Tuple | ast.List):
        return [t for e in target.elts for t in _unpacked(e)]
    return [target.value] if isinstance(target, ast.Starred) else [target]


def _path(node: ast.expr) -> str | None:
    """``self.traps[]`` for ``self.traps[error]``: a store to any key may be this one;
    None where the object is no name's attribute or item (``f().x``)."""
    if isinstance(node, ast.Name):
        return node.id
    if isinstance(node, ast.Attribute):
        base = _path(node.value)
        return None if base is None else f"{base}.{node.attr}"
    if isinstance(node, ast.Subscript):
        base = _path(node.value)
        return None if base is None else f"{base}[]"
    return None


def _overlap(a: str, b: str) -> bool:
    """``a`` and ``b`` the same object or one a part of the other (``self.d`` and
    ``self.d[]``)."""
    return a == b or any(x.startswith(y) and x[len(y)] in ".[" for x, y in ((a, b), (b, a)))


class _Substitute(ast.NodeTransformer):
    def __init__(self, values: dict[str, ast.expr]) -> None:
        self.values = values

    def visit_Name(self, node: ast.Name) -> ast.expr:
        return self.values.get(node.id, node)
