"""Test expectations read from a test function's body into :class:`~errdex.analyze.facts.Expect`.

The forms: ``with pytest.raises(...)``/``pytest.warns``, unittest's ``assertRaises``,
``assertRaisesRegex``, ``assertWarns``, ``assertWarnsRegex`` (on ``self`` or any test case),
each as a context manager or called with the function and its arguments (also through a
local name bound to the method: ``raises = self.assertRaises``, or to a lambda that
passes it its callable: ``badvalue = lambda f: self.assertRaises(ValueError, f)``); and the
hand-written form, a ``try`` whose body ends in a failure (``self.fail()``, ``pytest.fail()``,
``assert False``, ``raise AssertionError``, ``raise self.failureException``, CPython's
``raise TestFailed``) or whose ``else`` fails, with ``except C``. A statement that calls a
test-module helper with dotted arguments (``self.check(ValueError, lib.parse, "")``) is kept
as a :data:`HELPER_CALL`: linking substitutes its arguments into the helper's own
expectation when the helper wraps one over its parameters. Also ``pytest.deprecated_call``
and ``with warnings.catch_warnings(record=True) as w`` with a check of ``w[i].category``
(:mod:`.expects_warnings`).
"""

from __future__ import annotations

import ast
import unittest
from collections.abc import Callable

from .call_shapes import block_shapes
from .callsites import constant_of
from .expects_checks import Check, constant_string, escaped_string, fails, message_check
from .expects_warnings import CATCH_WARNINGS, made_errors, recorded, records_warnings
from .facts import CallRef, Expect, FuncFacts, FunctionNode, ModuleFacts, clean, dotted
from .guard_eval import is_immutable
from .param_rows import Row, parametrize_rows

__all__ = [
    "CONSTRUCTED",
    "EXPECT_CALLS",
    "HELPER_CALL",
    "SYNTAX_DUNDERS",
    "TRY_EXCEPT",
    "ExpectFinder",
    "call_refs",
    "syntax_calls",
]

