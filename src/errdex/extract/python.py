"""The Python extractor: one walk over a module's statements yields its ErrorSites.

Only statements are visited (raises, asserts and ``warnings.warn`` calls are
statements or expression statements), which keeps the walk a fraction of the cost
of ``ast.parse`` itself. Message expressions are turned into templates on demand,
looking back through the function's assignments for names such as ``msg``.
"""

from __future__ import annotations

import ast
import builtins
import inspect
import re
import textwrap
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass, field
from typing import Any, TypeAlias

from errdex.extract._downgrade import PLACEHOLDER_PREFIX, parse_any
from errdex.extract.fstring import scan_fstring_fields, split_field
from errdex.extract.site import ErrorSite, Guard, SiteKind
from errdex.record import Severity
from errdex.template import Hole, Literal, MessageTemplate

__all__ = ["extract_python", "module_name_for"]

#: Alternatives kept for one message before the differing part becomes a hole.
MAX_ALTERNATIVES = 8

BUILTIN_EXCEPTIONS: frozenset[str] = frozenset(
    name
    for name, obj in vars(builtins).items()
    if isinstance(obj, type) and issubclass(obj, BaseException)
)
_BUILTIN_WARNINGS: frozenset[str] = frozenset(
    name for name in BUILTIN_EXCEPTIONS if issubclass(getattr(builtins, name), Warning)
)
#: Builtins whose ``str()`` is the repr of their single argument.
_REPR_STR_EXCEPTIONS = frozenset({"KeyError"})
#: Builtins whose ``str()`` of several arguments is not the tuple repr.
_CUSTOM_STR_EXCEPTIONS = frozenset(
    name
    for name in BUILTIN_EXCEPTIONS
    if issubclass(getattr(builtins, name), (OSError, UnicodeError, SyntaxError, ImportError))
)
_OSERROR_FAMILY = frozenset(
    name for name in BUILTIN_EXCEPTIONS if issubclass(getattr(builtins, name), OSError)
)
_CRITICAL = frozenset({"MemoryError", "SystemError", "RecursionError"})
_INFO = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "SystemExit"})
_STRING_BUILDERS = frozenset({"format", "join", "strip", "rstrip", "lstrip", "dedent", "cleandoc"})
_WARN_NAMES = frozenset({"warn", "warn_explicit"})
_EXCEPTION_SUFFIXES = ("Error", "Exception", "Warning", "Exit", "Interrupt", "Failure", "Fault")

# A thunk is a lazily evaluated message value: a node, or a node appended to earlier
# alternatives by ``+=``.
Thunk: TypeAlias = "ast.expr | _LoopTail | _Rebind | _Fixed | tuple[Thunk, Thunk]"
Env = dict[str, tuple[Thunk, ...]]
Templates = list[MessageTemplate]
#: A guard not yet written out: (kind, node, line).
_Pending = tuple[str, Any, int]
Guards = tuple[_Pending, ...]


def module_name_for(path: str) -> str:
    """``networkx/classes/graph.py`` -> ``networkx.classes.graph``; ``src/`` and ``Lib/`` dropped."""
    parts = path.removesuffix(".py").removesuffix(".pyi").split("/")
    if parts and parts[0] in ("src", "Lib", "lib") and len(parts) > 1:
        parts = parts[1:]
    if parts and parts[-1] == "__init__" and len(parts) > 1:
        parts = parts[:-1]
    return ".".join(parts)


def extract_python(
    source: str,
    file_path: str,
    *,
    module: str | None = None,
    lines: list[str] | None = None,
) -> list[ErrorSite]:
    """Every raise, ``warnings.warn`` and message-bearing ``assert`` in ``source``.

    ``lines`` is ``source.splitlines()`` when the caller already has it.
    Raises SyntaxError when the file does not parse with any supported grammar.
    """
    tree, fields = parse_any(source, file_path)
    extractor = _ModuleExtractor(source, file_path, module or module_name_for(file_path), fields)
    extractor._lines = lines
    return extractor.run(tree)


@dataclass
class _Scope:
    qualname: str  # without the module, as __qualname__ writes it
    function: str | None
    class_name: str | None
    env: Env = field(default_factory=dict)
    caught: set[str] = field(default_factory=set)  # names bound by ``except … as name``
    node: ast.FunctionDef | ast.AsyncFunctionDef | None = None
    #: For a nested function: the enclosing function's scope and this ``def`` in it,
    #: so closures (``errmsg`` built outside, raised inside) resolve.
    outer: tuple[_Scope, ast.stmt] | None = None


class _NeedEnv(Exception):
    """A message refers to a local name: the function's assignments must be replayed."""


class _LazyEnv(dict[str, tuple[Thunk, ...]]):
    """The environment of a function walked without tracking assignments.

    Most raises never look a local name up, so assignments are only followed (by a
    second walk of that one function) when a lookup happens.
    """

    def get(self, key: str, default: object = None) -> Any:
        raise _NeedEnv

    def __contains__(self, key: object) -> bool:
        raise _NeedEnv

    def __getitem__(self, key: str) -> tuple[Thunk, ...]:
        raise _NeedEnv


_LAZY = _LazyEnv()


