"""Test expectations read from a test function's body into :class:`~errdex.analyze.facts.Expect`.

The forms: ``with pytest.raises(...)``/``pytest.warns``, unittest's ``assertRaises``,
``assertRaisesRegex``, ``assertWarns``, ``assertWarnsRegex`` (on ``self`` or any test case),
each as a context manager or called with the function and its arguments; and the
hand-written form, a ``try`` whose body ends in a failure (``self.fail()``, ``pytest.fail()``,
``assert False``, ``raise AssertionError``, ``raise self.failureException``, CPython's
``raise TestFailed``) or whose ``else`` fails, with ``except C``. A statement that calls a
test-module helper with dotted arguments (``self.check(ValueError, lib.parse, "")``) is kept
as a :data:`HELPER_CALL`: linking substitutes its arguments into the helper's own
expectation when the helper wraps one over its parameters.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable

from .facts import CallRef, Expect, FuncFacts, FunctionNode, ModuleFacts, clean, dotted

__all__ = ["EXPECT_CALLS", "HELPER_CALL", "TRY_EXCEPT", "ExpectFinder", "call_refs"]

EXPECT_CALLS = {
    "raises": "pytest.raises",
    "warns": "pytest.warns",
    "assertRaises": "assertRaises",
    "assertRaisesRegex": "assertRaisesRegex",
    "assertRaisesRegexp": "assertRaisesRegex",
    "assertWarns": "assertWarns",
    "assertWarnsRegex": "assertWarnsRegex",
}
#: Kinds whose second argument is the regular expression (the callable comes third).
_REGEX_KINDS = frozenset({"assertRaisesRegex", "assertWarnsRegex"})
#: The expectation written by hand as try / except / fail.
TRY_EXCEPT = "try-except"
#: A call of a possible helper: ``classes`` holds its positional arguments (``()`` where one
#: is no dotted name) and ``calls`` the helper as called; never linked itself.
HELPER_CALL = "helper-call"
#: What a failed test raises: ``raise AssertionError``, ``raise self.failureException``,
#: and CPython's ``test.support.TestFailed``.
_FAILURES = frozenset({"AssertionError", "failureException", "TestFailed"})


class ExpectFinder:
    """``with pytest.raises(...)``, ``self.assertRaises(...)`` and their callable forms."""

    def __init__(
        self,
        facts: ModuleFacts,
        func: FuncFacts,
        node: FunctionNode,
        snippet: Callable[[int, int], str],
    ) -> None:
        self.facts = facts
        self.snippet = snippet  # the source lines shown for an expectation
        self.func = func
        self.node = node
        self.strings: dict[str, str] = {}

    def run(self) -> None:
        self._block(self.node.body)

    def _name(self) -> str:
        facts = self.facts
        inner = self.func.qualname[len(facts.name) + 1 :] if facts.name else self.func.qualname
        parts = inner.split(".<locals>.")[0].split(".")
        return "::".join([facts.path, *parts])

    def _kind(self, call: ast.Call) -> str | None:
        ref = dotted(call.func)
        if ref is None:
            return None
        last = ref[-1]
        kind = EXPECT_CALLS.get(last)
        if kind is None:
            return None
        if kind.startswith("pytest."):
            head = ref[0]
            resolved = self.facts.imports.get(head, head)
            full = ".".join((resolved, *ref[1:]))
            return kind if full in ("pytest.raises", "pytest.warns") else None
        return kind if len(ref) >= 2 else None  # self.assertRaises, self.case.assertRaises

    def _block(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                value = _constant_string(stmt.value, self.strings)
                if isinstance(target, ast.Name) and value is not None:
                    self.strings[target.id] = value
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                for item in stmt.items:
                    expr = item.context_expr
                    if isinstance(expr, ast.Call) and (kind := self._kind(expr)) is not None:
                        as_name = (
                            item.optional_vars.id
                            if isinstance(item.optional_vars, ast.Name)
                            else None
                        )
                        self._with(stmt, expr, kind, as_name, body[i + 1 :])
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                kind = self._kind(call)
                if kind is not None:
                    self._callable_form(stmt, call, kind)
                else:
                    self._helper_call(stmt, call)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                self._try_form(stmt)
            for child in _child_blocks(stmt):
                self._block(child)

    def _classes(self, node: ast.expr | None) -> list[CallRef]:
        if node is None:
            return []
        if isinstance(node, ast.Tuple):
            return [ref for e in node.elts if (ref := dotted(e)) is not None]
        ref = dotted(node)
        return [ref] if ref is not None else []

    def _match(self, call: ast.Call, kind: str) -> tuple[str | None, str | None]:
        node: ast.expr | None = None
        for kw in call.keywords:
            if kw.arg in ("match", "expected_regex"):
                node = kw.value
        if node is None and kind in _REGEX_KINDS and len(call.args) > 1:
            node = call.args[1]
        if node is None:
            return None, None
        value = _constant_string(node, self.strings)
        if value is not None:
            source = None if isinstance(node, ast.Constant) else ast.unparse(node)
            return clean(value), source
        escaped = _escaped_string(node, self.strings)
        if escaped is not None:
            return escaped, ast.unparse(node)
        return None, ast.unparse(node)

    def _calls(self, nodes: list[ast.AST]) -> list[CallRef]:
        calls: list[CallRef] = []
        stack = list(nodes)
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call):
                calls.extend(r for r in call_refs(node.func) if r[-1] not in EXPECT_CALLS)
            stack.extend(ast.iter_child_nodes(node))
        return calls

    def _add(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        kind: str,
        calls: list[CallRef],
        match: tuple[str | None, str | None],
        literal: tuple[str, bool] | None = None,
    ) -> None:
        self._add_classes(stmt, self._expected(call), kind, calls, match, literal)

    def _expected(self, call: ast.Call) -> list[CallRef]:
        classes = self._classes(call.args[0] if call.args else None)
        if not classes:
            for kw in call.keywords:
                if kw.arg in ("expected_exception", "expected_warning"):
                    classes = self._classes(kw.value)
        return classes

    def _add_classes(
        self,
        stmt: ast.stmt,
        classes: list[CallRef],
        kind: str,
        calls: list[CallRef],
        match: tuple[str | None, str | None],
        literal: tuple[str, bool] | None = None,
    ) -> None:
        if not classes:
            return
        value, source = match
        is_literal = False
        whole = False
        if value is None and literal is not None:
            value, whole = literal
            is_literal = True
        end = stmt.end_lineno or stmt.lineno
        self.facts.expects.append(
            Expect(
                path=self.facts.path,
                line=stmt.lineno,
                name=self._name(),
                kind=kind,
                classes=classes,
                match=value,
                match_is_literal=is_literal,
                match_whole=whole,
                match_source=source,
                snippet=self.snippet(stmt.lineno, end),
                calls=calls,
                module=self.facts.name,
                function=self.func.qualname,
            )
        )

    def _with(
        self,
        stmt: ast.With | ast.AsyncWith,
        call: ast.Call,
        kind: str,
        as_name: str | None,
        after: list[ast.stmt],
    ) -> None:
        literal = _literal_check(after, as_name, self.strings) if as_name else None
        calls = self._calls(list(stmt.body))
        self._add(stmt, call, kind, calls, self._match(call, kind), literal)

    def _callable_form(self, stmt: ast.stmt, call: ast.Call, kind: str) -> None:
        index = 2 if kind in _REGEX_KINDS else 1
        if len(call.args) <= index:
            return
        target = call.args[index]
        calls = call_refs(target) or self._calls([target])
        self._add(stmt, call, kind, calls, self._match(call, kind))

    def _try_form(self, stmt: ast.Try | ast.TryStar) -> None:
        """``try: f() ; self.fail()`` or ``try: f() except C: … else: self.fail()``."""
        body = stmt.body
        imports = self.facts.imports
        if body and _fails(body[-1], imports):
            reached = body[:-1]
        elif stmt.orelse and _fails(stmt.orelse[0], imports):
            reached = body
        else:
            return
        calls = self._calls(list(reached))
        if not calls:
            return
        for handler in stmt.handlers:
            classes = self._classes(handler.type)
            if handler.name is None or not classes:
                literal = None
            else:
                literal = _literal_check(handler.body, handler.name, self.strings)
            self._add_classes(stmt, classes, TRY_EXCEPT, calls, (None, None), literal)

    def _helper_call(self, stmt: ast.stmt, call: ast.Call) -> None:
        """``self.check(E, f, x)`` or ``check(E, f, x)`` with a dotted argument: kept for
        linking, which knows whether ``check`` wraps an expectation over its parameters."""
        ref = dotted(call.func)
        if ref is None or len(ref) > 2 or (len(ref) == 2 and ref[0] not in ("self", "cls")):
            return
        if ref[-1].startswith("assert") or ref[-1] in ("fail", "skipTest", "subTest"):
            return
        args: list[CallRef] = []
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                break  # the positions after it are not known
            args.append(dotted(arg) or ())
        if not any(args):
            return
        self._add_classes(stmt, args, HELPER_CALL, [ref], (None, None))


def call_refs(node: ast.expr) -> list[CallRef]:
    """The callee as written and, for ``Reader(b"").seek``, also ``Reader.seek``: the
    method of the class the call builds (an index resolves it only where ``Reader`` is
    a class; the method by name alone, ``("", "seek")``, stays beside it)."""
    ref = dotted(node)
    refs = [ref] if ref is not None else []
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
        inner = dotted(node.value.func)
        if inner is not None and inner[0] not in ("", "self", "cls", "super()"):
            refs.append((*inner, node.attr))
    return refs


def _fails(stmt: ast.stmt, imports: dict[str, str]) -> bool:
    """A statement that makes a test fail: ``self.fail(…)``, ``pytest.fail(…)`` (or
    ``fail(…)`` imported from pytest), ``assert False``, ``raise AssertionError(…)``,
    ``raise self.failureException(…)``, ``raise support.TestFailed(…)``."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        ref = dotted(stmt.value.func)
        if ref is None or ref[-1] != "fail":
            return False
        return len(ref) >= 2 or imports.get("fail") == "pytest.fail"
    if isinstance(stmt, ast.Assert):
        return isinstance(stmt.test, ast.Constant) and not stmt.test.value
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        ref = dotted(exc)
        return ref is not None and ref[-1] in _FAILURES
    return False


