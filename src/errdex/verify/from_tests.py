"""Standalone reproducers cut out of a repository's tests.

For every place a test expects an error (``with pytest.raises(...)``, ``pytest.warns``,
``assertRaises``/``assertRaisesRegex``/``assertWarns`` as a context manager or called
with the function, and try/except/fail), the snippet is: the test module's imports that
the statements use, the module-level helpers they use, the test's own statements before
the expectation (minus other expectations and asserts) and the expectation's body, or
the call it was given. What a test gets from outside is brought in only where it is
trivial: class attributes and ``setUp``/``setup_method`` assignments (``self.G`` becomes
``G``), a module's ``@pytest.fixture`` that only returns a value, and the first cases
of ``@pytest.mark.parametrize``, and fixtures of the nearest ``conftest.py``. A test that
still needs ``self`` runs under its concrete test case (:mod:`._test_cases`); click's
``runner.invoke`` is run so that the command's error comes out. Whether a snippet
reproduces anything is for the sandbox to say: nothing here is trusted until it ran.
"""

from __future__ import annotations

import ast
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from functools import cached_property

from errdex.analyze.expects import EXPECT_CALLS

from ._ast_names import bound_names, used_names
from ._click_invoke import raising_invoke
from ._compound import copy_with
from ._fixtures import Fixtures, assigned, fixture_params
from ._helper_calls import Finder, helper_cuts
from ._loop_items import item_variants
from ._module_top import imported_by_call, importorskip_import
from ._prune import unrelated_dropped, unused_setup_dropped
from ._spread import spread_call
from ._test_cases import CaseIndex, blocked_modules, instance_prelude
from ._test_context import ClassContext, NotStandalone, class_context, parametrize_cases
from .expectation import Expectation, expectation_at, held

__all__ = ["MAX_CASES", "Candidate", "CaseIndex", "candidates", "module_of", "parse_test"]

#: (line, kind, statements, the test function they were cut from, and for a helper's
#: expectation its parameters' values, :class:`._helper_calls.HelperCut`)
_Cut = tuple[int, str, list[ast.stmt], ast.FunctionDef, dict[str, ast.expr] | None]
#: Parametrize cases tried per expectation (each is its own snippet).
MAX_CASES = 3
_WARN_KINDS = frozenset({"pytest.warns", "assertWarns", "assertWarnsRegex"})
_REGEX_KINDS = frozenset({"assertRaisesRegex", "assertWarnsRegex"})


@dataclass(frozen=True)
class Candidate:
    """One snippet, and the test it was cut from."""

    program: str
    test: str  # 'networkx/tests/test_x.py::TestA::test_b'
    path: str
    line: int
    kind: str
    warns: bool
    blocked: tuple[str, ...] = ()  # C accelerators the run blocks (import_fresh_module)
    imports: tuple[str, ...] = ()  # modules the test module imports
    #: A guard's candidate: the record it was built for, and the test it was cut from.
    #: ``test`` adds how the guard was met, which is true only of that record's guard.
    for_record: str = ""
    cut_from: str = ""
    expects: Expectation = field(default_factory=Expectation)  # what the test accepts


def module_of(rel_path: str) -> str:
    """The dotted module of a repository-relative ``.py`` path, past ``src/`` or ``Lib/``."""
    parts = rel_path.removesuffix(".py").split("/")
    for prefix in ("src", "Lib", "lib"):
        if parts and parts[0] == prefix:
            parts = parts[1:]
    if parts and parts[-1] == "__init__":
        parts = parts[:-1]
    return ".".join(parts)


#: ``pytest.deprecated_call()`` expects a DeprecationWarning (or PendingDeprecationWarning).
_EXPECT_CALLS = {**EXPECT_CALLS, "deprecated_call": "pytest.warns"}


def _expect_kind(call: ast.Call, pytest_names: set[str]) -> str | None:
    func = call.func
    if isinstance(func, ast.Attribute):
        kind = _EXPECT_CALLS.get(func.attr)
        if kind is None:
            return None
        if kind.startswith("pytest."):
            base = func.value
            return kind if isinstance(base, ast.Name) and base.id in pytest_names else None
        return kind
    if isinstance(func, ast.Name) and func.id in ("raises", "warns") and func.id in pytest_names:
        return EXPECT_CALLS[func.id]
    return None