class _ModuleExtractor:
    def __init__(self, source: str, file_path: str, module: str, fields: dict[str, str]) -> None:
        self.source = source
        self.file_path = file_path
        self.module = module
        self.placeholder_fields = fields
        self._lines: list[str] | None = None
        self.sites: list[ErrorSite] = []
        self.imports: dict[str, str] = {}
        self.module_env: Env = {}
        self.functions: dict[str, ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.methods: dict[tuple[str, str], ast.FunctionDef | ast.AsyncFunctionDef] = {}
        self.classes: dict[str, ast.ClassDef] = {}
        self._helper_cache: dict[int, tuple[ast.Call, _Scope] | None] = {}
        self._keyword_lines: list[int] = []
        #: While replaying a function's assignments: the environment at each site.
        self._replay: dict[int, Env] | None = None
        self._replayed: dict[int, dict[int, Env]] = {}

    # -- module facts -----------------------------------------------------------------

    def run(self, tree: ast.Module) -> list[ErrorSite]:
        self._keyword_lines = _keyword_lines(self.source)
        self._index_module(tree)
        scope = _Scope(qualname="", function=None, class_name=None, env=self.module_env)
        self._walk(tree.body, scope, ())
        return self.sites

    def _index_module(self, tree: ast.Module) -> None:
        package = (
            self.module
            if self.file_path.endswith("__init__.py")
            else self.module.rpartition(".")[0]
        )
        for node in self._toplevel_and_guarded(tree.body):
            if isinstance(node, ast.Import):
                for alias in node.names:
                    if alias.asname:
                        self.imports[alias.asname] = alias.name
                    else:
                        top = alias.name.split(".")[0]
                        self.imports[top] = top
            elif isinstance(node, ast.ImportFrom):
                base = node.module or ""
                if node.level:
                    anchor = package.split(".") if package else []
                    if node.level > 1:
                        anchor = anchor[: len(anchor) - (node.level - 1)]
                    base = ".".join([*anchor, *([base] if base else [])])
                for alias in node.names:
                    if alias.name != "*":
                        self.imports[alias.asname or alias.name] = f"{base}.{alias.name}".lstrip(
                            "."
                        )
            elif isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef)):
                self.functions.setdefault(node.name, node)
            elif isinstance(node, ast.ClassDef):
                self.classes.setdefault(node.name, node)
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        self.methods.setdefault((node.name, item.name), item)

    def _toplevel_and_guarded(self, body: Sequence[ast.stmt]) -> Iterator[ast.stmt]:
        """Module-level statements, looking inside ``if``/``try`` (``TYPE_CHECKING``, fallbacks)."""
        for stmt in body:
            yield stmt
            if isinstance(stmt, ast.If):
                yield from self._toplevel_and_guarded(stmt.body)
                yield from self._toplevel_and_guarded(stmt.orelse)
            elif isinstance(stmt, (ast.Try, ast.TryStar)):
                yield from self._toplevel_and_guarded(stmt.body)
                for handler in stmt.handlers:
                    yield from self._toplevel_and_guarded(handler.body)
                yield from self._toplevel_and_guarded(stmt.orelse)

    # -- source text ------------------------------------------------------------------

    @property
    def lines(self) -> list[str]:
        if self._lines is None:
            self._lines = self.source.splitlines()
        return self._lines

    def segment(self, node: ast.AST) -> str:
        """The node's source text (``ast`` columns are UTF-8 byte offsets)."""
        lineno = getattr(node, "lineno", None)
        end_lineno = getattr(node, "end_lineno", None)
        col = getattr(node, "col_offset", None)
        end_col = getattr(node, "end_col_offset", None)
        if lineno is None or end_lineno is None or col is None or end_col is None:
            return ast.unparse(node)
        lines = self.lines[lineno - 1 : end_lineno]
        if not lines:
            return ast.unparse(node)
        if len(lines) == 1:
            return lines[0].encode()[col:end_col].decode(errors="replace")
        first = lines[0].encode()[col:].decode(errors="replace")
        last = lines[-1].encode()[:end_col].decode(errors="replace")
        return "\n".join([first, *lines[1:-1], last])

    def expr_text(self, node: ast.AST) -> str:
        """An expression as written, on one line."""
        text = self.segment(node)
        if "\n" in text:
            text = " ".join(part.strip() for part in text.splitlines())
        return text

    # -- the walk -----------------------------------------------------------------------
    #
    # Guards are carried as cheap ``_Pending`` tuples (kind, node, line) and written out
    # as text only for the few chains that end at a site.

    def _walk(self, body: Sequence[ast.stmt], scope: _Scope, guards: Guards) -> None:
        dispatch = _DISPATCH
        for stmt in body:
            handler = dispatch.get(type(stmt))
            if handler is not None:
                handler(self, stmt, scope, guards)

    @classmethod
    def _make_dispatch(cls) -> dict[type[ast.stmt], Callable[[Any, Any, _Scope, Guards], None]]:
        # Plain functions, not bound methods: a dict of bound methods would tie the
        # extractor (and the whole syntax tree it holds) into a reference cycle.
        return {
            ast.Raise: cls._raise_stmt,
            ast.Expr: cls._expr_stmt,
            ast.Assign: cls._assign_stmt,
            ast.AnnAssign: cls._assign_stmt,
            ast.AugAssign: cls._augassign,
            ast.If: cls._if,
            ast.For: cls._for,
            ast.AsyncFor: cls._for,
            ast.While: cls._while,
            ast.With: cls._with,
            ast.AsyncWith: cls._with,
            ast.Try: cls._try,
            ast.TryStar: cls._try,
            ast.Match: cls._match,
            ast.FunctionDef: cls._function,
            ast.AsyncFunctionDef: cls._function,
            ast.ClassDef: cls._class,
            ast.Assert: cls._assert_stmt,
        }

    def _stmt(self, stmt: ast.stmt, scope: _Scope, guards: Guards) -> None:
        handler = _DISPATCH.get(type(stmt))
        if handler is not None:
            handler(self, stmt, scope, guards)

    def _expr_stmt(self, stmt: ast.Expr, scope: _Scope, guards: Guards) -> None:
        call = stmt.value
        if isinstance(call, ast.Call):
            self._site(lambda st, sc, gu: self._maybe_warn(call, st, sc, gu), stmt, scope, guards)

    def _raise_stmt(self, stmt: ast.Raise, scope: _Scope, guards: Guards) -> None:
        self._site(self._raise, stmt, scope, guards)

    def _assert_stmt(self, stmt: ast.Assert, scope: _Scope, guards: Guards) -> None:
        self._site(self._assert, stmt, scope, guards)

    def _site(
        self,
        handler: Callable[[Any, _Scope, Guards], None],
        stmt: ast.stmt,
        scope: _Scope,
        guards: Guards,
    ) -> None:
        """Run a site handler; replay the function's assignments if it looks a name up."""
        if self._replay is not None:
            self._replay[id(stmt)] = dict(scope.env)
            return
        if scope.env is _LAZY:
            mark = len(self.sites)
            try:
                handler(stmt, scope, guards)
                return
            except _NeedEnv:
                del self.sites[mark:]
                scope = _Scope(
                    scope.qualname,
                    scope.function,
                    scope.class_name,
                    self._env_at(scope, stmt),
                    scope.caught,
                    scope.node,
                    scope.outer,
                )
        handler(stmt, scope, guards)

    def _env_at(self, scope: _Scope, stmt: ast.stmt) -> Env:
        """The function's local bindings reaching ``stmt``, from one tracked walk per function."""
        node = scope.node
        if node is None:
            return {}
        key = id(node)
        if key not in self._replayed:
            replay_scope = _Scope(scope.qualname, scope.function, scope.class_name, {}, set(), node)
            self._replay = {}
            try:
                self._walk(node.body, replay_scope, ())
                self._replayed[key] = self._replay
            finally:
                self._replay = None
        return self._replayed[key].get(id(stmt), {})

    def _assign_stmt(self, stmt: ast.Assign | ast.AnnAssign, scope: _Scope, guards: Guards) -> None:
        if scope.env is _LAZY:
            return
        if isinstance(stmt, ast.Assign):
            self._assign(stmt.targets, stmt.value, scope)
        elif stmt.value is not None:
            self._assign([stmt.target], stmt.value, scope)

    def _augassign(self, stmt: ast.AugAssign, scope: _Scope, guards: Guards) -> None:
        if scope.env is not _LAZY and isinstance(stmt.target, ast.Name):
            name = stmt.target.id
            before = scope.env.get(name)
            if before is not None and isinstance(stmt.op, ast.Add):
                scope.env[name] = tuple((thunk, stmt.value) for thunk in before)
            elif before is not None:
                del scope.env[name]

    def _for(self, stmt: ast.For | ast.AsyncFor, scope: _Scope, guards: Guards) -> None:
        self._loop(stmt.body, scope, (*guards, ("for", stmt, stmt.lineno)))
        self._walk(stmt.orelse, scope, guards)

    def _while(self, stmt: ast.While, scope: _Scope, guards: Guards) -> None:
        self._loop(stmt.body, scope, (*guards, ("while", stmt.test, stmt.lineno)))
        if stmt.orelse:
            self._walk(stmt.orelse, scope, (*guards, ("while-else", stmt.test, stmt.lineno)))

    def _with(self, stmt: ast.With | ast.AsyncWith, scope: _Scope, guards: Guards) -> None:
        self._walk(stmt.body, scope, guards)

    def _try(self, stmt: ast.Try | ast.TryStar, scope: _Scope, guards: Guards) -> None:
        for handler in stmt.handlers:
            if handler.name:
                scope.caught.add(handler.name)
        if scope.env is _LAZY:
            self._walk(stmt.body, scope, guards)
            for handler in stmt.handlers:
                self._walk(handler.body, scope, (*guards, ("except", handler, handler.lineno)))
            self._walk(stmt.orelse, scope, guards)
            self._walk(stmt.finalbody, scope, guards)
            return
        # A handler may start from before the body or from anywhere in it; after the
        # statement, any of the paths (body then else, or a handler) may have run.
        before = scope.env
        scope.env = dict(before)
        self._walk(stmt.body, scope, guards)
        after_body = scope.env
        entry = _merge_envs(before, after_body)
        paths: list[Env] = []
        for handler in stmt.handlers:
            scope.env = dict(entry)
            self._walk(handler.body, scope, (*guards, ("except", handler, handler.lineno)))
            paths.append(scope.env)
        scope.env = after_body
        self._walk(stmt.orelse, scope, guards)
        merged = scope.env
        for path in paths:
            merged = merged if merged == path else _merge_envs(merged, path)
        scope.env = merged
        self._walk(stmt.finalbody, scope, guards)

    def _match(self, stmt: ast.Match, scope: _Scope, guards: Guards) -> None:
        for case in stmt.cases:
            self._walk(
                case.body, scope, (*guards, ("case", (stmt.subject, case), case.pattern.lineno))
            )

    def _child_prefix(self, scope: _Scope) -> str:
        if scope.function:
            return f"{scope.qualname}.<locals>."
        return f"{scope.qualname}." if scope.qualname else ""

    def _may_raise(self, node: ast.stmt) -> bool:
        """Whether the node's lines mention raise/warn/assert at all: skip the rest unwalked."""
        lines = self._keyword_lines
        i = bisect_left(lines, node.lineno)
        return i < len(lines) and lines[i] <= (node.end_lineno or node.lineno)

    def _function(
        self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: _Scope, guards: Guards
    ) -> None:
        if self._replay is not None:
            self._replay[id(stmt)] = dict(scope.env)  # what a closure sees
            return
        if not self._may_raise(stmt):
            return
        inner = _Scope(
            qualname=self._child_prefix(scope) + stmt.name,
            function=stmt.name,
            class_name=None if scope.function else scope.class_name,
            env=_LAZY,
            node=stmt,
            outer=(scope, stmt) if scope.function else None,
        )
        self._walk(stmt.body, inner, ())

    def _class(self, stmt: ast.ClassDef, scope: _Scope, guards: Guards) -> None:
        if self._replay is not None or not self._may_raise(stmt):
            return
        inner = _Scope(
            qualname=self._child_prefix(scope) + stmt.name,
            function=None,
            class_name=stmt.name,
            env={},
        )
        self._walk(stmt.body, inner, ())

    def _if(self, stmt: ast.If, scope: _Scope, guards: Guards) -> None:
        if scope.env is _LAZY:
            self._walk(stmt.body, scope, (*guards, ("if", stmt, stmt.lineno)))
            if stmt.orelse:
                self._walk(stmt.orelse, scope, (*guards, ("else", stmt, stmt.orelse[0].lineno)))
            return
        before = scope.env
        scope.env = dict(before)
        self._walk(stmt.body, scope, (*guards, ("if", stmt, stmt.lineno)))
        after_body = scope.env
        if stmt.orelse:
            scope.env = dict(before)
            self._walk(stmt.orelse, scope, (*guards, ("else", stmt, stmt.orelse[0].lineno)))
            after_else = scope.env
        else:
            after_else = before
        scope.env = after_body if after_body == after_else else _merge_envs(after_body, after_else)

    def _guard(self, pending: _Pending) -> Guard:
        """Write out one guard: the condition, in source form, under which the path is taken."""
        kind, node, line = pending
        if kind == "if":
            assert isinstance(node, ast.If)
            return Guard("elif" if self._is_elif(node) else "if", self.expr_text(node.test), line)
        if kind == "else":
            assert isinstance(node, ast.If)
            orelse = node.orelse
            is_elif = (
                len(orelse) == 1 and isinstance(orelse[0], ast.If) and self._is_elif(orelse[0])
            )
            text = negate(node.test, self.expr_text(node.test), self.expr_text)
            return Guard("else", text, node.lineno if is_elif else line)
        if kind == "for":
            assert isinstance(node, (ast.For, ast.AsyncFor))
            return Guard(
                "for", f"for {self.expr_text(node.target)} in {self.expr_text(node.iter)}", line
            )
        if kind == "while":
            assert isinstance(node, ast.expr)
            return Guard("while", self.expr_text(node), line)
        if kind in ("while-else", "assert"):
            assert isinstance(node, ast.expr)
            return Guard(kind, negate(node, self.expr_text(node), self.expr_text), line)
        if kind == "except":
            assert isinstance(node, ast.ExceptHandler)
            caught = self.expr_text(node.type) if node.type is not None else "BaseException"
            return Guard(
                "except", f"{caught} was raised" + (f" (as {node.name})" if node.name else ""), line
            )
        assert isinstance(node, tuple)
        subject, case = node
        text = f"{self.expr_text(subject)} matches {self.expr_text(case.pattern)}"
        if case.guard is not None:
            text += f" if {self.expr_text(case.guard)}"
        return Guard("case", text, line)

    def _is_elif(self, stmt: ast.If) -> bool:
        line = self.lines[stmt.lineno - 1] if stmt.lineno - 1 < len(self.lines) else ""
        return line.lstrip().startswith("elif")

    def _loop(self, body: Sequence[ast.stmt], scope: _Scope, guards: Guards) -> None:
        if scope.env is _LAZY:
            self._walk(body, scope, guards)
            return
        before = dict(scope.env)
        self._walk(body, scope, guards)
        if scope.env == before:
            return
        changed = {k for k, v in scope.env.items() if before.get(k) is not v}
        merged = _merge_envs(before, scope.env)
        for name in changed:
            if name in before and all(_extends(t, before[name]) for t in scope.env.get(name, ())):
                # ``msg += …`` inside a loop: any number of repetitions follow the start.
                merged[name] = tuple((t, _LoopTail(name)) for t in before[name])
        scope.env = merged

    def _assign(self, targets: Sequence[ast.expr], value: ast.expr, scope: _Scope) -> None:
        for target in targets:
            if isinstance(target, ast.Name):
                previous = scope.env.get(target.id)
                if previous is not None and any(
                    isinstance(n, ast.Name) and n.id == target.id for n in ast.walk(value)
                ):
                    # ``text = text + …``: the right side means the earlier binding
                    scope.env[target.id] = (_Rebind(value, target.id, previous),)
                else:
                    scope.env[target.id] = (value,)
            elif isinstance(target, (ast.Tuple, ast.List)):
                for elt in target.elts:
                    if isinstance(elt, ast.Name):
                        scope.env.pop(elt.id, None)

    # -- sites ------------------------------------------------------------------------

    def _raise(self, stmt: ast.Raise, scope: _Scope, guards: Guards) -> None:
        exc = stmt.exc
        if exc is None:
            return  # bare ``raise``: a re-raise, not a new site
        cause = self.expr_text(stmt.cause) if stmt.cause is not None else None
        for call_or_class, style, notes in self._resolve_raised(exc, scope):
            if call_or_class is None:
                if style == "reraise":
                    continue
                template = MessageTemplate.expression(self.expr_text(exc))
                self._add(stmt, "raise", scope, guards, None, None, [template], style, cause, notes)
                continue
            qualified, shown, templates, arg_style = self._exception_parts(call_or_class, scope)
            self._add(
                stmt,
                "raise",
                scope,
                guards,
                shown,
                qualified,
                templates,
                style if style != "direct" else arg_style,
                cause,
                notes,
            )

    def _resolve_raised(
        self, exc: ast.expr, scope: _Scope, depth: int = 0
    ) -> Iterator[tuple[ast.expr | None, str, list[str]]]:
        """What a raise raises: a class or a construction call, or None when unknown."""
        if isinstance(exc, ast.Call):
            if self._is_class_expr(exc.func, scope):
                yield exc, "direct", []
                return
            helper = self._helper(exc.func, scope)
            if helper is not None:
                helper_call, _ = helper
                yield helper_call, "helper_call", [f"built by helper {self.expr_text(exc.func)}"]
                return
            yield None, "helper_call", [f"built by {self.expr_text(exc.func)}(), not resolved"]
            return
        if isinstance(exc, ast.Name):
            if exc.id in scope.caught:
                yield None, "reraise", []
                return
            bound = scope.env.get(exc.id)
            if bound is not None and depth < 3:
                for thunk in bound[:MAX_ALTERNATIVES]:
                    if isinstance(thunk, ast.Call) and self._is_class_expr(thunk.func, scope):
                        yield thunk, "prebuilt_exception", []
                    elif isinstance(thunk, ast.Call):
                        yield from (
                            (c, "prebuilt_exception" if s == "direct" else s, n)
                            for c, s, n in self._resolve_raised(thunk, scope, depth + 1)
                        )
                    else:
                        yield None, "variable", []
                return
            if self._is_class_expr(exc, scope):
                yield exc, "class_no_args", []
                return
            yield None, "variable", []
            return
        if isinstance(exc, ast.Attribute) and self._is_class_expr(exc, scope):
            yield exc, "class_no_args", []
            return
        yield None, "other_expr", []

    def _is_class_expr(self, node: ast.expr, scope: _Scope) -> bool:
        if isinstance(node, ast.Name):
            name = node.id
            if name in BUILTIN_EXCEPTIONS or name in self.classes:
                return True
            if name in self.functions:
                return False
            looks_like_class = name[:1].isupper() and not name.isupper()
            if name in self.imports:
                return looks_like_class
            if looks_like_class and scope.function and name in scope.env:
                return False  # a local variable holding an instance
            return looks_like_class
        if isinstance(node, ast.Attribute):
            if isinstance(node.value, ast.Name) and node.value.id in ("self", "cls"):
                return node.attr[:1].isupper()
            return (node.attr[:1].isupper() and not node.attr.isupper()) or node.attr.endswith(
                _EXCEPTION_SUFFIXES
            )
        return False

    def _helper(self, func: ast.expr, scope: _Scope) -> tuple[ast.Call, _Scope] | None:
        """A same-module function or method that returns a constructed exception."""
        target: ast.FunctionDef | ast.AsyncFunctionDef | None = None
        class_name: str | None = None
        if isinstance(func, ast.Name):
            target = self.functions.get(func.id)
        elif (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id in ("self", "cls")
            and scope.class_name
        ):
            class_name = scope.class_name
            target = self.methods.get((class_name, func.attr))
        if target is None:
            return None
        key = id(target)
        if key not in self._helper_cache:
            self._helper_cache[key] = None
            qual = f"{class_name}.{target.name}" if class_name else target.name
            helper_scope = _Scope(
                qualname=qual, function=target.name, class_name=class_name, env={}, node=target
            )
            self._helper_cache[key] = self._find_returned_exception(target.body, helper_scope)
        return self._helper_cache[key]

    def _find_returned_exception(
        self, body: Sequence[ast.stmt], scope: _Scope
    ) -> tuple[ast.Call, _Scope] | None:
        for stmt in body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self._stmt(stmt, scope, ())
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Call):
                if self._is_class_expr(stmt.value.func, scope):
                    return stmt.value, _Scope(
                        scope.qualname, scope.function, scope.class_name, dict(scope.env)
                    )
            elif isinstance(stmt, ast.Return) and isinstance(stmt.value, ast.Name):
                for thunk in scope.env.get(stmt.value.id, ()):
                    if isinstance(thunk, ast.Call) and self._is_class_expr(thunk.func, scope):
                        return thunk, _Scope(
                            scope.qualname, scope.function, scope.class_name, dict(scope.env)
                        )
            elif isinstance(stmt, ast.If):
                found = self._find_returned_exception(
                    stmt.body, scope
                ) or self._find_returned_exception(stmt.orelse, scope)
                if found:
                    return found
        return None

    def _exception_parts(self, node: ast.expr, scope: _Scope) -> tuple[str, str, Templates, str]:
        """(qualified class, class as shown, message templates, message style)."""
        call = node if isinstance(node, ast.Call) else None
        class_expr = call.func if call is not None else node
        qualified = self.qualify(class_expr)
        shown = qualified.rpartition(".")[2]
        if call is None:
            return qualified, shown, [MessageTemplate()], "class_no_args"
        helper_scope = scope
        cached = [v for v in self._helper_cache.values() if v is not None and v[0] is call]
        if cached:
            helper_scope = cached[0][1]
        args = [a for a in call.args if not isinstance(a, ast.Starred)]
        if not call.args:
            message_kw = next((k.value for k in call.keywords if k.arg in ("msg", "message")), None)
            if message_kw is None:
                return qualified, shown, [MessageTemplate()], "class_no_args"
            args = [message_kw]
        starred = next((a for a in call.args if isinstance(a, ast.Starred)), None)
        if starred is not None:  # ``X(*parts)``: the message is whatever the list holds
            templates = [MessageTemplate.expression(self.expr_text(starred))]
            return qualified, shown, templates, "other_expr"
        built = self._message_from_init(qualified, shown, call, helper_scope)
        if built is not None:
            return qualified, shown, built, "class_init"
        style = _style_of(args[0])
        if len(args) == 1:
            templates = self.templates(args[0], helper_scope)
            if shown in _REPR_STR_EXCEPTIONS and qualified == f"builtins.{shown}":
                templates = [_quoted(t) for t in templates]
            return qualified, shown, templates, style
        if shown in _OSERROR_FAMILY and qualified == f"builtins.{shown}" and len(args) in (2, 3):
            # OSError(errno, strerror[, filename]) prints "[Errno 2] strerror: 'filename'"
            errno, strerror = (self.templates(a, helper_scope)[0] for a in args[:2])
            template = (
                MessageTemplate.literal("[Errno ")
                + errno
                + MessageTemplate.literal("] ")
                + strerror
            )
            if len(args) == 3:
                filename = self.templates(args[2], helper_scope)[0]
                template += MessageTemplate.literal(": ") + (
                    filename if filename.is_opaque else _quoted(filename)
                )
            return qualified, shown, [template], "multiple_args"
        if self._prints_args_tuple(qualified, shown):
            # ``ValueError("bad", x)`` prints as the tuple repr: ('bad', <x>)
            pieces = [self.templates(a, helper_scope)[0] for a in args]
            quoted = [p if p.is_opaque else _quoted(p) for p in pieces]
            tuple_template = (
                MessageTemplate.literal("(")
                + MessageTemplate.join(quoted, ", ")
                + MessageTemplate.literal(")")
            )
            return qualified, shown, [tuple_template], "multiple_args"
        return qualified, shown, self.templates(args[0], helper_scope), style

    def _message_from_init(
        self, qualified: str, shown: str, call: ast.Call, scope: _Scope
    ) -> Templates | None:
        """The message a class of this module builds in ``__init__`` from its arguments.

        ``JSONDecodeError(msg, doc, pos)`` formats ``'%s: line %d column %d (char %d)'``
        and hands that to ``ValueError.__init__``: the raise's arguments fill the
        parameters, and the text passed to the base ``__init__`` is the message.
        """
        local = self.classes.get(shown) if qualified == f"{self.module}.{shown}" else None
        init = self.methods.get((shown, "__init__")) if local is not None else None
        if init is None or (call.keywords and any(k.arg is None for k in call.keywords)):
            return None
        params = [a.arg for a in [*init.args.posonlyargs, *init.args.args]][1:]
        if len(call.args) > len(params):
            return None
        env: Env = {}
        for name, arg in zip(params, call.args, strict=False):
            env[name] = (_Fixed(self.templates(arg, scope)[0]),)
        for keyword in call.keywords:
            if keyword.arg in params:
                env[keyword.arg] = (_Fixed(self.templates(keyword.value, scope)[0]),)
        init_scope = _Scope(f"{shown}.__init__", "__init__", shown, env, set(), init)
        for stmt in init.body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                self._stmt(stmt, init_scope, ())
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                message = _base_init_message(stmt.value, shown)
                if message is not None:
                    return self.templates(message, init_scope)
        return None

    def _prints_args_tuple(self, qualified: str, shown: str) -> bool:
        """Whether ``str(exc)`` of several arguments is ``BaseException``'s tuple repr.

        True for builtins other than the OSError/UnicodeError/SyntaxError/ImportError
        families, and for classes of this module that define neither ``__init__`` nor
        ``__str__``; classes from elsewhere are assumed to keep the default.
        """
        if qualified == f"builtins.{shown}":
            return shown not in _CUSTOM_STR_EXCEPTIONS
        local = self.classes.get(shown) if qualified == f"{self.module}.{shown}" else None
        if local is None:
            return True
        return not any(
            isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef))
            and item.name in ("__init__", "__str__")
            for item in local.body
        )

    def qualify(self, node: ast.expr) -> str:
        """Resolve a class expression through the module's imports and definitions."""
        dotted = _dotted(node)
        if dotted is None:
            return self.expr_text(node)
        head, _, rest = dotted.partition(".")
        if head in self.imports:
            base = self.imports[head]
            return f"{base}.{rest}" if rest else base
        if not rest and head in self.classes:
            return f"{self.module}.{head}"
        if not rest and head in BUILTIN_EXCEPTIONS:
            return f"builtins.{head}"
        return dotted

    def _maybe_warn(self, call: ast.Call, stmt: ast.stmt, scope: _Scope, guards: Guards) -> None:
        func = call.func
        if not (
            (isinstance(func, ast.Attribute) and func.attr in _WARN_NAMES)
            or (isinstance(func, ast.Name) and func.id in self.imports)
        ):
            return
        dotted = _dotted(call.func)
        if dotted is None:
            return
        head, _, rest = dotted.partition(".")
        resolved = self.imports.get(head, head) + (f".{rest}" if rest else "")
        if resolved not in ("warnings.warn", "warnings.warn_explicit"):
            return
        message = (
            call.args[0]
            if call.args
            else next((k.value for k in call.keywords if k.arg == "message"), None)
        )
        category = (
            call.args[1]
            if len(call.args) > 1
            else next((k.value for k in call.keywords if k.arg == "category"), None)
        )
        if message is None:
            return
        if isinstance(message, ast.Call) and self._is_class_expr(message.func, scope):
            qualified, shown, templates, style = self._exception_parts(message, scope)
        else:
            if category is not None:
                qualified = self.qualify(category)
                shown = qualified.rpartition(".")[2]
            else:
                qualified, shown = "builtins.UserWarning", "UserWarning"
            templates = self.templates(message, scope)
            style = _style_of(message)
        self._add(stmt, "warn", scope, guards, shown, qualified, templates, style, None, [])

    def _assert(self, stmt: ast.Assert, scope: _Scope, guards: Guards) -> None:
        if stmt.msg is None:
            return
        fired = (*guards, ("assert", stmt.test, stmt.lineno))
        templates = self.templates(stmt.msg, scope)
        self._add(
            stmt,
            "assert",
            scope,
            fired,
            "AssertionError",
            "builtins.AssertionError",
            templates,
            _style_of(stmt.msg),
            None,
            [],
        )

    def _add(
        self,
        stmt: ast.stmt,
        kind: SiteKind,
        scope: _Scope,
        guards: Guards,
        shown: str | None,
        qualified: str | None,
        templates: Templates,
        style: str,
        cause: str | None,
        notes: list[str],
    ) -> None:
        is_warning = kind == "warn"
        severity: Severity = "warning" if is_warning else _severity_for(shown)
        qualname = f"{self.module}.{scope.qualname}" if scope.qualname else self.module
        written = tuple(self._guard(g) for g in guards)
        seen: set[MessageTemplate] = set()
        for template in templates:
            if template in seen:
                continue
            seen.add(template)
            self.sites.append(
                ErrorSite(
                    file_path=self.file_path,
                    line=stmt.lineno,
                    end_line=stmt.end_lineno or stmt.lineno,
                    kind=kind,
                    template=template,
                    error_class=shown,
                    qualified_class=qualified,
                    qualname=qualname,
                    function=scope.function,
                    style=style,
                    error_type="console" if is_warning else "exception",
                    severity=severity,
                    guards=written,
                    cause=cause,
                    notes=[
                        *notes,
                        *(
                            [f"one of {len(templates)} alternative messages"]
                            if len(templates) > 1
                            else []
                        ),
                    ],
                )
            )

    # -- message templates ---------------------------------------------------------------

    def templates(self, node: ast.expr, scope: _Scope, depth: int = 0) -> Templates:
        """The message alternatives an expression can produce (at most MAX_ALTERNATIVES)."""
        out = self._templates(node, scope, depth)
        if len(out) > MAX_ALTERNATIVES:
            return [MessageTemplate.expression(self.expr_text(node))]
        return out or [MessageTemplate.expression(self.expr_text(node))]

    def _templates(self, node: ast.expr, scope: _Scope, depth: int) -> Templates:
        if depth > 12:
            return [MessageTemplate.expression(self.expr_text(node))]
        if isinstance(node, ast.Constant):
            if isinstance(node.value, str):
                return [MessageTemplate.literal(node.value)]
            if node.value is Ellipsis:
                return [MessageTemplate.literal("Ellipsis")]
            return [MessageTemplate.literal(str(node.value))]  # str(5) is what prints
        if isinstance(node, ast.JoinedStr):
            return [self._fstring(node, scope, depth)]
        if isinstance(node, ast.BinOp):
            if isinstance(node.op, ast.Add):
                left = self.templates(node.left, scope, depth + 1)
                right = self.templates(node.right, scope, depth + 1)
                return [a + b for a in left for b in right]
            if isinstance(node.op, ast.Mod) and _is_stringish(node.left, scope):
                formatted = [
                    _apply_literals(t, MessageTemplate.from_percent)
                    for t in self.templates(node.left, scope, depth + 1)
                ]
                return [self._fill_percent(t, node.right, scope, depth) for t in formatted]
            return [MessageTemplate.expression(self.expr_text(node))]
        if isinstance(node, ast.Name):
            return self._name(node, scope, depth)
        if isinstance(node, ast.Call):
            return self._call(node, scope, depth)
        if isinstance(node, ast.IfExp):
            return self.templates(node.body, scope, depth + 1) + self.templates(
                node.orelse, scope, depth + 1
            )
        return [MessageTemplate.expression(self.expr_text(node))]

    def _outer_env(self, scope: _Scope) -> Iterator[Env]:
        """The bindings enclosing functions had where each nested ``def`` stands."""
        outer = scope.outer
        while outer is not None:
            parent, def_stmt = outer
            yield self._env_at(parent, def_stmt) if parent.env is _LAZY else parent.env
            outer = parent.outer

    def _fill_percent(
        self, template: MessageTemplate, values: ast.expr, scope: _Scope, depth: int
    ) -> MessageTemplate:
        """Put known text into ``%s`` holes: ``'%s: line %d' % (msg, n)`` with ``msg``
        known to be ``"Expecting value"`` reads ``Expecting value: line %d``. Holes whose
        value is unknown, or formatted other than by ``%s``, stay as written."""
        elements = values.elts if isinstance(values, ast.Tuple) else [values]
        positional = [p for p in template.parts if isinstance(p, Hole) and p.name.isdigit()]
        if len(positional) != len(elements) or any(isinstance(e, ast.Starred) for e in elements):
            return template
        known: dict[int, MessageTemplate] = {}
        for hole, element in zip(positional, elements, strict=True):
            if hole.text == "%s" and isinstance(element, (ast.Name, ast.Constant, ast.JoinedStr)):
                value = self.templates(element, scope, depth + 1)
                if len(value) == 1 and not value[0].is_opaque:
                    known[id(hole)] = value[0]
        if not known:
            return template
        parts: list[Literal | Hole] = []
        for part in template.parts:
            parts.extend(known[id(part)].parts if id(part) in known else (part,))
        return MessageTemplate(parts)

    def _name(self, node: ast.Name, scope: _Scope, depth: int) -> Templates:
        bound = scope.env.get(node.id)
        if bound is None:
            for env in self._outer_env(scope):
                bound = env.get(node.id)
                if bound is not None:
                    break
        if bound is None and scope.env is not self.module_env:
            bound = self.module_env.get(node.id)
            if bound is not None and not all(
                _is_stringish(t, scope) for t in bound if isinstance(t, ast.expr)
            ):
                bound = None
        if bound is None:
            return [MessageTemplate.expression(node.id)]
        out: Templates = []
        for thunk in bound:
            out.extend(self._thunk(thunk, scope, depth + 1))
        return out

    def _thunk(self, thunk: Thunk | _LoopTail, scope: _Scope, depth: int) -> Templates:
        if isinstance(thunk, _LoopTail):
            return [MessageTemplate.hole("{…}", f"{thunk.name}…")]
        if isinstance(thunk, _Fixed):
            return [thunk.template]
        if isinstance(thunk, _Rebind):
            inner = _Scope(
                scope.qualname,
                scope.function,
                scope.class_name,
                {**scope.env, thunk.name: thunk.previous},
                scope.caught,
                scope.node,
                scope.outer,
            )
            return self.templates(thunk.value, inner, depth)
        if isinstance(thunk, tuple):
            base, extra = thunk
            return [
                a + b
                for a in self._thunk(base, scope, depth + 1)
                for b in self._thunk(extra, scope, depth + 1)
            ]
        return self.templates(thunk, scope, depth)

    def _call(self, node: ast.Call, scope: _Scope, depth: int) -> Templates:
        func = node.func
        if isinstance(func, ast.Attribute):
            owner = func.value
            if func.attr == "format" and _is_stringish(owner, scope):
                return [
                    _apply_literals(t, MessageTemplate.from_format)
                    for t in self.templates(owner, scope, depth + 1)
                ]
            if func.attr == "join" and _is_stringish(owner, scope) and len(node.args) == 1:
                seq = node.args[0]
                separators = self.templates(owner, scope, depth + 1)
                if isinstance(seq, (ast.List, ast.Tuple)) and all(
                    not isinstance(e, ast.Starred) for e in seq.elts
                ):
                    items = [self.templates(e, scope, depth + 1)[0] for e in seq.elts]
                    return [
                        MessageTemplate.join(items, sep.display)
                        if not sep.holes
                        else MessageTemplate.expression(self.expr_text(node))
                        for sep in separators
                    ]
                return [MessageTemplate.expression(self.expr_text(node))]
            if (
                func.attr in ("strip", "rstrip", "lstrip")
                and not node.args
                and _is_stringish(owner, scope)
            ):
                return [
                    _transform(t, getattr(str, func.attr))
                    for t in self.templates(owner, scope, depth + 1)
                ]
            dotted = _dotted(func)
            if dotted is not None:
                head, _, rest = dotted.partition(".")
                resolved = self.imports.get(head, head) + (f".{rest}" if rest else "")
                if resolved in ("textwrap.dedent", "inspect.cleandoc") and len(node.args) == 1:
                    fn: Callable[[str], str] = (
                        textwrap.dedent if resolved == "textwrap.dedent" else _cleandoc
                    )
                    return [
                        _transform(t, fn) for t in self.templates(node.args[0], scope, depth + 1)
                    ]
        elif isinstance(func, ast.Name):
            resolved = self.imports.get(func.id, func.id)
            if resolved in ("textwrap.dedent", "inspect.cleandoc") and len(node.args) == 1:
                fn2: Callable[[str], str] = (
                    textwrap.dedent if resolved == "textwrap.dedent" else _cleandoc
                )
                return [_transform(t, fn2) for t in self.templates(node.args[0], scope, depth + 1)]
        return [MessageTemplate.expression(self.expr_text(node))]

    def _fstring(self, node: ast.JoinedStr, scope: _Scope, depth: int) -> MessageTemplate:
        values = node.values
        formatted = [v for v in values if isinstance(v, ast.FormattedValue)]
        placeholders = (
            all(
                isinstance(v.value, ast.Name) and v.value.id.startswith(PLACEHOLDER_PREFIX)
                for v in formatted
            )
            and bool(formatted)
            and bool(self.placeholder_fields)
        )
        raw_fields = None if placeholders else scan_fstring_fields(self.segment(node))
        if raw_fields is not None and len(raw_fields) != len(formatted):
            raw_fields = None
        parts: list[Literal | Hole] = []
        k = 0
        for value in values:
            if isinstance(value, ast.Constant) and isinstance(value.value, str):
                parts.append(Literal(value.value))
                continue
            if not isinstance(value, ast.FormattedValue):
                continue
            if placeholders and isinstance(value.value, ast.Name):
                # the 3.12+ grammar: the downgrade kept each field's raw text aside
                raw = self.placeholder_fields.get(value.value.id, value.value.id)
                fld = split_field(raw)
                parts.append(Hole("{" + raw + "}", fld.name, fld.expression if fld.debug else ""))
            elif raw_fields is not None:
                fld = raw_fields[k]
                prefix = ""
                if (
                    fld.debug
                    and parts
                    and isinstance(parts[-1], Literal)
                    and parts[-1].text.endswith(fld.expression)
                ):
                    # 3.11 puts the printed ``expr=`` into the literal before the value
                    text = parts[-1].text[: len(parts[-1].text) - len(fld.expression)]
                    parts[-1] = Literal(text)
                    prefix = fld.expression
                parts.append(Hole("{" + fld.raw + "}", fld.name, prefix))
            else:
                text = self.expr_text(value.value)
                conv = f"!{chr(value.conversion)}" if value.conversion > 0 else ""
                parts.append(Hole("{" + text + conv + "}", text))
            k += 1
        return MessageTemplate(parts)