def _child_blocks(stmt: ast.stmt) -> list[list[ast.stmt]]:
    if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef)):
        return []
    blocks: list[list[ast.stmt]] = []
    for name in ("body", "orelse", "finalbody"):
        block = getattr(stmt, name, None)
        if isinstance(block, list) and block and isinstance(block[0], ast.stmt):
            blocks.append(block)
    for handler in getattr(stmt, "handlers", []) or []:
        blocks.append(handler.body)
    for case in getattr(stmt, "cases", []) or []:
        blocks.append(case.body)
    return blocks


def _constant_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """A string the test spells out: a constant, a local name bound to one, a sum of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = _constant_string(node.left, strings)
        right = _constant_string(node.right, strings)
        return None if left is None or right is None else left + right
    return None


def _escaped_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """``re.escape("...")``: the regex that matches the literal text."""
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and (ref := dotted(node.func)) is not None
        and ref[-1] == "escape"
    ):
        value = _constant_string(node.args[0], strings)
        return re.escape(value) if value is not None else None
    return None


def _literal_check(
    after: list[ast.stmt], as_name: str, strings: dict[str, str]
) -> tuple[str, bool] | None:
    """``assert "x" in str(e.value)`` (or ``== str(e.value)``) right after the with block."""
    for stmt in after[:3]:
        found = _unittest_check(stmt, as_name, strings)
        if found is not None:
            return found
        if not isinstance(stmt, ast.Assert) or not isinstance(stmt.test, ast.Compare):
            continue
        test = stmt.test
        if len(test.ops) != 1:
            continue
        op = {ast.In: "in", ast.Eq: "eq"}.get(type(test.ops[0]))
        found = _compared(op, test.left, test.comparators[0], as_name, strings)
        if found is not None:
            return found
    return None


def _unittest_check(
    stmt: ast.stmt, as_name: str, strings: dict[str, str]
) -> tuple[str, bool] | None:
    """``self.assertEqual(str(cm.exception), "x")`` or ``self.assertIn("x", str(cm.exception))``."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    ref = dotted(call.func)
    if ref is None or len(ref) < 2 or len(call.args) < 2:
        return None
    op = {"assertIn": "in", "assertEqual": "eq"}.get(ref[-1])
    return _compared(op, call.args[0], call.args[1], as_name, strings)


def _compared(
    op: str | None, left: ast.expr, right: ast.expr, as_name: str, strings: dict[str, str]
) -> tuple[str, bool] | None:
    """The text compared with the error's message: ``"x" in str(e)`` (a part of it) or
    ``str(e) == "x"`` either way round (all of it)."""
    if op == "in" and _is_str_of(right, as_name):
        value = _constant_string(left, strings)
        return (value, False) if value is not None else None
    if op == "eq":
        for a, b in ((left, right), (right, left)):
            if _is_str_of(a, as_name):
                value = _constant_string(b, strings)
                if value is not None:
                    return value, True
    return None


def _is_str_of(node: ast.expr, as_name: str) -> bool:
    """``str(e.value)`` or ``str(e)`` for the ``as`` name of the with block."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "str"
        and len(node.args) == 1
    ):
        return False
    arg = node.args[0]
    if isinstance(arg, ast.Attribute) and arg.attr in ("value", "exception"):
        arg = arg.value
    return isinstance(arg, ast.Name) and arg.id == as_name