def _fails(stmt: ast.stmt) -> bool:
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        f = stmt.value.func
        return isinstance(f, ast.Attribute) and f.attr == "fail"
    if isinstance(stmt, ast.Assert):
        return isinstance(stmt.test, ast.Constant) and not stmt.test.value
    if isinstance(stmt, ast.Raise) and isinstance(stmt.exc, (ast.Call, ast.Name)):
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "AssertionError"
    return False


class _Module:
    """A test module's imports and helpers, and the rules for what to keep of a test."""

    def __init__(self, tree: ast.Module, module: str) -> None:
        self.module = module
        self.future: list[ast.stmt] = []
        self.imports: list[tuple[ast.stmt, set[str]]] = []
        self.helpers: dict[str, ast.stmt] = {}
        self.prior: dict[int, ast.stmt] = {}  # a rebinding that reads the name -> the one before
        self.order: dict[int, int] = {}
        self.pytest_names: set[str] = set()
        self.tree = tree
        for i, stmt in enumerate(tree.body):
            self.order[id(stmt)] = i
            self._top(stmt)

    @cached_property
    def blocked(self) -> frozenset[str]:
        """The accelerators the module blocks: read once, not per expectation (a walk of
        the whole module for each of test_enum's tests was most of a stdlib verify)."""
        return blocked_modules(self.tree)

    def _top(self, stmt: ast.stmt) -> None:
        if isinstance(stmt, ast.ImportFrom) and stmt.module == "__future__":
            self.future.append(stmt)
        elif isinstance(stmt, (ast.Import, ast.ImportFrom)):
            stmt = self._absolute(stmt)
            self.imports.append((stmt, bound_names(stmt)))
            self._note_pytest(stmt)
        elif isinstance(stmt, ast.Try) and all(
            isinstance(s, (ast.Import, ast.ImportFrom)) for s in stmt.body
        ):
            self.imports.append((stmt, bound_names(stmt)))
        elif isinstance(stmt, (ast.Assign, ast.AnnAssign)):
            converted = importorskip_import(stmt)
            if converted is not None:
                self.imports.append((converted, bound_names(converted)))
                return
            for name in bound_names(stmt):
                self._bind(name, stmt)
        elif isinstance(stmt, ast.FunctionDef | ast.ClassDef) and not stmt.name.startswith(
            ("test", "Test")
        ):
            self.helpers[stmt.name] = stmt
        elif isinstance(stmt, (ast.If, ast.Try)):  # 'if ...: x = ... else: x = None'
            for name in bound_names(stmt):
                self._bind(name, stmt)

    def _bind(self, name: str, stmt: ast.stmt) -> None:
        """``stmt`` binds ``name``; one that reads it too (``if x is None: x = ...``)
        needs the binding before it in the snippet as well."""
        if name in self.helpers and name in used_names([stmt]):
            self.prior[id(stmt)] = self.helpers[name]
        self.helpers[name] = stmt

    def _note_pytest(self, stmt: ast.Import | ast.ImportFrom) -> None:
        if isinstance(stmt, ast.Import):
            for alias in stmt.names:
                if alias.name == "pytest":
                    self.pytest_names.add(alias.asname or "pytest")
        elif stmt.module == "pytest":
            for alias in stmt.names:
                if alias.name in ("raises", "warns"):
                    self.pytest_names.add(alias.asname or alias.name)

    def _absolute(self, stmt: ast.Import | ast.ImportFrom) -> ast.Import | ast.ImportFrom:
        """``from .base import X`` as the absolute import the snippet can run."""
        if not isinstance(stmt, ast.ImportFrom) or not stmt.level:
            return stmt
        package = self.module.split(".")
        package = package[: len(package) - stmt.level]
        if not package:
            return stmt
        module = ".".join([*package, *([stmt.module] if stmt.module else [])])
        return ast.ImportFrom(module=module, names=stmt.names, level=0)

    def header(self, needed: set[str]) -> list[ast.stmt]:
        """Imports and helpers the statements need (helpers' own needs included)."""
        chosen: dict[int, ast.stmt] = {}
        todo = list(needed)
        seen: set[str] = set()
        while todo:
            name = todo.pop()
            if name in seen:
                continue
            seen.add(name)
            helper = self.helpers.get(name)
            while helper is not None and id(helper) not in chosen:
                chosen[id(helper)] = helper
                todo.extend(used_names([helper]) - bound_names(helper))
                helper = self.prior.get(id(helper))
        helpers = sorted(chosen.values(), key=lambda s: self.order.get(id(s), 0))
        wanted = seen
        imports = [
            stmt
            for stmt, names in self.imports
            if names & wanted or any(a.name == "*" for a in getattr(stmt, "names", []))
        ]
        return [*self.future, *imports, *helpers]