_DISPATCH = _ModuleExtractor._make_dispatch()


@dataclass(frozen=True, slots=True)
class _Fixed:
    """A value whose template is already known (a caller's argument bound to a parameter)."""

    template: MessageTemplate


def _base_init_message(call: ast.Call, class_name: str) -> ast.expr | None:
    """The message of ``super().__init__(msg)`` or ``Base.__init__(self, msg)``; None if not one."""
    func = call.func
    if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
        return None
    args = list(call.args)
    owner = func.value
    if (
        isinstance(owner, ast.Call)
        and isinstance(owner.func, ast.Name)
        and owner.func.id == "super"
    ):
        pass
    elif (
        isinstance(owner, (ast.Name, ast.Attribute))
        and args
        and isinstance(args[0], ast.Name)
        and args[0].id == "self"
    ):
        args = args[1:]
    else:
        return None
    if len(args) != 1 or call.keywords or isinstance(args[0], ast.Starred):
        return None
    return args[0]


@dataclass(frozen=True, slots=True)
class _Rebind:
    """``name = <expression using name>``: evaluated with ``name`` bound as before."""

    value: ast.expr
    name: str
    previous: tuple[Thunk, ...]


@dataclass(frozen=True, slots=True)
class _LoopTail:
    """What a loop appends to a message with ``+=``: any number of repetitions."""

    name: str


