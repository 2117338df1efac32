"""What a test gets from around it, where that is trivial enough to inline.

A test class's attributes and its ``setUp``/``setup_method``/``setup_class`` assignments
(``self.G = nx.Graph()`` becomes ``G = nx.Graph()``), a module fixture that only returns
a value, and ``@pytest.mark.parametrize`` cases. Everything else is out of reach and
raises :class:`NotStandalone`.
"""

from __future__ import annotations

import ast
import itertools
from dataclasses import dataclass, field

__all__ = ["ClassContext", "NotStandalone", "class_context", "fixture_lines", "parametrize_cases"]

_SETUPS = ("setup_class", "setUpClass", "setup_method", "setUp", "setup")
#: Calls on the test case that only arrange clean-up: dropped, they reach no raise.
_CLEANUPS = frozenset({"addCleanup", "addClassCleanup", "enterContext", "doCleanups"})


class NotStandalone(Exception):
    """The test needs something errdex cannot bring into a standalone snippet."""


@dataclass
class ClassContext:
    """A test class's data attributes, and the statements that set them."""

    name: str
    attrs: set[str] = field(default_factory=set)
    prelude: list[ast.stmt] = field(default_factory=list)

    def rename(self, statements: list[ast.stmt]) -> list[ast.stmt]:
        """``self.X``/``cls.X``/``TestClass.X`` as plain ``X`` for the class's data."""
        owners = {"self", "cls", self.name}
        attrs = self.attrs

        class _Rename(ast.NodeTransformer):
            def visit_Attribute(self, node: ast.Attribute) -> ast.AST:
                value = node.value
                if isinstance(value, ast.Name) and value.id in owners and node.attr in attrs:
                    return ast.copy_location(ast.Name(node.attr, node.ctx), node)
                return self.generic_visit(node)

        module = ast.Module(body=statements, type_ignores=[])
        return list(_Rename().visit(module).body)


def _owner_attr(target: ast.expr) -> str | None:
    if (
        isinstance(target, ast.Attribute)
        and isinstance(target.value, ast.Name)
        and target.value.id in ("self", "cls")
    ):
        return target.attr
    return None


def _is_cleanup(stmt: ast.stmt) -> bool:
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return False
    func = stmt.value.func
    if isinstance(func, ast.Attribute) and func.attr in _CLEANUPS:
        return True
    # super().setUp()
    return (
        isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Call)
        and isinstance(func.value.func, ast.Name)
        and func.value.func.id == "super"
    )


def class_context(cls: ast.ClassDef) -> ClassContext:
    context = ClassContext(cls.name)
    methods = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)}
    for stmt in cls.body:
        if isinstance(stmt, ast.Assign) and all(isinstance(t, ast.Name) for t in stmt.targets):
            context.attrs |= {t.id for t in stmt.targets if isinstance(t, ast.Name)}
            context.prelude.append(stmt)
    for name in _SETUPS:
        method = methods.get(name)
        if method is None:
            continue
        for stmt in method.body:
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring
            if _is_cleanup(stmt):
                continue
            if isinstance(stmt, ast.Assign):
                for target in stmt.targets:
                    attr = _owner_attr(target)
                    if attr is not None:
                        context.attrs.add(attr)
            context.prelude.append(stmt)
    return context


def _is_fixture(func: ast.FunctionDef) -> bool:
    for deco in func.decorator_list:
        node = deco.func if isinstance(deco, ast.Call) else deco
        if isinstance(node, ast.Attribute) and node.attr == "fixture":
            return True
        if isinstance(node, ast.Name) and node.id == "fixture":
            return True
    return False


#: Fixtures pytest gives every test that a fixture may take and not use.
_BUILTIN_FIXTURES = frozenset({"request"})


def fixture_lines(tree: ast.Module, name: str) -> tuple[list[ast.stmt], list[str]] | None:
    """A fixture of ``tree`` whose body ends by returning (or yielding) a value, as
    statements binding ``name``, and the fixtures it takes itself (for the caller to bring
    in first); None when ``tree`` defines no fixture of that name."""
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name == name and _is_fixture(stmt):
            args = stmt.args
            if args.kwonlyargs or args.vararg or args.kwarg or args.posonlyargs:
                raise NotStandalone(f"fixture {name} takes arguments")
            body = [
                s
                for s in stmt.body
                if not (isinstance(s, ast.Expr) and isinstance(s.value, ast.Constant))
            ]
            taken = [a.arg for a in args.args]
            used = {n.id for s in body for n in ast.walk(s) if isinstance(n, ast.Name)}
            if any(a in _BUILTIN_FIXTURES and a in used for a in taken):
                raise NotStandalone(f"fixture {name} uses pytest's request")
            if not body:
                break
            last = body[-1]
            value: ast.expr | None = None
            if isinstance(last, ast.Return):
                value = last.value
            elif isinstance(last, ast.Expr) and isinstance(last.value, ast.Yield):
                value = last.value.value
            if value is None or any(isinstance(s, ast.Return) for s in body[:-1]):
                break
            assign = ast.Assign(targets=[ast.Name(name, ast.Store())], value=value)
            return [*body[:-1], assign], [a for a in taken if a not in _BUILTIN_FIXTURES]
    else:
        return None
    raise NotStandalone(f"fixture {name} is out of reach")


def _names(node: ast.expr) -> list[str] | None:
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return [n.strip() for n in node.value.split(",") if n.strip()]
    if isinstance(node, (ast.List, ast.Tuple)):
        out = [e.value for e in node.elts if isinstance(e, ast.Constant)]
        return [str(n) for n in out] if len(out) == len(node.elts) else None
    return None


def _case(names: list[str], case: ast.expr) -> dict[str, ast.expr] | None:
    if (
        isinstance(case, ast.Call)
        and isinstance(case.func, ast.Attribute)
        and case.func.attr == "param"
    ):
        values: list[ast.expr] = list(case.args)
        if len(names) == 1:
            return {names[0]: values[0]} if len(values) == 1 else None
    elif len(names) == 1:
        return {names[0]: case}
    elif isinstance(case, (ast.Tuple, ast.List)):
        values = list(case.elts)
    else:
        return None
    if len(values) != len(names) or any(isinstance(v, ast.Starred) for v in values):
        return None
    return dict(zip(names, values, strict=True))


def parametrize_cases(func: ast.FunctionDef, pytest_names: set[str]) -> list[dict[str, ast.expr]]:
    """The cases of the test's ``parametrize`` marks (their product, first ones first)."""
    groups: list[list[dict[str, ast.expr]]] = []
    for deco in func.decorator_list:
        if not (
            isinstance(deco, ast.Call)
            and isinstance(deco.func, ast.Attribute)
            and deco.func.attr == "parametrize"
            and len(deco.args) >= 2
        ):
            continue
        names = _names(deco.args[0])
        values = deco.args[1]
        if names is None or not isinstance(values, (ast.List, ast.Tuple)):
            continue
        cases = [c for v in values.elts[:5] if (c := _case(names, v)) is not None]
        if cases:
            groups.append(cases)
    if not groups:
        return []
    out: list[dict[str, ast.expr]] = []
    for combo in itertools.islice(itertools.product(*groups), 5):
        merged: dict[str, ast.expr] = {}
        for part in combo:
            merged.update(part)
        out.append(merged)
    return out
