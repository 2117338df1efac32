"""The statement walk: one pass over a module's statements yields its ErrorSites.

Only statements are visited (raises, asserts, ``warnings.warn`` calls and ``yield
Error(…)`` are statements or expression statements), which keeps the walk a fraction of the cost
of ``ast.parse`` itself. A function's assignments are followed only when one of its
sites looks a local name up: then that one function is walked again, tracking them.
"""

from __future__ import annotations

import ast
import builtins
from bisect import bisect_left
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from errdex.extract.site import ErrorSite, SiteKind
from errdex.record import Severity
from errdex.template import MessageTemplate, fold_optional

from .caller_sites import CallerSitesReader, Planned
from .caught import hidden_by
from .converted import Converting, conversion_of, converted_by
from .exceptions import derivation
from .filled import filled_notes
from .guards import Guards, write_guard
from .hole_kinds import narrowed
from .literals import irreducible, style_of
from .messages import Templates
from .module import BUILTIN_EXCEPTIONS, dotted_name
from .rebound import bind_targets, bind_walrus
from .scope import (
    LAZY,
    Env,
    LoopTail,
    NeedEnv,
    Scope,
    bind_assignment,
    extends,
    merge_envs,
)

__all__ = ["ModuleExtractor"]

_BUILTIN_WARNINGS: frozenset[str] = frozenset(
    name for name in BUILTIN_EXCEPTIONS if issubclass(getattr(builtins, name), Warning)
)
_CRITICAL = frozenset({"MemoryError", "SystemError", "RecursionError"})
_INFO = frozenset({"StopIteration", "StopAsyncIteration", "GeneratorExit", "SystemExit"})
_WARN_NAMES = frozenset({"warn", "warn_explicit"})