# ``warn\b`` catches ``warn(``, ``warnings.warn(`` and aliases like ``_warn(``.
_KEYWORD_RE = re.compile(r"raise\b|warn\b|assert\b")


def _keyword_lines(source: str) -> list[int]:
    """Sorted line numbers where raise/warn/assert appear (in code, strings or comments)."""
    lines: list[int] = []
    line = 1
    pos = 0
    for m in _KEYWORD_RE.finditer(source):
        line += source.count("\n", pos, m.start())
        pos = m.start()
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def _merge_envs(a: Env, b: Env) -> Env:
    """Names bound on either path of a branch: the union of their alternatives."""
    merged: Env = {}
    for name in a.keys() | b.keys():
        x, y = a.get(name), b.get(name)
        if x is None or y is None:
            # bound on one path only: the other path keeps what it had (possibly nothing)
            merged[name] = x if y is None else y  # type: ignore[assignment]
            continue
        if x is y:
            merged[name] = x
            continue
        combined = list(x)
        for thunk in y:
            if not any(thunk is t for t in combined):
                combined.append(thunk)
        merged[name] = tuple(combined)
    return merged


def _extends(thunk: Thunk, bases: tuple[Thunk, ...]) -> bool:
    while isinstance(thunk, tuple):
        if any(thunk[0] is b for b in bases):
            return True
        thunk = thunk[0]
    return any(thunk is b for b in bases)