class _Cutter:
    """Cuts one test function into snippets, one per expectation it holds."""

    def __init__(
        self,
        mod: _Module,
        func: ast.FunctionDef,
        cls: ClassContext | None,
        *,
        cli_runner: bool = False,
    ) -> None:
        self.mod = mod
        self.func = func
        self.cls = cls
        self.cli_runner = cli_runner  # click's CliRunner is in reach: ``.invoke`` is a run

    def _is_expectation(self, stmt: ast.stmt) -> bool:
        if isinstance(stmt, ast.Assert):
            return True
        if isinstance(stmt, ast.With):
            return any(
                isinstance(i.context_expr, ast.Call)
                and _expect_kind(i.context_expr, self.mod.pytest_names)
                for i in stmt.items
            )
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            f = stmt.value.func
            if isinstance(f, ast.Attribute) and f.attr.startswith("assert"):
                return True
            return _expect_kind(stmt.value, self.mod.pytest_names) is not None
        return False

    def _clean(self, body: list[ast.stmt], checks: bool = False) -> list[ast.stmt]:
        """Statements before the expectation, without other expectations or checks; with
        ``checks``, a check's calls stay as statements of their own (``assert f(x) == 1``
        and ``self.assertEqual(f(x), 1)`` keep ``f(x)``): calls a guard's candidate can
        be made from."""
        out: list[ast.stmt] = []
        for stmt in body:
            if checks:
                kept = _calls_of_check(stmt)
                if kept is not None:
                    out += kept
                    continue
            if self._is_expectation(stmt) or (
                isinstance(stmt, ast.Try) and self._is_try_form(stmt)
            ):
                continue
            if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Constant):
                continue  # a docstring: nothing to run
            if isinstance(stmt, ast.While):  # its checks' calls end it ('while x: pass' spins)
                if not (inner := self._clean(stmt.body, checks=True)):
                    continue
                stmt = copy_with(stmt, inner, self._clean(stmt.orelse, True))
            elif isinstance(stmt, (ast.For, ast.If, ast.With)):  # an else is kept, cleaned
                body = self._clean(stmt.body, checks) or [ast.Pass()]
                stmt = copy_with(stmt, body, self._clean(getattr(stmt, "orelse", []), checks))
            out.append(stmt)
        return out

    def _is_try_form(self, stmt: ast.Try) -> bool:
        return bool(stmt.body and _fails(stmt.body[-1])) or bool(
            stmt.orelse and _fails(stmt.orelse[0])
        )

    def _target(self, stmt: ast.stmt) -> tuple[list[ast.stmt], str] | None:
        """The statements that should raise, and the expectation's kind."""
        if isinstance(stmt, ast.With):
            kinds = [
                _expect_kind(i.context_expr, self.mod.pytest_names)
                if isinstance(i.context_expr, ast.Call)
                else None
                for i in stmt.items
            ]
            found = [k for k in kinds if k]
            if not found:
                return None
            rest = [i for i, k in zip(stmt.items, kinds, strict=True) if not k]
            body = self._clean_inner(stmt.body)
            if rest:
                body = [ast.With(items=rest, body=body)]
            return body, found[0]
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            call = stmt.value
            kind = _expect_kind(call, self.mod.pytest_names)
            if kind is None:
                return None
            index = 2 if kind in _REGEX_KINDS else 1
            if getattr(call.func, "attr", None) == "deprecated_call":
                index = 0  # deprecated_call(f, *args): no class comes first
            if len(call.args) <= index or any(
                isinstance(a, ast.Starred) for a in call.args[:index]
            ):
                return None  # no class or function to read before a ``*x``
            keywords = [k for k in call.keywords if k.arg not in ("match", "msg")]
            inner = spread_call(call.args[index:], keywords)
            return None if inner is None else ([ast.Expr(inner)], kind)
        if isinstance(stmt, ast.Try) and self._is_try_form(stmt):
            body = stmt.body[:-1] if _fails(stmt.body[-1]) else stmt.body
            return self._clean_inner(body), "try-except"
        if self.cli_runner:
            raising = raising_invoke(stmt)
            if raising is not None:
                return [raising], "cli-invoke"
        return None

    def _clean_inner(self, body: list[ast.stmt]) -> list[ast.stmt]:
        """The expectation's body without its asserts; a ``runner.invoke`` in it lets the
        error out (inside ``pytest.raises``/``warns`` the runner would catch it)."""
        kept = [s for s in body if not isinstance(s, ast.Assert)]
        if self.cli_runner:
            kept = [raising_invoke(s) or s for s in kept]
        return kept or [ast.Pass()]

    def body(self) -> list[ast.stmt]:
        """The whole test without its expectations and checks: the calls it makes."""
        return self._clean(self.func.body, checks=True)

    def snippets(self) -> Iterator[tuple[int, str, list[ast.stmt]]]:
        """(line, kind, statements) for each expectation in the test."""
        yield from self._walk(self.func.body, [])

    def with_helpers(self, find: Finder) -> Iterator[_Cut]:
        """The test's snippets, then those of the helper methods it calls, inlined
        (:mod:`._helper_calls`): (line, kind, statements, the test they were cut from)."""
        for line, kind, body in self.snippets():
            yield line, kind, body, self.func, None
        for inlined in helper_cuts(self.func, find, lambda s: self._target(s) is not None):
            cutter = _Cutter(self.mod, inlined.func, self.cls, cli_runner=self.cli_runner)
            for line, kind, body in cutter.snippets():
                if inlined.holds(line):  # the test's own expectations came above
                    yield line, kind, body, inlined.func, inlined.bindings

    def _walk(
        self,
        body: list[ast.stmt],
        outer: list[tuple[ast.stmt, list[ast.stmt]]],
        only: int | None = None,
    ) -> Iterator[tuple[int, str, list[ast.stmt]]]:
        for i, stmt in enumerate(body):
            if only is not None and i != only:
                continue
            target = self._target(stmt)
            if target is not None:
                inner, kind = target
                inner = self._clean(body[:i]) + inner
                yield stmt.lineno, kind, _wrap(outer, inner)
                for each in item_variants(outer):  # one item of the loop around it
                    yield stmt.lineno, kind, _wrap(each, inner)
                continue
            if isinstance(stmt, (ast.For, ast.While, ast.With, ast.If)):
                yield from self._walk(stmt.body, [*outer, (stmt, self._clean(body[:i]))])
            elif isinstance(stmt, ast.Try) and not self._is_try_form(stmt):
                final = self._clean(stmt.finalbody)
                for j in range(len(stmt.body)):  # what the try ran after it waits in finally
                    after = self._clean(stmt.body[j + 1 :]) if final else []
                    kept = ast.Try(body=[], handlers=[], orelse=[], finalbody=[*after, *final])
                    outside = [*outer, (kept, self._clean(body[:i]))]
                    yield from self._walk(stmt.body, outside, only=j)


