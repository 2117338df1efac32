"""What a test's expectation accepts, so that a run of a snippet cut from it confirms the
test only where the test itself would have passed.

A snippet cut out of ``with pytest.raises(ConnectTimeout): requests.get(TARPIT,
timeout=(0.1, 0.1))`` raised ``ConnectionError`` at ``adapters.py:729`` under
``errdex verify``, whose sandbox cuts the network (blind review 2026-12-06, record 10):
the test expects a subclass of that class, raised at another line on a real network, and
with this error it fails. The run reproduces the raise, not the test: "the test expects
this error, and its statements raised it here" was false. A run is the test's only when
the error it raised is one the expectation accepts: its class is (or derives from) a class
the test names, and the test's regex (``match=``, ``assertRaisesRegex``) finds its
message. Where what the test names cannot be read (``self.failureException``, a variable
holding a class, a regex built at run time) nothing is ruled out.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable
from dataclasses import dataclass

from errdex.analyze.expects import EXPECT_CALLS, WRAPPED_CASE

from ._handler_checks import handler_match
from .sandbox import RunResult

__all__ = ["Expectation", "accepts", "expectation_at", "held", "refused"]

#: Each expectation call by the name a test writes, read as the analyst reads it (one
#: table: ``assertRaisesRegexp`` and numpy's ``assert_raises`` are the same expectations).
_KINDS = {**EXPECT_CALLS, **WRAPPED_CASE}
_REGEX_KINDS = frozenset({"assertRaisesRegex", "assertWarnsRegex"})


@dataclass(frozen=True, slots=True)
class Expectation:
    #: The classes the test names, by their last dotted part; () when one cannot be read.
    classes: tuple[str, ...] = ()
    #: The regex the message must contain; None when there is none or it cannot be read.
    match: str | None = None
    #: The name the test passes as the class (``pytest.raises(exception)``): the
    #: snippet binds it from ``@pytest.mark.parametrize`` (:meth:`bound`).
    variable: str = ""
    #: A check of the error the test makes that was not read (an ``except`` comparing the
    #: message to what cannot be read): only a test's own expectation may run so.
    unread: bool = False
    #: The class is an inlined helper's parameter (``except exc_type``): unread, it is
    #: what each call passes, never "nothing ruled out" (:func:`held`).
    param: bool = False

    def bound(self, program: str) -> Expectation:
        """The classes ``variable`` is bound to at the snippet's top level (its last
        binding there); itself when the snippet binds it to nothing readable."""
        if not self.variable or self.variable not in program:
            return self
        try:
            tree = ast.parse(program)
        except (SyntaxError, ValueError, RecursionError):
            return self
        classes: tuple[str, ...] = ()
        for stmt in tree.body:
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                value = _value_of(stmt.targets[0], stmt.value, self.variable)
                if value is not None:
                    classes = _names(value)
        return Expectation(classes, self.match, unread=self.unread) if classes else self


def _value_of(target: ast.expr, value: ast.expr, name: str) -> ast.expr | None:
    """What ``name = value`` or ``exc, arg = (ValueError, 1)`` (one item of a loop over
    pairs, :mod:`._loop_items`) binds ``name`` to; None when it binds it to nothing read."""
    if isinstance(target, ast.Name):
        return value if target.id == name else None
    if (
        isinstance(target, ast.Tuple)
        and isinstance(value, ast.Tuple)
        and len(target.elts) == len(value.elts)
    ):
        for elt, item in zip(target.elts, value.elts, strict=True):
            if isinstance(elt, ast.Name) and elt.id == name:
                return item
    return None


def expectation_at(
    func: ast.FunctionDef, line: int, bindings: dict[str, ast.expr] | None = None
) -> Expectation:
    """The expectation a test states at ``line`` (a ``with``, a call of ``assertRaises``
    with the function, or a ``try``/``except``); an empty one when none is read there.
    ``bindings`` are an inlined helper's parameters (:mod:`._helper_calls`): its
    ``except exc_type`` names the class the call passed."""
    table = bindings or {}

    def resolve(expr: ast.expr) -> ast.expr:
        return table.get(expr.id, expr) if isinstance(expr, ast.Name) else expr

    for node in ast.walk(func):
        if not isinstance(node, ast.stmt) or node.lineno != line:
            continue
        if isinstance(node, ast.With):
            for item in node.items:
                found = _of_call(item.context_expr, resolve)
                if found is not None:
                    return found
        elif isinstance(node, ast.Expr):
            found = _of_call(node.value, resolve)
            if found is not None:
                return found
        elif isinstance(node, ast.Try):
            types = [h.type for h in node.handlers if h.type is not None]
            names = [_names(resolve(t)) for t in types]
            param = any(isinstance(t, ast.Name) and t.id in table for t in types)
            if param and not all(names):
                return Expectation(param=True)
            if names and all(n for n in names):
                classes = tuple(c for n in names for c in n)
                checks = [handler_match(h, resolve) for h in node.handlers]
                matches = {m for m, _ in checks if m is not None}
                read = all(r for _, r in checks) and len(matches) <= 1
                match = next(iter(matches)) if read and matches else None
                return Expectation(classes, match, unread=not read)
    return Expectation()


def _of_call(
    expr: ast.expr, resolve: Callable[[ast.expr], ast.expr] = lambda e: e
) -> Expectation | None:
    if not isinstance(expr, ast.Call):
        return None
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    kind = _KINDS.get(name)
    if kind is None:
        return None
    if kind == "pytest.deprecated_call":  # no class argument: what pytest's catches
        return Expectation(("DeprecationWarning", "PendingDeprecationWarning", "FutureWarning"))
    if not expr.args:
        return Expectation()
    first = resolve(expr.args[0])
    classes = _names(first)
    variable = first.id if isinstance(first, ast.Name) and not classes else ""
    param = first is not expr.args[0]
    pattern: ast.expr | None = None
    if kind in _REGEX_KINDS and len(expr.args) > 1:
        pattern = expr.args[1]
    for kw in expr.keywords:
        if kw.arg in ("match", "expected_regex"):
            pattern = kw.value
    match = None
    pattern = resolve(pattern) if pattern is not None else None
    if isinstance(pattern, ast.Constant) and isinstance(pattern.value, str):
        match = pattern.value
    return Expectation(classes, match, variable, param=param)


def _names(expr: ast.expr) -> tuple[str, ...]:
    """``E``, ``mod.E``, ``(E, F)``: each class's last part; () when any is not a class
    named so (a lower-case name is a variable or an attribute that holds one)."""
    items = expr.elts if isinstance(expr, ast.Tuple) else [expr]
    out: list[str] = []
    for item in items:
        last = item.attr if isinstance(item, ast.Attribute) else getattr(item, "id", "")
        if not last or not last[0].isupper():
            return ()
        out.append(last)
    return tuple(out)


def held(expectation: Expectation) -> bool:
    """Whether a helper's expectation (:mod:`._helper_calls`) may run: no check left
    unread, and a class read where the helper's parameter names it (its ``except
    exc_type`` unread, :func:`accepts` took any error for the test's). A class the helper
    names itself but unread (``re.error``) rules nothing out, as in a test's own."""
    return not expectation.unread and (bool(expectation.classes) or not expectation.param)


def accepts(expectation: Expectation, result: RunResult) -> bool:
    """Whether the test's expectation takes the error the run raised."""
    raised = result.classes or ((result.error_class,) if result.error_class else ())
    if expectation.classes:
        names = {c.rsplit(".", 1)[-1] for c in raised}
        if not names & set(expectation.classes):
            return False
    if expectation.match is not None and result.message is not None:
        try:
            return re.search(expectation.match, result.message) is not None
        except re.error:
            return True
    return True


def refused(expectation: Expectation, result: RunResult) -> str:
    """Why the test would not take the error: the reason a failed run gives."""
    short = (result.error_class or "?").rsplit(".", 1)[-1]
    if expectation.classes and not accepts(Expectation(expectation.classes), result):
        return f"raised {short}, which the test's {' or '.join(expectation.classes)} is not"
    return f"raised {short} with a message the test's {expectation.match!r} does not find"