def _dotted(node: ast.expr) -> str | None:
    parts: list[str] = []
    while isinstance(node, ast.Attribute):
        parts.append(node.attr)
        node = node.value
    if isinstance(node, ast.Name):
        parts.append(node.id)
        return ".".join(reversed(parts))
    return None


def _is_stringish(node: ast.expr | object, scope: _Scope) -> bool:
    if isinstance(node, ast.Constant):
        return isinstance(node.value, str)
    if isinstance(node, (ast.JoinedStr, ast.Name)):
        return True
    if isinstance(node, ast.BinOp):
        return _is_stringish(node.left, scope)
    if isinstance(node, ast.Call):
        func = node.func
        name = (
            func.attr
            if isinstance(func, ast.Attribute)
            else func.id
            if isinstance(func, ast.Name)
            else ""
        )
        return name in _STRING_BUILDERS
    return False


def _style_of(node: ast.expr) -> str:
    if isinstance(node, ast.Constant):
        return "literal"
    if isinstance(node, ast.JoinedStr):
        return "fstring"
    if isinstance(node, ast.Name):
        return "variable"
    if isinstance(node, ast.BinOp):
        return "formatted" if isinstance(node.op, ast.Mod) else "concat"
    if isinstance(node, ast.Call):
        return "formatted"
    return "other_expr"


