"""The message a test checks on the error it caught, read from the statements after.

``pytest.raises``/``assertRaises`` without ``match`` often check the message by hand, and
test suites' helpers check it through an attribute of the error (issue 10, item 2;
blind review 2026-12-02: ``test_re``'s ``checkPatternError`` compares ``cm.exception.msg``):

- ``assert "x" in str(e.value)``, ``assert str(e) == "x"``;
- ``self.assertEqual(str(cm.exception), "x")``, ``self.assertIn("x", str(cm.exception))``,
  ``self.assertRegex(str(cm.exception), r"x")``;
- the error as ``cm.exception``, ``e.value``, ``e`` itself in an ``except`` handler, or a
  name bound to one of those (``err = cm.exception``), read as ``str(err)``, ``err.msg``,
  ``err.args[0]`` or ``err.message``; an attribute is a part of the message, never all
  of it (``re.error``'s ``msg`` lacks the position ``str()`` adds);
- inside a ``with self.subTest(...)`` block right after;
- the text as a constant, a local name bound to one, or a parameter of the enclosing
  function: a helper's check (``self.assertEqual(err.msg, errmsg)``), whose text the
  helper's caller passes (:mod:`errdex.analyze.tests_calls`).
"""

from __future__ import annotations

import ast
import re
from dataclasses import dataclass

from errdex.extract.python import str_argument

from .facts import dotted

__all__ = ["Check", "constant_string", "escaped_string", "fails", "message_check"]

#: What a failed test raises: ``raise AssertionError``, ``raise self.failureException``,
#: and CPython's ``test.support.TestFailed``.
_FAILURES = frozenset({"AssertionError", "failureException", "TestFailed"})
#: Statements after the block that are read for a check.
WINDOW = 3
#: Attributes of an error that hold (a part of) its message.
_MESSAGE_ATTRS = frozenset({"msg", "message"})


@dataclass(frozen=True, slots=True)
class Check:
    """A message check: the text (None when a parameter holds it), whether it is all of
    the message, whether it is a regular expression, and the parameter's name."""

    text: str | None
    whole: bool = False
    regex: bool = False
    param: str | None = None


def constant_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """A string the test spells out: a constant, a local name bound to one, a sum of them."""
    if isinstance(node, ast.Constant) and isinstance(node.value, str):
        return node.value
    if isinstance(node, ast.Name):
        return strings.get(node.id)
    if isinstance(node, ast.BinOp) and isinstance(node.op, ast.Add):
        left = constant_string(node.left, strings)
        right = constant_string(node.right, strings)
        return None if left is None or right is None else left + right
    return None


class _Reader:
    """One reading of the statements after a block: the names the error is known by."""

    def __init__(self, as_name: str, strings: dict[str, str], params: frozenset[str]) -> None:
        self.holders = {as_name}  # ``cm``, ``excinfo`` or the handler's ``e``
        self.errors: set[str] = set()  # names bound to the error itself
        self.strings = strings
        self.params = params - strings.keys()  # a name rebound to a constant is that

    def read(self, stmts: list[ast.stmt], depth: int = 0) -> Check | None:
        for stmt in stmts[:WINDOW]:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                if isinstance(target, ast.Name) and self._error(stmt.value):
                    self.errors.add(target.id)
                continue
            found = self._statement(stmt)
            if found is not None:
                return found
            if isinstance(stmt, ast.With) and depth == 0 and _is_subtest(stmt):
                found = self.read(stmt.body, depth + 1)
                if found is not None:
                    return found
        return None

    def _error(self, node: ast.expr) -> bool:
        """``cm.exception``, ``e.value``, the handler's ``e``, or a name bound to one."""
        if isinstance(node, ast.Attribute) and node.attr in ("value", "exception"):
            return isinstance(node.value, ast.Name) and node.value.id in self.holders
        return isinstance(node, ast.Name) and (node.id in self.errors or node.id in self.holders)

    def _message(self, node: ast.expr) -> bool | None:
        """True for all of the message (``str(e)``), False for a part (``e.msg``,
        ``e.args[0]``), None for anything else."""
        if (argument := str_argument(node)) is not None:
            return True if self._error(argument) else None
        if isinstance(node, ast.Attribute) and node.attr in _MESSAGE_ATTRS:
            return False if self._error(node.value) else None
        if (
            isinstance(node, ast.Subscript)
            and isinstance(node.value, ast.Attribute)
            and node.value.attr == "args"
            and isinstance(node.slice, ast.Constant)
            and node.slice.value == 0
        ):
            return False if self._error(node.value.value) else None
        return None

    def _text(self, node: ast.expr, *, whole: bool, regex: bool = False) -> Check | None:
        value = constant_string(node, self.strings)
        if value is not None:
            return Check(value, whole, regex)
        if isinstance(node, ast.Name) and node.id in self.params:
            return Check(None, whole, regex, node.id)
        return None

    def _statement(self, stmt: ast.stmt) -> Check | None:
        if isinstance(stmt, ast.Assert) and isinstance(stmt.test, ast.Compare):
            test = stmt.test
            if len(test.ops) != 1:
                return None
            op = {ast.In: "in", ast.Eq: "eq"}.get(type(test.ops[0]))
            return self._compared(op, test.left, test.comparators[0])
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            return None
        call = stmt.value
        func = call.func
        if not isinstance(func, ast.Attribute) or len(call.args) < 2:
            return None
        op = {
            "assertIn": "in",
            "assertEqual": "eq",
            "assertEquals": "eq",
            "assertRegex": "regex",
        }.get(func.attr)
        return self._compared(op, call.args[0], call.args[1])

    def _compared(self, op: str | None, left: ast.expr, right: ast.expr) -> Check | None:
        """``"x" in str(e)`` (a part), ``str(e) == "x"`` either way round (all of it, or a
        part for an attribute), ``assertRegex(str(e), r"x")`` (a regex searched in it)."""
        if op == "in":
            return self._text(left, whole=False) if self._message(right) is not None else None
        if op == "regex":
            found = self._message(left)
            return None if found is None else self._text(right, whole=False, regex=True)
        if op == "eq":
            for a, b in ((left, right), (right, left)):
                whole = self._message(a)
                if whole is not None:
                    return self._text(b, whole=whole)
        return None


def _is_subtest(stmt: ast.With) -> bool:
    return any(
        isinstance(item.context_expr, ast.Call)
        and isinstance(item.context_expr.func, ast.Attribute)
        and item.context_expr.func.attr == "subTest"
        for item in stmt.items
    )


def message_check(
    after: list[ast.stmt],
    as_name: str,
    strings: dict[str, str],
    params: frozenset[str] = frozenset(),
) -> Check | None:
    """The message check on the error ``as_name`` holds (the ``as`` name of the block, or
    the handler's name) among the first statements of ``after``, or None."""
    return _Reader(as_name, strings, params).read(after)


def escaped_string(node: ast.expr, strings: dict[str, str]) -> str | None:
    """``re.escape("...")``: the regex that matches the literal text."""
    if (
        isinstance(node, ast.Call)
        and len(node.args) == 1
        and (ref := dotted(node.func)) is not None
        and ref[-1] == "escape"
    ):
        value = constant_string(node.args[0], strings)
        return re.escape(value) if value is not None else None
    return None


def fails(stmt: ast.stmt, imports: dict[str, str]) -> bool:
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