class ModuleExtractor(CallerSitesReader):
    """Walks one module's statements and records each raise, warn, assert and yielded
    exception it reaches."""

    def __init__(self, source: str, file_path: str, module: str, fields: dict[str, str]) -> None:
        super().__init__(source, file_path, module, fields)
        self.sites: list[ErrorSite] = []
        self._keyword_lines: list[int] = []
        #: While replaying a function's assignments: the environment at each site.
        self._replay: dict[int, Env] | None = None
        self._replayed: dict[int, dict[int, Env]] = {}
        #: The ``try`` statements whose body the walk is in, within the current definition.
        self._tries: list[ast.Try] = []
        #: Sites whose raise a handler of their function turns into another (:mod:`.converted`).
        self._converted: list[tuple[list[ErrorSite], Converting]] = []
        self._walrus = False  # whether the source may hold ``:=`` or ``case`` (:mod:`.rebound`)

    def run(self, tree: ast.Module) -> list[ErrorSite]:
        self._keyword_lines = _keyword_lines(self.source)
        self._walrus = ":=" in self.source or "case" in self.source
        self._tree = tree
        self._index_module(tree)
        self.plan_caller_sites(tree, self._keyword_lines)
        if self._planned_lines:  # the walk enters what holds a planned call too
            self._keyword_lines = sorted({*self._keyword_lines, *self._planned_lines})
        scope = Scope(qualname="", function=None, class_name=None, env=self.module_env)
        self._walk(tree.body, scope, ())
        for sites, converting in self._converted:
            found = conversion_of(converting, self.sites)
            for site in sites:
                site.conversion = found
        return self.sites

    # -- the walk -----------------------------------------------------------------------
    #
    # Guards are carried as cheap ``Pending`` tuples (kind, node, line) and written out
    # as text only for the few chains that end at a site.

    def _walk(self, body: Sequence[ast.stmt], scope: Scope, guards: Guards) -> None:
        dispatch = _DISPATCH
        walrus = self._walrus
        for stmt in body:
            if walrus:
                bind_walrus(stmt, scope)
            handler = dispatch.get(type(stmt))
            if handler is not None:
                handler(self, stmt, scope, guards)

    @classmethod
    def _make_dispatch(cls) -> dict[type[ast.stmt], Callable[[Any, Any, Scope, Guards], None]]:
        # Plain functions, not bound methods: a dict of bound methods would tie the
        # extractor (and the whole syntax tree it holds) into a reference cycle.
        return {
            ast.Raise: cls._raise_stmt,
            ast.Return: cls._return_stmt,
            ast.Expr: cls._expr_stmt,
            ast.Assign: cls._bind,
            ast.AnnAssign: cls._bind,
            ast.AugAssign: cls._bind,
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

    def _expr_stmt(self, stmt: ast.Expr, scope: Scope, guards: Guards) -> None:
        if self._planned_lines:
            self._calls_stmt(stmt, scope, guards)
        call = stmt.value
        if isinstance(call, ast.Call):
            self._site(lambda st, sc, gu: self._maybe_warn(call, st, sc, gu), stmt, scope, guards)
        elif isinstance(call, ast.Yield) and isinstance(call.value, ast.Call):
            made = call.value
            self._site(lambda st, sc, gu: self._yielded(made, st, sc, gu), stmt, scope, guards)

    def _raise_stmt(self, stmt: ast.Raise, scope: Scope, guards: Guards) -> None:
        self._site(self._raise, stmt, scope, guards)

    def _return_stmt(self, stmt: ast.Return, scope: Scope, guards: Guards) -> None:
        if self._planned_lines:
            self._calls_stmt(stmt, scope, guards)

    def _calls_stmt(self, stmt: ast.stmt, scope: Scope, guards: Guards) -> None:
        """A statement calling a helper that raises what the call passes
        (:mod:`.caller_sites`): a site per such call, at its line, with its guards."""
        if self._replay is not None:
            return
        for planned in self.caller_calls(stmt):
            self._caller_site(planned, scope, guards)

    def _caller_site(self, planned: Planned, scope: Scope, guards: Guards) -> None:
        call = planned.call
        at = ast.Expr(call, lineno=call.lineno, end_lineno=call.end_lineno, col_offset=0)
        for shown, qualified, templates, style, notes in planned.parts:
            if self._tries and hidden_by(ast.Name(id=shown or ""), self._tries) is not None:
                continue  # the call is in a ``try`` that catches and hides it
            mark = len(self.sites)
            self._add(at, "raise", scope, guards, shown, qualified, templates, style, None, notes)
            for site in self.sites[mark:]:
                site.raised_at = planned.raised_at

    def _assert_stmt(self, stmt: ast.Assert, scope: Scope, guards: Guards) -> None:
        self._site(self._assert, stmt, scope, guards)

    def _site(
        self,
        handler: Callable[[Any, Scope, Guards], None],
        stmt: ast.stmt,
        scope: Scope,
        guards: Guards,
    ) -> None:
        """Run a site handler; replay the function's assignments if it looks a name up."""
        if self._replay is not None:
            self._replay[id(stmt)] = dict(scope.env)
            return
        if scope.env is LAZY:
            mark = len(self.sites)
            try:
                handler(stmt, scope, guards)
                return
            except NeedEnv:
                del self.sites[mark:]
                scope = Scope(
                    scope.qualname,
                    scope.function,
                    scope.class_name,
                    self._env_at(scope, stmt),
                    scope.caught,
                    scope.node,
                    scope.outer,
                )
        handler(stmt, scope, guards)

    def _env_at(self, scope: Scope, stmt: ast.stmt) -> Env:
        """The function's local bindings reaching ``stmt``, from one tracked walk per function."""
        node = scope.node
        if node is None:
            return {}
        key = id(node)
        if key not in self._replayed:
            replay_scope = Scope(scope.qualname, scope.function, scope.class_name, {}, set(), node)
            self._replay = {}
            try:
                self._walk(node.body, replay_scope, ())
                self._replayed[key] = self._replay
            finally:
                self._replay = None
        return self._replayed[key].get(id(stmt), {})

    def _bind(
        self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, scope: Scope, guards: Guards
    ) -> None:
        if self._planned_lines:
            self._calls_stmt(stmt, scope, guards)
        bind_assignment(stmt, scope)

    def _for(self, stmt: ast.For | ast.AsyncFor, scope: Scope, guards: Guards) -> None:
        bind_targets((stmt.target,), scope)
        self._loop(stmt.body, scope, (*guards, ("for", stmt, stmt.lineno)))
        self._walk(stmt.orelse, scope, guards)

    def _while(self, stmt: ast.While, scope: Scope, guards: Guards) -> None:
        self._loop(stmt.body, scope, (*guards, ("while", stmt.test, stmt.lineno)))
        if stmt.orelse:
            self._walk(stmt.orelse, scope, (*guards, ("while-else", stmt.test, stmt.lineno)))

    def _with(self, stmt: ast.With | ast.AsyncWith, scope: Scope, guards: Guards) -> None:
        bind_targets((item.optional_vars for item in stmt.items), scope)
        self._walk(stmt.body, scope, guards)

    def _try(self, stmt: ast.Try | ast.TryStar, scope: Scope, guards: Guards) -> None:
        for handler in stmt.handlers:
            if handler.name:
                scope.caught.add(handler.name)
        if scope.env is LAZY:
            self._try_body(stmt, scope, guards)
            for handler in stmt.handlers:
                self._walk(handler.body, scope, (*guards, ("except", handler, handler.lineno)))
            self._walk(stmt.orelse, scope, guards)
            self._walk(stmt.finalbody, scope, guards)
            return
        # A handler may start from before the body or from anywhere in it; after the
        # statement, any of the paths (body then else, or a handler) may have run.
        before = scope.env
        scope.env = dict(before)
        self._try_body(stmt, scope, guards)
        after_body = scope.env
        entry = merge_envs(before, after_body)
        paths: list[Env] = []
        for handler in stmt.handlers:
            scope.env = dict(entry)
            self._walk(handler.body, scope, (*guards, ("except", handler, handler.lineno)))
            paths.append(scope.env)
        scope.env = after_body
        self._walk(stmt.orelse, scope, guards)
        merged = scope.env
        for path in paths:
            merged = merged if merged == path else merge_envs(merged, path)
        scope.env = merged
        self._walk(stmt.finalbody, scope, guards)

    def _try_body(self, stmt: ast.Try | ast.TryStar, scope: Scope, guards: Guards) -> None:
        if not isinstance(stmt, ast.Try):  # ``except*`` takes groups: not read
            self._walk(stmt.body, scope, guards)
            return
        self._tries.append(stmt)
        try:
            self._walk(stmt.body, scope, guards)
        finally:
            self._tries.pop()

    def _match(self, stmt: ast.Match, scope: Scope, guards: Guards) -> None:
        for case in stmt.cases:
            self._walk(
                case.body, scope, (*guards, ("case", (stmt.subject, case), case.pattern.lineno))
            )

    def _child_prefix(self, scope: Scope) -> str:
        if scope.function:
            return f"{scope.qualname}.<locals>."
        return f"{scope.qualname}." if scope.qualname else ""

    def _may_raise(self, node: ast.stmt) -> bool:
        """Whether the node's lines mention raise/warn/assert/yield at all: skip the rest
        unwalked."""
        lines = self._keyword_lines
        i = bisect_left(lines, node.lineno)
        return i < len(lines) and lines[i] <= (node.end_lineno or node.lineno)

    def _function(
        self, stmt: ast.FunctionDef | ast.AsyncFunctionDef, scope: Scope, guards: Guards
    ) -> None:
        if self._replay is not None:
            self._replay[id(stmt)] = dict(scope.env)  # what a closure sees
            return
        if not self._may_raise(stmt):
            return
        inner = Scope(
            qualname=self._child_prefix(scope) + stmt.name,
            function=stmt.name,
            class_name=None if scope.function else scope.class_name,
            env=LAZY,
            node=stmt,
            outer=(scope, stmt) if scope.function else None,
        )
        self._walk_apart(stmt.body, inner)

    def _walk_apart(self, body: Sequence[ast.stmt], scope: Scope) -> None:
        """A definition's body: the ``try`` around the definition does not run it."""
        outer, self._tries = self._tries, []
        try:
            self._walk(body, scope, ())
        finally:
            self._tries = outer

    def _class(self, stmt: ast.ClassDef, scope: Scope, guards: Guards) -> None:
        if self._replay is not None or not self._may_raise(stmt):
            return
        inner = Scope(
            qualname=self._child_prefix(scope) + stmt.name,
            function=None,
            class_name=stmt.name,
            env={},
        )
        self._walk_apart(stmt.body, inner)

    def _if(self, stmt: ast.If, scope: Scope, guards: Guards) -> None:
        if scope.env is LAZY:
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
        scope.env = after_body if after_body == after_else else merge_envs(after_body, after_else)

    def _loop(self, body: Sequence[ast.stmt], scope: Scope, guards: Guards) -> None:
        if scope.env is LAZY:
            self._walk(body, scope, guards)
            return
        before = dict(scope.env)
        self._walk(body, scope, guards)
        if scope.env == before:
            return
        changed = {k for k, v in scope.env.items() if before.get(k) is not v}
        merged = merge_envs(before, scope.env)
        for name in changed:
            if name in before and all(extends(t, before[name]) for t in scope.env.get(name, ())):
                # ``msg += …`` inside a loop: any number of repetitions follow the start.
                merged[name] = tuple((t, LoopTail(name)) for t in before[name])
        scope.env = merged

    # -- sites ------------------------------------------------------------------------

    def _raise(self, stmt: ast.Raise, scope: Scope, guards: Guards) -> None:
        exc = stmt.exc
        if exc is None:
            return  # bare ``raise``: a re-raise, not a new site
        if self._tries and hidden_by(exc, self._tries) is not None:
            return  # caught and hidden in this function (:mod:`.caught`): control flow
        if self.replaced(stmt):
            return  # every call of the helper is a site of its own (:mod:`.caller_sites`)
        cause = self.expr_text(stmt.cause) if stmt.cause is not None else None
        parts = self.from_callers(stmt, exc, scope, list(self._raised_parts(exc, scope)))
        before = len(self.sites)
        for shown, qualified, templates, style, notes in parts:
            self._add(
                stmt, "raise", scope, guards, shown, qualified, templates, style, cause, notes
            )
        converting = converted_by(exc, self._tries) if self._tries else None
        if converting is not None and len(self.sites) > before:
            self._converted.append((self.sites[before:], converting))

    def _raised_parts(
        self, exc: ast.expr, scope: Scope
    ) -> Iterator[tuple[str | None, str | None, Templates, str, list[str]]]:
        """(class shown, qualified class, templates, style, notes) of each thing raised."""
        if isinstance(exc, ast.Call) and not self._is_class_expr(exc.func, scope):
            built = self.built_by_helper(exc, scope)
            if built is not None:
                shown = built.qualified.rpartition(".")[2]
                notes = [derivation(built.notes)]
                yield shown, built.qualified, built.templates, "helper_call", notes
                return
        for call_or_class, style, notes in self._resolve_raised(exc, scope):
            if call_or_class is None:
                if style != "reraise":
                    text = self.expr_text(exc)
                    # an exception a call builds, not resolved: its message, not its code
                    shown_as = (
                        MessageTemplate.unknown_message(text)
                        if isinstance(exc, ast.Call)
                        else MessageTemplate.expression(text)
                    )
                    yield None, None, [shown_as], style, notes
                continue
            qualified, shown, templates, arg_style = self._exception_parts(call_or_class, scope)
            shown_style = style if style != "direct" else arg_style
            yield shown, qualified, templates, shown_style, [*notes, *self.derived]

    def _maybe_warn(self, call: ast.Call, stmt: ast.stmt, scope: Scope, guards: Guards) -> None:
        func = call.func
        if not (
            (isinstance(func, ast.Attribute) and func.attr in _WARN_NAMES)
            or (isinstance(func, ast.Name) and func.id in self.imports)
        ):
            return
        dotted = dotted_name(call.func)
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
            notes = list(self.derived)
        else:
            notes = []
            if category is not None:
                qualified = self.qualify(category)
                shown = qualified.rpartition(".")[2]
            else:
                qualified, shown = "builtins.UserWarning", "UserWarning"
            templates = self.templates(message, scope)
            style = style_of(message)
        self._add(stmt, "warn", scope, guards, shown, qualified, templates, style, None, notes)

    def _yielded(self, call: ast.Call, stmt: ast.stmt, scope: Scope, guards: Guards) -> None:
        """``yield ValidationError(f"…")``: an exception made here and handed to whoever
        iterates, which raises it (or collects it) elsewhere. Only a class certainly an
        exception (:meth:`certainly_exception`) is a site: generators yield many objects
        built from capitalised names that are not errors."""
        if not self.certainly_exception(call.func):
            return
        qualified, shown, templates, style = self._exception_parts(call, scope)
        notes = list(self.derived)
        self._add(stmt, "yield", scope, guards, shown, qualified, templates, style, None, notes)

    def _assert(self, stmt: ast.Assert, scope: Scope, guards: Guards) -> None:
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
            style_of(stmt.msg),
            None,
            [],
        )

    def _add(
        self,
        stmt: ast.stmt,
        kind: SiteKind,
        scope: Scope,
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
        written = tuple(write_guard(g, self.expr_text, self.lines) for g in guards)
        seen: set[MessageTemplate] = set()
        folded = fold_optional(templates)
        if len(folded) < len(set(templates)):
            notes = [*notes, *optional_notes(folded)]
        distinct = len(folded)
        for template in folded:
            if template in seen:
                continue
            seen.add(template)
            template = narrowed(template, guards, stmt.lineno)
            filled, read = filled_notes(template, scope.class_name, self._method_named)
            self.sites.append(
                ErrorSite(
                    file_path=self.file_path,
                    line=stmt.lineno,
                    end_line=stmt.end_lineno or stmt.lineno,
                    kind=kind,
                    template=template,
                    error_class=shown,
                    qualified_class=qualified,
                    printed_class=self.printed_class(qualified),
                    qualname=qualname,
                    function=scope.function,
                    style=style,
                    error_type="console" if is_warning else "exception",
                    severity=severity,
                    guards=written,
                    cause=cause,
                    notes=[
                        *notes,
                        *([f"one of {distinct} alternative messages"] if distinct > 1 else []),
                        *filled,
                        *([] if read else filter(None, [irreducible(template, notes)])),
                    ],
                )
            )

    def _method_named(self, class_name: str, name: str) -> tuple[ast.FunctionDef, str] | None:
        """The method ``name`` of the module's class ``class_name``, and the class of the
        module that defines it (for :mod:`.filled`)."""
        seen: set[str] = set()
        while class_name not in seen:
            seen.add(class_name)
            found = self.methods.get((class_name, name))
            if found is not None:
                return (found, class_name) if isinstance(found, ast.FunctionDef) else None
            node = self.classes.get(class_name)
            bases = [b.id for b in node.bases if isinstance(b, ast.Name)] if node else []
            if len(bases) != 1 or bases[0] not in self.classes:
                return None  # a base from elsewhere, or several: the MRO is not read here
            class_name = bases[0]
        return None


_DISPATCH = ModuleExtractor._make_dispatch()


# ``warn`` catches ``warn(``, ``warnings.warn(`` and aliases like ``_warn(``.
_KEYWORDS = ("raise", "warn", "assert", "yield")


def _keyword_lines(source: str) -> list[int]:
    """Sorted line numbers where raise/warn/assert/yield end a word (in code, strings or
    comments): what ``re`` finds for ``raise\\b|warn\\b|…``, found by ``str.find``,
    about half the time of the regex over a whole file."""
    found: list[int] = []
    end = len(source)
    for word in _KEYWORDS:
        at = source.find(word)
        while at >= 0:
            after = at + len(word)
            if after == end or not (source[after].isalnum() or source[after] == "_"):
                found.append(at)  # ``\\b``: no word character follows
            at = source.find(word, after)
    found.sort()  # the words cannot overlap: each position is one match of the regex
    lines: list[int] = []
    line = 1
    pos = 0
    for at in found:
        line += source.count("\n", pos, at)
        pos = at
        if not lines or lines[-1] != line:
            lines.append(line)
    return lines


def optional_notes(templates: Sequence[MessageTemplate]) -> list[str]:
    """What a fold of alternatives (:func:`~errdex.template.fold_optional`) made optional."""
    return [
        f"the part in brackets of `{t.display}` is printed on some ways only"
        " (two alternative messages read as one)"
        for t in templates
        if t.has_optional
    ]


def _severity_for(shown: str | None) -> Severity:
    if shown in _CRITICAL:
        return "critical"
    if shown in _INFO:
        return "info"
    if shown in _BUILTIN_WARNINGS or (shown or "").endswith("Warning"):
        return "warning"
    return "error"
