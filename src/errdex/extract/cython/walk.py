"""The walk over Cython's statement tree: each raise, warn and assert, with its scope.

Cython's parser finds the statements (``def``/``cdef``/``cpdef`` functions, ``cdef
class``es, ``with nogil``, ``for … from``); each site's own statement is handed to the
Python extractor's handlers as a Python ``ast`` node placed at its line (see
:mod:`.snippet`), so classes, message templates and their styles are read exactly as
for a ``.py`` file. Guards are written here from the Cython clauses on the way.
"""

from __future__ import annotations

import ast
from collections.abc import Callable, Iterator
from typing import Any

from errdex.extract.python.guards import negate, write_guard
from errdex.extract.python.messages import Templates
from errdex.extract.python.scope import LAZY, Env, NeedEnv, Scope, bind_assignment, merge_envs
from errdex.extract.python.walk import ModuleExtractor
from errdex.extract.site import Guard, SiteKind
from errdex.template import MessageTemplate

from .capi import C_API_SETTERS, c_api_class, c_api_template
from .comma_raise import as_call_raise
from .module import cython_name, def_name, index_module, start_of
from .returns import builtin_rooted, returned_exceptions
from .snippet import logical_text, parse_at, parse_expr_at

__all__ = ["CythonExtractor"]

#: A Cython clause not yet written out: (kind, Cython node, line).
Pending = tuple[str, Any, int]
_WARN_ATTRS = frozenset({"warn", "warn_explicit"})
_ASSIGNMENTS = frozenset(
    {"SingleAssignmentNode", "InPlaceAssignmentNode", "CascadedAssignmentNode", "CVarDefNode"}
)
_STRING_NODES = frozenset({"UnicodeNode", "StringNode", "BytesNode"})


def _children(node: Any) -> list[Any]:
    out: list[Any] = []
    for attr in node.child_attrs:
        value = getattr(node, attr, None)
        if isinstance(value, list):
            out.extend(v for v in value if v is not None and hasattr(v, "child_attrs"))
        elif value is not None and hasattr(value, "child_attrs"):
            out.append(value)
    return out