def _severity_for(shown: str | None) -> Severity:
    if shown in _CRITICAL:
        return "critical"
    if shown in _INFO:
        return "info"
    if shown in _BUILTIN_WARNINGS or (shown or "").endswith("Warning"):
        return "warning"
    return "error"


def _quoted(template: MessageTemplate) -> MessageTemplate:
    """``repr()`` of a string built from this template, as ``str(KeyError(s))`` prints it.

    Without holes the repr is known exactly. With holes, which quote ``repr`` picks
    depends on the values (``"`` when the text holds ``'``), so the quotes are holes
    of their own rather than a guess.
    """
    if not template.holes:
        return MessageTemplate.literal(repr(template.display))
    if template.is_opaque:
        return template  # one value: maybe not even a string, so its repr is all we know
    quote = MessageTemplate.hole("'", "(quote)")
    return quote + template + quote


def _apply_literals(
    template: MessageTemplate, parse: Callable[[str], MessageTemplate]
) -> MessageTemplate:
    parts: list[Literal | Hole] = []
    for part in template.parts:
        if isinstance(part, Literal):
            parts.extend(parse(part.text).parts)
        else:
            parts.append(part)
    return MessageTemplate(parts)


_SENTINEL_BASE = 0xF0000  # a private-use plane: never in real messages