def _calls_of_check(stmt: ast.stmt) -> list[ast.stmt] | None:
    """The operands of a check that make a call, as statements (None: no check); never
    those of ``assertRaises``-like checks, whose calls are to fail."""
    if isinstance(stmt, ast.Assert):
        operands: list[ast.expr] = [stmt.test]
    elif (
        isinstance(stmt, ast.Expr)
        and isinstance(stmt.value, ast.Call)
        and isinstance(stmt.value.func, ast.Attribute)
        and stmt.value.func.attr.startswith("assert")
    ):
        if stmt.value.func.attr.startswith(("assertRaises", "assertWarns")):
            return []
        operands = list(stmt.value.args)
    else:
        return None
    return [
        ast.Expr(value=op) for op in operands if any(isinstance(n, ast.Call) for n in ast.walk(op))
    ]


def _wrap(outer: list[tuple[ast.stmt, list[ast.stmt]]], inner: list[ast.stmt]) -> list[ast.stmt]:
    """Put ``inner`` back inside the loops, withs and ifs that held it."""
    for stmt, before in reversed(outer):
        if isinstance(stmt, ast.Assign):  # a loop's item, bound (._loop_items)
            held = [stmt, *inner]
        else:
            copied = copy_with(stmt, inner)
            bare = isinstance(copied, ast.Try) and not copied.finalbody  # nothing left of it
            held = inner if bare else [copied]
        inner = [*before, *held]
    return inner