EXPECT_CALLS = {
    "raises": "pytest.raises",
    "warns": "pytest.warns",
    "deprecated_call": "pytest.deprecated_call",
    "assertRaises": "assertRaises",
    "assertRaisesRegex": "assertRaisesRegex",
    "assertRaisesRegexp": "assertRaisesRegex",
    "assertWarns": "assertWarns",
    "assertWarnsRegex": "assertWarnsRegex",
}
#: ``numpy.testing``'s and ``nose.tools``' wrappers of unittest's methods (numpy's, scipy's
#: and their users' suites: ``assert_raises(ValueError, np.reshape, a, -2)``), called with
#: the same arguments, as a context manager or with the callable: read as the method they
#: wrap.
WRAPPED_CASE = {
    "assert_raises": "assertRaises",
    "assert_raises_regex": "assertRaisesRegex",
    "assert_raises_regexp": "assertRaisesRegex",
    "assert_warns": "assertWarns",
}
#: The modules those wrappers come from.
_WRAPPERS_FROM = ("numpy.testing.", "nose.tools.")
#: Kinds whose second argument is the regular expression (the callable comes third).
_REGEX_KINDS = frozenset({"assertRaisesRegex", "assertWarnsRegex"})
_DEPRECATIONS = (("DeprecationWarning",), ("PendingDeprecationWarning",), ("FutureWarning",))
#: The expectation written by hand as try / except / fail.
TRY_EXCEPT = "try-except"
#: A call of a possible helper: ``classes`` holds its positional arguments (``()`` where one
#: is no dotted name) and ``calls`` the helper as called; never linked itself.
HELPER_CALL = "helper-call"
#: ``unittest.TestCase``'s own methods (``assertEqual``, ``fail``, ``subTest``): never a
#: suite's helper.
_CASE_METHODS = frozenset(dir(unittest.TestCase))


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
        #: Local names bound to an expectation method: ``raises = self.assertRaises``.
        self.aliases: dict[str, str] = {}
        #: Local names bound to a lambda over one expectation's callable: ``badvalue =
        #: lambda f: self.assertRaises(ValueError, f)`` -> (kind, the call, its parameter).
        self.wrapped: dict[str, tuple[str, ast.Call, str]] = {}
        #: The ``parametrize`` case being read (:mod:`.param_rows`): parameter -> value.
        self.row: Row = {}
        #: Warning categories a filter made exceptions (``simplefilter("error", C)``).
        self.errors: set[CallRef] = set()

    def run(self) -> None:
        start = len(self.facts.expects)
        self._block(self.node.body)
        rows = parametrize_rows(self.node, self.facts.imports)
        if not rows:
            return
        # read as written, a class or text a case binds is the parameter's name: dropped
        names = {n for row in rows for n in row}
        first = self.facts.expects[start:]
        del self.facts.expects[start:]
        self.facts.expects.extend(e for e in first if not _uses(e, names))
        # once per case, where a case's values change what is read: a new class or text
        seen = {_key(e) for e in self.facts.expects[start:]}
        for row in rows:
            self.row = row
            self.strings = {k: v for k, v in row.items() if isinstance(v, str)}
            self.aliases, self.wrapped, self.errors = {}, {}, set()
            at = len(self.facts.expects)
            self._block(self.node.body)
            found = self.facts.expects[at:]
            del self.facts.expects[at:]
            for expect in found:
                if _key(expect) not in seen:
                    seen.add(_key(expect))
                    self.facts.expects.append(expect)
        self.row = {}

    def _params(self) -> frozenset[str]:
        """The enclosing function's parameters: a helper's check may compare with one."""
        return frozenset(p.lstrip("*") for p in self.func.params) - {"self", "cls"}

    def _name(self) -> str:
        facts = self.facts
        inner = self.func.qualname[len(facts.name) + 1 :] if facts.name else self.func.qualname
        parts = inner.split(".<locals>.")[0].split(".")
        return "::".join([facts.path, *parts])

    def _kind(self, call: ast.Call) -> str | None:
        ref = dotted(call.func)
        if ref is None:
            return None
        if len(ref) == 1 and ref[0] in self.aliases:
            return self.aliases[ref[0]]  # ``raises(ValueError, s.substitute, {})``
        return self._kind_of(ref)

    def _kind_of(self, ref: CallRef) -> str | None:
        last = ref[-1]
        kind = EXPECT_CALLS.get(last)
        if kind is None:
            return self._wrapped_kind(ref)
        if kind.startswith("pytest."):
            head = ref[0]
            resolved = self.facts.imports.get(head, head)
            full = ".".join((resolved, *ref[1:]))
            return kind if full == kind else None
        return kind if len(ref) >= 2 else None  # self.assertRaises, self.case.assertRaises

    def _wrapped_kind(self, ref: CallRef) -> str | None:
        """``assert_raises`` as imported from ``numpy.testing`` (``np.testing.assert_raises``,
        or from a module of it) or ``nose.tools``: the unittest method it wraps."""
        kind = WRAPPED_CASE.get(ref[-1])
        if kind is None:
            return None
        full = ".".join((self.facts.imports.get(ref[0], ref[0]), *ref[1:]))
        return kind if full.startswith(_WRAPPERS_FROM) else None

    def _block(self, body: list[ast.stmt]) -> None:
        for i, stmt in enumerate(body):
            if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
                target = stmt.targets[0]
                value = constant_string(stmt.value, self.strings)
                if isinstance(target, ast.Name) and value is not None:
                    self.strings[target.id] = value
                self._alias(stmt)
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
                    elif isinstance(expr, ast.Call) and records_warnings(expr, self.facts.imports):
                        self._recorded(stmt, item.optional_vars or expr, body[i + 1 :])
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                call = stmt.value
                self.errors.update(made_errors(call, self.facts.imports))
                kind = self._kind(call)
                if kind is not None:
                    self._callable_form(stmt, call, kind)
                elif (inner := self._unwrapped(call)) is not None:
                    self._callable_form(stmt, inner[1], inner[0])
                else:
                    self._helper_call(stmt, call)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                self._try_form(stmt)
            kept = set(self.errors)  # a ``with catch_warnings()`` restores the filters
            for child in _child_blocks(stmt):
                self._block(child)
            if isinstance(stmt, (ast.With, ast.AsyncWith)):
                self.errors = kept

    def _alias(self, stmt: ast.Assign) -> None:
        """``raises = self.assertRaises`` binds an expectation to a local name (CPython's
        ``test_string``, ``test_argparse``, ``test_email``); binding it to anything
        else unbinds it."""
        target = stmt.targets[0]
        if not isinstance(target, ast.Name):
            return
        self.wrapped.pop(target.id, None)
        ref = dotted(stmt.value) if isinstance(stmt.value, ast.Attribute) else None
        kind = self._kind_of(ref) if ref is not None else None
        if kind is not None:
            self.aliases[target.id] = kind
        else:
            self.aliases.pop(target.id, None)
            self._wrapper(target.id, stmt.value)

    def _wrapper(self, name: str, value: ast.expr) -> None:
        """``badvalue = lambda f: self.assertRaises(ValueError, f)`` (CPython's
        ``test_uuid``): the expectation's callable is the lambda's one parameter."""
        if not (
            isinstance(value, ast.Lambda)
            and len(value.args.args) == 1
            and not (value.args.vararg or value.args.kwarg or value.args.kwonlyargs)
            and isinstance(value.body, ast.Call)
        ):
            return
        call, param = value.body, value.args.args[0].arg
        kind = self._kind(call)
        index = 2 if kind in _REGEX_KINDS else 1
        if kind is None or len(call.args) != index + 1:
            return
        last = call.args[index]
        if isinstance(last, ast.Name) and last.id == param:
            self.wrapped[name] = (kind, call, param)

    def _unwrapped(self, call: ast.Call) -> tuple[str, ast.Call] | None:
        """``badvalue(lambda: UUID(''))`` as ``self.assertRaises(ValueError, lambda:
        UUID(''))``: the wrapped expectation with the call's one argument as its callable."""
        if not (isinstance(call.func, ast.Name) and call.func.id in self.wrapped):
            return None
        if len(call.args) != 1 or call.keywords or isinstance(call.args[0], ast.Starred):
            return None
        kind, inner, _ = self.wrapped[call.func.id]
        return kind, ast.Call(
            func=inner.func, args=[*inner.args[:-1], call.args[0]], keywords=inner.keywords
        )

    def _classes(self, node: ast.expr | None) -> list[CallRef]:
        if node is None:
            return []
        if isinstance(node, ast.Tuple):
            return [ref for e in node.elts if (ref := self._dotted(e)) is not None]
        ref = self._dotted(node)
        return [ref] if ref is not None else []

    def _dotted(self, node: ast.expr) -> CallRef | None:
        """A class as written, or as the ``parametrize`` case binds its parameter."""
        if isinstance(node, ast.Name) and isinstance(bound := self.row.get(node.id), tuple):
            return bound
        return dotted(node)

    def _match(self, call: ast.Call, kind: str) -> tuple[str | None, str | None]:
        node: ast.expr | None = None
        for kw in call.keywords:
            if kw.arg in ("match", "expected_regex"):
                node = kw.value
        if node is None and kind in _REGEX_KINDS and len(call.args) > 1:
            node = call.args[1]
        if node is None:
            return None, None
        value = constant_string(node, self.strings)
        if value is not None:
            source = None if isinstance(node, ast.Constant) else ast.unparse(node)
            return clean(value), source
        escaped = escaped_string(node, self.strings)
        if escaped is not None:
            return escaped, ast.unparse(node)
        return None, ast.unparse(node)

    def _calls(self, nodes: list[ast.AST]) -> list[CallRef]:
        calls: list[CallRef] = []
        stack = list(nodes)
        inner: set[int] = set()  # ``x[a]`` of ``x[a][b]``, ``x[a].m()``: not the last step
        while stack:
            node = stack.pop()
            if isinstance(node, ast.Call):
                calls.extend(r for r in call_refs(node.func) if r[-1] not in EXPECT_CALLS)
            if isinstance(node, (ast.Subscript, ast.Attribute)):
                inner.add(id(node.value))
            if id(node) not in inner:
                calls.extend(syntax_calls(node))
            stack.extend(ast.iter_child_nodes(node))
        return calls

    def _add(
        self,
        stmt: ast.stmt,
        call: ast.Call,
        kind: str,
        calls: list[CallRef],
        match: tuple[str | None, str | None],
        literal: Check | None = None,
    ) -> None:
        self._add_classes(stmt, self._expected(call), kind, calls, match, literal)

    def _expected(self, call: ast.Call) -> list[CallRef]:
        if (dotted(call.func) or ("",))[-1] == "deprecated_call":
            return list(_DEPRECATIONS)  # what pytest's ``deprecated_call()`` catches
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
        literal: Check | None = None,
        texts: dict[str, str] | None = None,
    ) -> None:
        if not classes:
            return
        value, source = match
        is_literal = False
        whole = False
        if value is None and literal is not None and (literal.text is not None or not source):
            # a check by hand after the block; a parameter's text is the caller's to give
            value, whole, is_literal = literal.text, literal.whole, not literal.regex
            source = source if literal.param is None else literal.param
        end = stmt.end_lineno or stmt.lineno
        self.facts.expects.append(
            Expect(
                path=self.facts.path,
                line=stmt.lineno,
                name=self._name(),
                kind=kind,
                classes=classes,
                raised_warning=bool(self.errors)
                and all(c in self.errors or ("Warning",) in self.errors for c in classes),
                match=value,
                match_is_literal=is_literal,
                match_whole=whole,
                match_source=source,
                snippet=self.snippet(stmt.lineno, end),
                calls=calls,
                module=self.facts.name,
                function=self.func.qualname,
                texts=texts or {},
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
        literal = message_check(after, as_name, self.strings, self._params()) if as_name else None
        calls = self._calls(list(stmt.body))
        before = len(self.facts.expects)
        self._add(stmt, call, kind, calls, self._match(call, kind), literal)
        if len(self.facts.expects) == before:
            return  # nothing read of it: the constants would land on another expectation
        self.facts.expects[-1].shapes = block_shapes(stmt.body)
        body = stmt.body
        if len(body) == 1 and isinstance(body[0], ast.Expr) and isinstance(body[0].value, ast.Call):
            inner = body[0].value
            self.facts.expects[-1].constants = _constants(inner.args, inner.keywords)
            self.facts.expects[-1].passed = _passed(inner.args, inner.keywords)

    def _recorded(
        self, stmt: ast.With | ast.AsyncWith, var: ast.expr, rest: list[ast.stmt]
    ) -> None:
        """``with warnings.catch_warnings(record=True) as w`` and a category check."""
        if isinstance(var, ast.Name) and (found := recorded(var.id, stmt.body, rest)):
            calls = self._calls(list(stmt.body))
            self._add_classes(stmt, found[0], CATCH_WARNINGS, calls, (None, None), found[1])

    def _callable_form(self, stmt: ast.stmt, call: ast.Call, kind: str) -> None:
        index = 2 if kind in _REGEX_KINDS else 0 if kind == "pytest.deprecated_call" else 1
        if len(call.args) <= index:
            return
        target = call.args[index]
        calls = call_refs(target) or self._calls([target])
        before = len(self.facts.expects)
        self._add(stmt, call, kind, calls, self._match(call, kind))
        rest = call.args[index + 1 :]
        # not ``lambda: f(x)``; keywords go to ``f`` too (``newline='xyzzy'``)
        plain = dotted(target) is not None and not any(isinstance(a, ast.Starred) for a in rest)
        if len(self.facts.expects) > before and plain:
            keywords = [k for k in call.keywords if k.arg != "msg"]
            if all(k.arg is not None for k in keywords):  # not ``**kwargs``
                expect = self.facts.expects[-1]
                expect.given = len(rest)  # the interpreter checks these against the
                expect.keywords = tuple(str(k.arg) for k in keywords)  # parameters
                expect.shapes = ((dotted(target) or (), expect.given, expect.keywords),)
                expect.uncallable = tuple(
                    i for i, a in enumerate(rest) if isinstance(a, (ast.Constant, ast.Tuple))
                )
            self.facts.expects[-1].constants = _constants(rest, keywords)
            self.facts.expects[-1].passed = _passed(rest, keywords)

    def _try_form(self, stmt: ast.Try | ast.TryStar) -> None:
        """``try: f() ; self.fail()`` or ``try: f() except C: … else: self.fail()``."""
        body = stmt.body
        imports = self.facts.imports
        if body and fails(body[-1], imports):
            reached = body[:-1]
        elif stmt.orelse and fails(stmt.orelse[0], imports):
            reached = body
        else:
            return
        calls = self._calls(list(reached))
        if not calls:
            return
        before = len(self.facts.expects)
        for handler in stmt.handlers:
            classes = self._classes(handler.type)
            if handler.name is None or not classes:
                literal = None
            else:
                literal = message_check(handler.body, handler.name, self.strings, self._params())
            self._add_classes(stmt, classes, TRY_EXCEPT, calls, (None, None), literal)
        for expect in self.facts.expects[before:]:
            expect.shapes = block_shapes(reached)

    def _helper_call(self, stmt: ast.stmt, call: ast.Call) -> None:
        """``self.check(E, f, x)`` or ``check(E, f, x)`` with a dotted argument: kept for
        linking, which knows whether ``check`` wraps an expectation over its parameters."""
        ref = dotted(call.func)
        if ref is None or len(ref) > 2 or (len(ref) == 2 and ref[0] not in ("self", "cls")):
            return
        if ref[-1] in _CASE_METHODS:
            return  # unittest's own: a suite's ``assertTypeError`` may wrap an expectation
        args: list[CallRef] = []
        texts: dict[str, str] = {}  # the string arguments, by position or keyword
        for pos, arg in enumerate(call.args):
            if isinstance(arg, ast.Starred):
                break  # the positions after it are not known
            args.append(dotted(arg) or _constructed(arg) or ())
            if (text := constant_string(arg, self.strings)) is not None:
                texts[str(pos)] = text
        for kw in call.keywords:
            if kw.arg is not None and (text := constant_string(kw.value, self.strings)):
                texts[kw.arg] = text
        if not any(args) and not texts:
            return
        self._add_classes(stmt, args or [()], HELPER_CALL, [ref], (None, None), texts=texts)


#: The last part of a helper call's argument that is an object the call builds
#: (``AttributesNSImpl({}, {})`` -> ``("AttributesNSImpl", "()")``): its methods are the
#: class's, and it is no class itself.
CONSTRUCTED = "()"


def _uses(expect: Expect, names: set[str]) -> bool:
    """Whether the expectation's class or message is one of ``names`` as written."""
    heads = {ref[0] for ref in expect.classes if len(ref) == 1}
    return bool(heads & names) or expect.match_source in names


def _key(expect: Expect) -> tuple[object, ...]:
    """What a ``parametrize`` case may change in an expectation."""
    return (expect.line, expect.kind, tuple(expect.classes), expect.match, expect.match_source)


def _constants(args: list[ast.expr], keywords: list[ast.keyword]) -> dict[str, object]:
    """The literal arguments of a call, by position up to a ``*args`` and by keyword."""
    out: dict[str, object] = {}
    for pos, arg in enumerate(args):
        if isinstance(arg, ast.Starred):
            break
        known, value = constant_of(arg)
        if known and is_immutable(value):
            out[str(pos)] = value
    for kw in keywords:
        if kw.arg is not None:
            known, value = constant_of(kw.value)
            if known and is_immutable(value):
                out[kw.arg] = value
    return out


def _passed(args: list[ast.expr], keywords: list[ast.keyword]) -> tuple[str, ...] | None:
    """Every argument of a call by position and keyword; None past a ``*`` or ``**``."""
    if any(isinstance(a, ast.Starred) for a in args) or any(k.arg is None for k in keywords):
        return None
    return (*(str(i) for i in range(len(args))), *(str(k.arg) for k in keywords))


def _constructed(node: ast.expr) -> CallRef | None:
    if not isinstance(node, ast.Call):
        return None
    ref = dotted(node.func)
    if ref is None or ref[0] in ("", "self", "cls", "super()"):
        return None
    return (*ref, CONSTRUCTED)


def call_refs(node: ast.expr) -> list[CallRef]:
    """The callee as written and, for ``Reader(b"").seek``, also ``Reader.seek``: the
    method of the class the call builds (an index resolves it only where ``Reader`` is
    a class; the method by name alone, ``("", "seek")``, stays beside it).
    ``getattr(obj, "m")`` is ``obj.m``."""
    named = _getattr_ref(node)
    if named is not None:
        return [named]
    ref = dotted(node)
    refs = [ref] if ref is not None else []
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Call):
        inner = dotted(node.value.func)
        if inner is not None and inner[0] not in ("", "self", "cls", "super()"):
            refs.append((*inner, node.attr))
    return refs


#: The methods a statement's syntax calls on an object (issue 10, deliver 2): ``x[k]``,
#: ``x[k] = v``, ``del x[k]``, ``for k in x``, ``k in x``, ``len(x)``. They are linked
#: only where the object's class is known (:mod:`errdex.analyze.test_types`).
SYNTAX_DUNDERS = frozenset(
    {"__getitem__", "__setitem__", "__delitem__", "__iter__", "__contains__", "__len__"}
)
_SUBSCRIPT_DUNDERS = {ast.Load: "__getitem__", ast.Store: "__setitem__", ast.Del: "__delitem__"}


def syntax_calls(node: ast.AST) -> list[CallRef]:
    """The dunder calls ``node``'s own syntax makes on a dotted object."""
    found: list[tuple[ast.expr, str]] = []
    if isinstance(node, ast.Subscript):
        found.append((node.value, _SUBSCRIPT_DUNDERS.get(type(node.ctx), "__getitem__")))
    elif isinstance(node, (ast.For, ast.AsyncFor, ast.comprehension)):
        found.append((node.iter, "__iter__"))
    elif isinstance(node, ast.Compare):
        found.extend(
            (right, "__contains__")
            for op, right in zip(node.ops, node.comparators, strict=True)
            if isinstance(op, (ast.In, ast.NotIn))
        )
    elif (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
    ):
        found.append((node.args[0], "__len__"))
    out: list[CallRef] = []
    for obj, method in found:
        ref = dotted(obj) if isinstance(obj, (ast.Name, ast.Attribute)) else None
        if ref is not None and ref[0]:
            out.append((*ref, method))
    return out


def _getattr_ref(node: ast.expr) -> CallRef | None:
    """``getattr(obj, "m")`` (with or without a default) as ``obj.m``."""
    if not (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "getattr"
        and len(node.args) in (2, 3)
        and isinstance(node.args[1], ast.Constant)
        and isinstance(node.args[1].value, str)
    ):
        return None
    obj = node.args[0]
    ref = dotted(obj) if isinstance(obj, (ast.Name, ast.Attribute)) else None
    return (*ref, node.args[1].value) if ref is not None and ref[0] else None


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