def _transform(template: MessageTemplate, fn: Callable[[str], str]) -> MessageTemplate:
    """Apply a text function (dedent, strip) to a template, holes kept in place."""
    holes = template.holes
    text = "".join(
        p.text if isinstance(p, Literal) else chr(_SENTINEL_BASE + holes.index(p))
        for p in template.parts
    )
    result = fn(text)
    parts: list[Literal | Hole] = []
    buf: list[str] = []
    for ch in result:
        code = ord(ch)
        if _SENTINEL_BASE <= code < _SENTINEL_BASE + len(holes):
            parts.append(Literal("".join(buf)))
            buf = []
            parts.append(holes[code - _SENTINEL_BASE])
        else:
            buf.append(ch)
    parts.append(Literal("".join(buf)))
    return MessageTemplate(parts)


def _cleandoc(text: str) -> str:
    return inspect.cleandoc(text)


_NEGATED_COMPARE: dict[type[ast.cmpop], str] = {
    ast.Is: "is not",
    ast.IsNot: "is",
    ast.In: "not in",
    ast.NotIn: "in",
    ast.Eq: "!=",
    ast.NotEq: "==",
    ast.Lt: ">=",
    ast.LtE: ">",
    ast.Gt: "<=",
    ast.GtE: "<",
}


def negate(test: ast.expr, text: str, source: Callable[[ast.AST], str] = ast.unparse) -> str:
    """The condition under which an ``else`` branch runs, written as a reader would."""
    if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
        return source(test.operand)
    if isinstance(test, ast.Compare) and len(test.ops) == 1:
        op = _NEGATED_COMPARE.get(type(test.ops[0]))
        if op is not None:
            return f"{source(test.left)} {op} {source(test.comparators[0])}"
    if isinstance(test, (ast.Name, ast.Attribute, ast.Call, ast.Subscript)):
        return f"not {text}"
    return f"not ({text})"