def _finder(mod: _Module, index: CaseIndex | None, cls: ast.ClassDef | None) -> Finder:
    """A test's ``self.name`` as a method of its class written in this test module, and
    its ``name`` as a function of the module."""
    own = {s.name: s for s in cls.body if isinstance(s, ast.FunctionDef)} if cls else {}

    def find(name: str, on_self: bool) -> ast.FunctionDef | None:
        if not on_self:
            found = mod.helpers.get(name)
            return found if isinstance(found, ast.FunctionDef) else None
        if name in own or cls is None or index is None:
            return own.get(name)
        return index.method(f"{mod.module}.{cls.name}", name, mod.module)

    return find


def _is_test_class(cls: ast.ClassDef) -> bool:
    """pytest's ``Test*`` classes and unittest's cases (``*Test``, ``*Tests``, a ``TestCase`` base)."""
    if cls.name.startswith("Test") or cls.name.endswith(("Test", "Tests", "TestCase")):
        return True
    return any(
        (isinstance(b, ast.Attribute) and b.attr == "TestCase")
        or (isinstance(b, ast.Name) and b.id == "TestCase")
        for b in cls.bases
    )


def _tests(
    tree: ast.Module, module: str, index: CaseIndex | None
) -> Iterator[tuple[ast.FunctionDef, ast.ClassDef | None]]:
    for stmt in tree.body:
        if isinstance(stmt, ast.FunctionDef) and stmt.name.startswith("test"):
            yield stmt, None
        elif isinstance(stmt, ast.ClassDef) and (
            _is_test_class(stmt) or (index is not None and index.concrete(module, stmt.name))
        ):
            for item in stmt.body:
                if isinstance(item, ast.FunctionDef) and item.name.startswith("test"):
                    yield item, stmt


def parse_test(text: str) -> ast.Module | None:
    """A test module's tree, or None when it does not parse."""
    try:
        return ast.parse(text)
    except (SyntaxError, ValueError, RecursionError):
        return None


def candidates(
    text: str | ast.Module,
    rel_path: str,
    index: CaseIndex | None = None,
    *,
    bodies: bool = False,
) -> list[Candidate]:
    """Every snippet this test module yields (none when it does not parse).

    With ``index`` (every test module's classes), a test that needs its test case runs
    under the concrete classes that index finds for it. With ``bodies``, each test's whole
    body (kind ``body``, without its checks) comes too: not a reproducer to run, but the
    calls :mod:`.from_guards` rewrites.
    """
    tree = parse_test(text) if isinstance(text, str) else text
    if tree is None:
        return []
    module = module_of(rel_path)
    mod = _Module(tree, module)
    imports = tuple(sorted(_imported_modules(mod)))
    conftests = index.conftests_for(rel_path) if index is not None else []
    fixtures = Fixtures(mod, [_Module(tree, module) for module, tree in conftests])
    cli_runner = any("CliRunner" in names for m, _ in fixtures.sources for _, names in m.imports)
    out: list[Candidate] = []
    # the bodies after every expectation of the module: renaming ``self.X`` rewrites the
    # class's statements in place, and no expectation's snippet may see what a body did
    for pass_bodies in (False, True) if bodies else (False,):
        for func, cls in _tests(tree, module, index):
            context = class_context(cls) if cls is not None else None
            classes = index.concrete(module, cls.name) if index is not None and cls else []
            name = "::".join([rel_path, *([cls.name] if cls else []), func.name])
            cutter = _Cutter(mod, func, context, cli_runner=cli_runner)
            if pass_bodies:
                cut: Iterable[_Cut] = [(func.lineno, "body", cutter.body(), func, None)]
            else:
                cut = cutter.with_helpers(_finder(mod, index, cls))
            for line, kind, body, owner, bindings in cut:
                # one walk of the test per expectation
                expects = expectation_at(owner, line, bindings)
                reads = frozenset({expects.variable} - {""})  # never pruned away
                for program, blocked in _programs(
                    mod, func, context, body, (index, classes), fixtures, reads
                ):
                    if bindings is not None and not held(expects.bound(program)):
                        continue
                    out.append(
                        Candidate(
                            program,
                            name,
                            rel_path,
                            line,
                            kind,
                            kind in _WARN_KINDS,
                            blocked,
                            imports,
                            expects=expects.bound(program),
                        )
                    )
    return out