class CythonExtractor(ModuleExtractor):
    """Walks one Cython module's statements; the Python reader resolves each site."""

    def __init__(
        self,
        source: str,
        file_path: str,
        module: str,
        lines: list[str],
        line_notes: Callable[[int], tuple[list[str], int | None]] | None = None,
    ) -> None:
        super().__init__(source, file_path, module, {})
        self._lines = lines
        self._line_notes = line_notes
        self._pending: tuple[Pending, ...] = ()
        self._written: dict[tuple[int, str], Guard] = {}
        #: While replaying a function's assignments: the bindings at each site node.
        self._tracking: dict[int, Env] | None = None
        self._replays: dict[int, dict[int, Env]] = {}
        #: A Python class statement's bases by name, None for a dotted one (.module).
        self.python_bases: dict[str, list[str | None]] = {}

    def _plain_parts(
        self, qualified: str, shown: str, call: ast.Call | None, helper_scope: Scope
    ) -> tuple[str, str, Templates, str]:
        """As for Python, plus, for several arguments to a class of another module (or of
        this one derived from one, lxml's ``XPathSyntaxError(LxmlSyntaxError, …)``; or one
        this file does not define, which an including ``.pyx`` does), the
        arguments apart as an alternative: a Cython module raises the classes of its
        Python siblings, which often print their arguments their own way (PyYAML's
        ``MarkedYAMLError``: context, mark, problem, mark, one per line, no ``None``).
        When no argument's text is known (texts a C library gives), the alternative is
        the one value the class prints, so the site stands among those raising the class
        with any message."""
        parts = super()._plain_parts(qualified, shown, call, helper_scope)
        own = qualified == f"builtins.{shown}" or (
            qualified == f"{self.module}.{shown}"
            and shown in self.python_bases  # not a name an include defines
            and builtin_rooted(shown, self.python_bases)
        )
        if parts[3] != "multiple_args" or own or call is None:
            return parts
        pieces = [
            self.templates(a, helper_scope)[0]
            for a in call.args
            if not (isinstance(a, ast.Constant) and a.value is None)
        ]
        apart = MessageTemplate()
        for piece in pieces:
            if apart.parts:  # two arguments: the class prints something between them
                apart += MessageTemplate.hole("{…}")
            apart += piece
        if all(p.is_opaque for p in pieces):
            # nothing of the text is known: the message is one value, the class's own
            # rendering of these arguments (as the Python reader shows such a raise)
            apart = MessageTemplate.expression(self.expr_text(call))
        if apart in parts[2]:
            return parts
        return parts[0], parts[1], [*parts[2], apart], parts[3]

    def _resolve_raised(
        self, exc: ast.expr, scope: Scope, depth: int = 0
    ) -> Iterator[tuple[ast.expr | None, str, list[str]]]:
        """As for Python, but a helper of the module that returns one of several
        exceptions gives each of them (see :mod:`.returns`)."""
        if isinstance(exc, ast.Call) and not self._is_class_expr(exc.func, scope):
            target, _ = self._helper_def(exc.func, scope)
            returned = (
                returned_exceptions(target.body, scope, self._is_class_expr) if target else []
            )
            if len(returned) > 1:
                note = (
                    f"built by helper {self.expr_text(exc.func)}, which returns one of "
                    f"{len(returned)} exceptions"
                )
                for value in returned:
                    yield value, "helper_call", [note]
                return
        yield from super()._resolve_raised(exc, scope, depth)

    def _helper_def(
        self, func: ast.expr, scope: Scope
    ) -> tuple[ast.FunctionDef | ast.AsyncFunctionDef | None, str | None]:
        """As for Python, and a method a ``cdef class``'s base of this module defines
        (``raise self._build_parse_error()`` in lxml's ``XPath(_XPathEvaluatorBase)``)."""
        found, owner = super()._helper_def(func, scope)
        if found is None and owner is not None and isinstance(func, ast.Attribute):
            inherited = self._method_named(owner, func.attr)
            if inherited is not None:
                return inherited
        return found, owner

    def run_cython(self, tree: Any, *, package_init: bool = False) -> list[Any]:
        package = self.module if package_init else self.module.rpartition(".")[0]
        index_module(self, tree, package)
        self._stat(tree.body, Scope("", None, None, self.module_env), ())
        return self.sites

    # -- statements ---------------------------------------------------------------------

    def _stat(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        if node is None:
            return
        handler = _DISPATCH.get(type(node).__name__)
        if handler is not None:
            handler(self, node, scope, guards)
            return
        for child in _children(node):  # any other statement: look inside its statements
            if _is_statement(child):
                self._stat(child, scope, guards)

    def _stat_list(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        for stat in node.stats:
            self._stat(stat, scope, guards)

    def _if(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        before = scope.env
        paths: list[Env] = []
        chain = guards
        for k, clause in enumerate(node.if_clauses):
            if before is not LAZY:
                scope.env = dict(before)
            kind = "if" if k == 0 else "elif"
            self._stat(clause.body, scope, (*chain, (kind, clause, clause.pos[1])))
            paths.append(scope.env)
            chain = (*chain, ("else", clause, clause.pos[1]))
        if node.else_clause is not None:
            if before is not LAZY:
                scope.env = dict(before)
            last = node.if_clauses[-1]
            else_line = node.else_clause.pos[1]
            self._stat(node.else_clause, scope, (*chain[:-1], ("else", last, else_line)))
            paths.append(scope.env)
        else:
            paths.append(before)
        if before is not LAZY:
            merged = paths[0]
            for path in paths[1:]:
                merged = merged if merged == path else merge_envs(merged, path)
            scope.env = merged

    def _for(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        self._stat(node.body, scope, (*guards, ("for", node, node.pos[1])))
        self._stat(getattr(node, "else_clause", None), scope, guards)

    def _while(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        self._stat(node.body, scope, (*guards, ("while", node, node.pos[1])))
        if node.else_clause is not None:
            self._stat(node.else_clause, scope, (*guards, ("while-else", node, node.pos[1])))

    def _try(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        self._stat(node.body, scope, guards)
        for clause in node.except_clauses:
            if clause.target is not None and type(clause.target).__name__ == "NameNode":
                scope.caught.add(cython_name(clause.target.name))
            self._stat(clause.body, scope, (*guards, ("except", clause, clause.pos[1])))
        self._stat(node.else_clause, scope, guards)

    def _try_finally(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        self._stat(node.body, scope, guards)
        self._stat(node.finally_clause, scope, guards)

    def _function(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        name = def_name(node)
        if name is None or self._tracking is not None:
            return
        inner = Scope(
            qualname=self._child_prefix(scope) + name,
            function=name,
            class_name=None if scope.function else scope.class_name,
            env=LAZY,
            node=node,
        )
        self._stat(node.body, inner, ())

    def _class(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        name = def_name(node)
        if name is None or self._tracking is not None:
            return
        is_property = type(node).__name__ == "PropertyNode"
        inner = Scope(
            qualname=self._child_prefix(scope) + name,
            function=None,
            class_name=scope.class_name if is_property else name,
            env={},
        )
        self._stat(node.body, inner, ())

    def _local_import(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        """``from warnings import warn`` inside a function: later calls resolve through it."""
        base = cython_name(node.module.module_name)
        if getattr(node.module, "level", 0):
            return
        for name, target in node.items:
            local = cython_name(getattr(target, "name", name))
            self.imports.setdefault(local, f"{base}.{cython_name(name)}")

    def _assignment(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        if scope.env is LAZY:
            return
        stmt: ast.stmt | None
        if type(node).__name__ == "CVarDefNode":
            stmt = self._cdef_assignment(node)
        else:
            stmt = parse_at(self.lines, *start_of(node, self.lines))
        if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
            bind_assignment(stmt, scope)

    def _cdef_assignment(self, node: Any) -> ast.stmt | None:
        """``cdef str msg = "…"``: the value after ``=`` bound to the declared name."""
        if len(node.declarators) != 1 or getattr(node.declarators[0], "default", None) is None:
            return None
        name = cython_name(getattr(node.declarators[0], "name", ""))
        line, col = node.pos[1], node.pos[2]
        text, _ = logical_text(self.lines, line, col)
        head, eq, _ = text.partition("=")
        if not eq or not name or "\n" in head:
            return None
        value = parse_expr_at(self.lines, line, col + len(head) + 1, "")
        if value is None:
            return None
        target = ast.Name(name, ast.Store(), lineno=line, col_offset=col)
        return ast.Assign([target], value, lineno=line, col_offset=col)

    # -- sites --------------------------------------------------------------------------

    def _raise_node(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        if node.exc_type is None:
            return  # bare ``raise``
        self._cy_site(node, (node.pos[1], node.pos[2]), scope, guards, self._raise_or_fallback)

    def _assert_node(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        if node.value is None:
            return
        self._cy_site(node, (node.pos[1], node.pos[2]), scope, guards, self._assert_any)

    def _expr_node(self, node: Any, scope: Scope, guards: tuple[Pending, ...]) -> None:
        call = node.expr
        if type(call).__name__ != "SimpleCallNode" and type(call).__name__ != "GeneralCallNode":
            return
        func = call.function
        kind = type(func).__name__
        if kind == "NameNode" and cython_name(func.name) in C_API_SETTERS:
            self._cy_site(node, start_of(node, self.lines), scope, guards, self._c_api_any)
            return
        if not (
            (kind == "AttributeNode" and cython_name(func.attribute) in _WARN_ATTRS)
            or (kind == "NameNode" and cython_name(func.name) in self.imports)
        ):
            return
        self._cy_site(node, start_of(node, self.lines), scope, guards, self._warn_any)

    def _cy_site(
        self,
        node: Any,
        at: tuple[int, int],
        scope: Scope,
        guards: tuple[Pending, ...],
        handler: Callable[[Any, ast.stmt | None, Scope], None],
    ) -> None:
        if self._tracking is not None:
            self._tracking[id(node)] = dict(scope.env)
            return
        stmt = parse_at(self.lines, *at)
        self._pending = guards
        mark = len(self.sites)
        try:
            handler(node, stmt, scope)
        except NeedEnv:
            del self.sites[mark:]
            env = self._env_of(scope, node)
            handler(
                node,
                stmt,
                Scope(
                    scope.qualname, scope.function, scope.class_name, env, scope.caught, scope.node
                ),
            )

    def _env_of(self, scope: Scope, node: Any) -> Env:
        """The function's bindings reaching ``node``, from one tracked walk per function."""
        function = scope.node
        if function is None:
            return {}
        key = id(function)
        if key not in self._replays:
            self._tracking = {}
            try:
                tracked = Scope(scope.qualname, scope.function, scope.class_name, {}, set())
                self._stat(function.body, tracked, ())
                self._replays[key] = self._tracking
            finally:
                self._tracking = None
        return self._replays[key].get(id(node), {})

    def _raise_or_fallback(self, node: Any, stmt: ast.stmt | None, scope: Scope) -> None:
        if not isinstance(stmt, ast.Raise):
            stmt = as_call_raise(self.lines, node)  # ``raise E, V`` is ``raise E(V)``
        if isinstance(stmt, ast.Raise):
            self._raise(stmt, scope, ())
            return
        # Not Python even with casts blanked (``raise E, "msg"``): read Cython's nodes.
        line = node.pos[1]
        text, span = logical_text(self.lines, line, node.pos[2])
        placed = ast.Raise(exc=None, lineno=line, end_lineno=line + span - 1)
        exc = node.exc_type
        call_args: list[Any] = []
        if type(exc).__name__ in ("SimpleCallNode", "GeneralCallNode"):
            call_args = list(getattr(exc, "args", None) or [])
            exc = exc.function
        message = node.exc_value if node.exc_value is not None else (call_args or [None])[0]
        dotted = _dotted(exc)
        qualified = self.qualify(ast.parse(dotted, mode="eval").body) if dotted else None
        if message is None:
            template = MessageTemplate()
        elif type(message).__name__ in _STRING_NODES:
            template = MessageTemplate.literal(_string_value(message))
        else:
            template = MessageTemplate.expression(" ".join(text.split()[2:]) or text)
        shown = qualified.rpartition(".")[2] if qualified else None
        self._add(
            placed,
            "raise",
            scope,
            (),
            shown,
            qualified,
            [template],
            "cython_syntax",
            None,
            ["read from Cython's tree: the statement is not Python syntax"],
        )

    def _assert_any(self, node: Any, stmt: ast.stmt | None, scope: Scope) -> None:
        if isinstance(stmt, ast.Assert):
            self._assert(stmt, scope, ())

    def _warn_any(self, node: Any, stmt: ast.stmt | None, scope: Scope) -> None:
        if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
            self._maybe_warn(stmt.value, stmt, scope, ())

    def _c_api_any(self, node: Any, stmt: ast.stmt | None, scope: Scope) -> None:
        """``PyErr_Format(TypeError, b"…", …)``: the error the C API sets at this line."""
        if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
            return
        call = stmt.value
        if not isinstance(call.func, ast.Name):
            return
        kind, at, is_format = C_API_SETTERS[call.func.id]
        if len(call.args) <= at:
            return
        qualified, shown = c_api_class(call.args[0], self.qualify)
        template = c_api_template(call.args[at], is_format)
        style = "c_api_format" if is_format else "c_api"
        templates = [template] if template is not None else self.templates(call.args[at], scope)
        note = f"set through the C API ({call.func.id}); the error surfaces at this line"
        self._add(stmt, kind, scope, (), shown, qualified, templates, style, None, [note])

    def _add(
        self,
        stmt: ast.stmt,
        kind: SiteKind,
        scope: Scope,
        guards: Any,
        shown: str | None,
        qualified: str | None,
        templates: Templates,
        style: str,
        cause: str | None,
        notes: list[str],
    ) -> None:
        """The Python extractor's site, with the Cython clauses as its guards."""
        mark = len(self.sites)
        super()._add(stmt, kind, scope, (), shown, qualified, templates, style, cause, notes)
        written = tuple(self._write(p) for p in self._pending)
        fired = tuple(write_guard(g, self.expr_text, self.lines) for g in guards)
        extra, written_at = self._line_notes(stmt.lineno) if self._line_notes else ([], None)
        for site in self.sites[mark:]:
            site.guards = (*written, *fired)
            site.language = "cython"
            site.notes.extend(extra)
            site.source_line = written_at

    # -- guards -------------------------------------------------------------------------

    def _write(self, pending: Pending) -> Guard:
        kind, node, line = pending
        key = (id(node), kind)
        guard = self._written.get(key)
        if guard is None:
            guard = self._written[key] = self._write_new(kind, node, line)
        return guard

    def _condition(self, line: int, col: int) -> tuple[str, str]:
        """A clause's condition as written, and its negation."""
        test = parse_expr_at(self.lines, line, col, ":")
        if test is not None:
            text = self.expr_text(test)
            return text, negate(test, text, self.expr_text)
        raw = " ".join(logical_text(self.lines, line, col, ":")[0].split())
        return raw, f"not ({raw})"

    def _write_new(self, kind: str, node: Any, line: int) -> Guard:
        pos_line, col = node.pos[1], node.pos[2]
        if kind in ("if", "elif"):
            return Guard(kind, self._condition(pos_line, col)[0], line)
        if kind == "else":
            return Guard("else", self._condition(pos_line, col)[1], line)
        header = " ".join(logical_text(self.lines, pos_line, col, ":")[0].split())
        if kind == "for":
            return Guard("for", header, line)
        if kind in ("while", "while-else"):
            keyword_end = self.lines[pos_line - 1].index("while", col) + len("while")
            text, negation = self._condition(pos_line, keyword_end)
            return Guard(kind, text if kind == "while" else negation, line)
        caught = header.removeprefix("except").strip()
        name = cython_name(node.target.name) if node.target is not None else ""
        if name and caught.endswith(name):
            caught = caught[: -len(name)].rstrip().removesuffix(" as").rstrip(" ,")
        return Guard(
            "except",
            f"{caught or 'BaseException'} was raised" + (f" (as {name})" if name else ""),
            line,
        )


def _is_statement(node: Any) -> bool:
    from Cython.Compiler.Nodes import StatNode

    return isinstance(node, StatNode)


def _dotted(node: Any) -> str | None:
    kind = type(node).__name__
    if kind == "NameNode":
        return cython_name(node.name)
    if kind == "AttributeNode":
        head = _dotted(node.obj)
        return f"{head}.{cython_name(node.attribute)}" if head else None
    return None


def _string_value(node: Any) -> str:
    value = node.value
    if isinstance(value, bytes):
        return value.decode("utf-8", "replace")
    return str(value)


_DISPATCH: dict[str, Callable[[CythonExtractor, Any, Scope, tuple[Pending, ...]], None]] = {
    "StatListNode": CythonExtractor._stat_list,
    "IfStatNode": CythonExtractor._if,
    "ForInStatNode": CythonExtractor._for,
    "AsyncForStatNode": CythonExtractor._for,
    "ForFromStatNode": CythonExtractor._for,
    "WhileStatNode": CythonExtractor._while,
    "TryExceptStatNode": CythonExtractor._try,
    "TryFinallyStatNode": CythonExtractor._try_finally,
    "DefNode": CythonExtractor._function,
    "CFuncDefNode": CythonExtractor._function,
    "CClassDefNode": CythonExtractor._class,
    "PyClassDefNode": CythonExtractor._class,
    "PropertyNode": CythonExtractor._class,
    "RaiseStatNode": CythonExtractor._raise_node,
    "AssertStatNode": CythonExtractor._assert_node,
    "ExprStatNode": CythonExtractor._expr_node,
    "FromImportStatNode": CythonExtractor._local_import,
    **{name: CythonExtractor._assignment for name in _ASSIGNMENTS},
}