def module_imports(tree: ast.Module, rel_path: str) -> set[str]:
    """The modules a test module imports: every candidate's ``imports``."""
    return _imported_modules(_Module(tree, module_of(rel_path)))


def _imported_modules(mod: _Module) -> set[str]:
    out: set[str] = set()
    for helper in mod.helpers.values():  # sunau = import_deprecated("sunau")
        if not isinstance(helper, (ast.FunctionDef, ast.ClassDef)):
            out |= imported_by_call(helper)
    for stmt, _ in mod.imports:
        for node in ast.walk(stmt):
            if isinstance(node, ast.Import):
                out |= {a.name for a in node.names}
            elif isinstance(node, ast.ImportFrom) and node.module and not node.level:
                out.add(node.module)
    return out


def _programs(
    mod: _Module,
    func: ast.FunctionDef,
    context: ClassContext | None,
    body: list[ast.stmt],
    cases_of: tuple[CaseIndex | None, list[str]],
    fixtures: Fixtures,
    reads: frozenset[str] = frozenset(),
) -> Iterator[tuple[str, tuple[str, ...]]]:
    """(program, accelerators it blocks) for each parametrize case (or the one program):
    standalone where it can be, else under each concrete test class ``cases_of`` names.
    A standalone one comes whole, then pruned (:mod:`._prune`) where that is shorter;
    ``reads`` are the names the expectation reads, which the pruned one keeps."""
    params = [a.arg for a in func.args.args if a.arg not in ("self", "cls")]
    cases = parametrize_cases(func, mod.pytest_names)
    index, classes = cases_of
    for case in cases[:MAX_CASES] or [{}]:
        try:
            prelude = fixture_params(fixtures, params, case)
            statements = [*(context.prelude if context else []), *prelude, *body]
            setup = len(context.prelude) if context else 0
            if context is not None:  # set-up that only binds unread names does nothing
                kept = unused_setup_dropped(context.rename(statements), setup)
                setup -= len(statements) - len(kept)
                statements = kept
            needed = used_names(statements) - assigned(statements)
            if not needed & {"self", "cls"}:
                yield _program(mod, needed, statements)  # the whole program, always
                pruned = unrelated_dropped(statements, 1, reads, setup)  # a shorter one
                if len(pruned) < len(statements):
                    yield _program(mod, used_names(pruned) - assigned(pruned), pruned)
                continue
            if index is None or not classes:
                raise NotStandalone("needs the test case")
            for dotted in classes:  # the test case made for real, bound to ``self``
                statements = [*instance_prelude(index, dotted, func.name), *prelude, *body]
                needed = used_names(statements) - assigned(statements)
                if "cls" in needed:
                    continue
                program, blocked = _program(mod, needed, statements)
                blocked_by_module = index.blocked(dotted) | mod.blocked
                yield program, tuple(sorted(blocked_by_module | set(blocked)))
        except (NotStandalone, ValueError, TypeError, AttributeError, RecursionError):
            continue


def _program(
    mod: _Module, needed: set[str], statements: list[ast.stmt]
) -> tuple[str, tuple[str, ...]]:
    program = ast.Module(body=[*mod.header(needed), *statements], type_ignores=[])
    text = ast.unparse(ast.fix_missing_locations(program))
    # only a program naming them blocks a module (a walk of each was 1/5 of the stdlib's)
    named = "import_fresh_module" in text or "sys.modules" in text
    return text, tuple(sorted(blocked_modules(program))) if named else ()
