"""Sites at the calls of a helper that raises the class its caller names.

CPython's ``_pydecimal`` raises every arithmetic error through one method::

    def _raise_error(self, condition, explanation=None, *args):
        error = _condition_map.get(condition, condition)
        ...
        raise error(explanation)

called a hundred times as ``context._raise_error(InvalidOperation, 'sqrt(-x), x > 0')``.
The raise's line names neither class nor text: each call decides both, and its own
conditions (``if self._sign:``) are what fired. So each call whose class and message it
settles becomes a site of its own, at the call's line, with the caller's guards; the
record says which line raises (``raisedAt``: the traceback's innermost frame is the
helper's raise, the next frame out is the call).

Read so only when exact: the class is a parameter of the helper, bound once to a local
straight from it or through ``.get(param, param)`` / ``[param]`` of a module-level dict
of classes that nothing rebinds or changes (the lookup is applied to the class the call
passes); the call is in the helper's module, by name (a module function), on ``self`` in
its class, or on any receiver for a private method name that one class of the module alone
defines; every parameter the raise reads is text the call site settles
(:meth:`~.callers.CallerReader._text_of`). A raise whose class is the parameter itself is
left to :mod:`.passed` (one site per class at the raise). The raise's own site stays as
today unless every call of the helper became a site and the helper is private.
"""

from __future__ import annotations

import ast
import re
from bisect import bisect_left
from dataclasses import dataclass

from errdex.template import MessageTemplate

from .callers import Function, Part, _parameters
from .messages import MAX_ALTERNATIVES
from .passed import PassedClassReader, _passed, _substituted
from .scope import Fixed, Scope
from .subtree import walk, walked

__all__ = ["CallerSitesReader", "Planned"]

#: Calls of one helper read this way, at most (each a site of its own).
MAX_CALLS = 400
#: ``raise name(`` of a lower-case name: the only raises read here (a cheap first look).
#: The statements the walk reads calls in (``ModuleExtractor._calls_stmt``).
_WALKED = (ast.Return, ast.Expr, ast.Assign, ast.AnnAssign, ast.AugAssign)
#: ``NAME = {`` at a line's start: a module-level dict literal may be bound there.
_MODULE_DICT = re.compile(r"^[A-Za-z_]\w*[ \t]*=[ \t]*\{", re.MULTILINE)
_RAISE_NAME = re.compile(r"[ \t]*raise[ \t]+([a-z_]\w*)\(")


@dataclass(frozen=True, slots=True)
class Planned:
    """What one call of a raising helper raises, read at plan time."""

    call: ast.Call
    parts: list[Part]
    #: The helper's raise line (the traceback's innermost frame).
    raised_at: int


class CallerSitesReader(PassedClassReader):
    """Plans the caller sites of a module's class-passing helpers before the walk."""

    #: id(call) -> what it raises; the calls' lines, sorted, for the walk's cheap check.
    _planned: dict[int, Planned] | None = None
    _planned_lines: list[int] | None = None
    #: id(raise) of helper raises whose every call became a site (no site of their own).
    _replaced: set[int] | None = None
    #: The module's dicts of classes (:func:`_class_maps`), read at the first lookup.
    _maps: dict[str, ast.Dict] | None = None

    def plan_caller_sites(self, tree: ast.Module, keyword_lines: list[int]) -> None:
        """Read every class-passing helper's calls (see the module's doc); only lines of
        ``keyword_lines`` (sorted: those saying ``raise``) are looked at first."""
        self._planned, self._planned_lines, self._replaced = {}, [], set()
        self._maps = None
        text = self.lines
        raising = [(n, m.group(1)) for n in keyword_lines if (m := _RAISE_NAME.match(text[n - 1]))]
        if not raising:
            return
        source = self.source
        # a first look: the name may be assigned somewhere (``name =``, ``name=``)
        bound = {n: f"{n} =" in source or f"{n}=" in source for n in {n for _, n in raising}}
        lines = [n for n, name in raising if bound[name]]
        if not lines:
            return  # no raise of a local name bound in the module: nothing to read
        for fn, owner in self._all_functions():
            first = bisect_left(lines, fn.lineno)
            if first == len(lines) or lines[first] > (fn.end_lineno or fn.lineno):
                continue  # no such raise in it
            for stmt in _raises_in(fn):
                found = self._class_lookup(fn, stmt)
                if found is not None:
                    self._plan_raise(fn, owner, stmt, *found)
        self._planned_lines = sorted({p.call.lineno for p in self._planned.values()})

    def caller_calls(self, stmt: ast.stmt) -> list[Planned]:
        """The planned calls inside ``stmt`` (a return, expression or assignment)."""
        lines = self._planned_lines
        if not lines or self._planned is None:
            return []
        first = bisect_left(lines, stmt.lineno)
        if first == len(lines) or lines[first] > (stmt.end_lineno or stmt.lineno):
            return []
        planned = self._planned
        return [planned[id(n)] for n in walk(stmt) if id(n) in planned]

    def replaced(self, stmt: ast.Raise) -> bool:
        """Whether every call of the helper raising at ``stmt`` is a site of its own."""
        return self._replaced is not None and id(stmt) in self._replaced

    # -- the helper ---------------------------------------------------------------------

    def _all_functions(self) -> list[tuple[Function, str | None]]:
        out: list[tuple[Function, str | None]] = [(f, None) for f in self.functions.values()]
        out.extend((f, cls) for (cls, _), f in self.methods.items())
        return [(f, c) for f, c in out if isinstance(f, (ast.FunctionDef, ast.AsyncFunctionDef))]

    def _class_lookup(
        self, fn: Function, stmt: ast.Raise
    ) -> tuple[str, str, dict[str, ast.expr] | None, bool] | None:
        """(the local called, the parameter it comes from, the dict it is looked up in
        as ``{qualified key: value}``, whether a class not a key stays itself)."""
        exc = stmt.exc
        if not (isinstance(exc, ast.Call) and isinstance(exc.func, ast.Name)):
            return None
        local, params = exc.func.id, _parameters(fn)
        if local in params:
            return None  # the parameter itself: :mod:`.passed` reads it
        values = _single_assignment(fn, local)
        if values is None:
            return None
        param: str | None = None
        table: dict[str, ast.expr] | None = None
        fallback = False
        if isinstance(values, ast.Name):
            param = values.id
        elif (
            isinstance(values, ast.Call)
            and isinstance(values.func, ast.Attribute)
            and values.func.attr == "get"
            and isinstance(values.func.value, ast.Name)
            and values.func.value.id in self._module_maps()
            and len(values.args) == 2
            and not values.keywords
            and all(isinstance(a, ast.Name) for a in values.args)
            and ast.unparse(values.args[0]) == ast.unparse(values.args[1])
        ):
            param, fallback = values.args[0].id, True  # type: ignore[attr-defined]
            table = self._table(self._module_maps()[values.func.value.id])
        elif (
            isinstance(values, ast.Subscript)
            and isinstance(values.value, ast.Name)
            and values.value.id in self._module_maps()
            and isinstance(values.slice, ast.Name)
        ):
            param = values.slice.id
            table = self._table(self._module_maps()[values.value.id])
        if param is None or param not in params or self._reassigned(fn, param):
            return None
        if table is None and not isinstance(values, ast.Name):
            return None
        return local, param, table, fallback

    def _module_maps(self) -> dict[str, ast.Dict]:
        """The module's dicts a class lookup may read (:func:`_class_maps`), found once."""
        if self._maps is None:
            tree = self._tree
            found = tree is not None and _MODULE_DICT.search(self.source) is not None
            self._maps = _class_maps(tree) if found and tree is not None else {}
        return self._maps

    def _table(self, node: ast.Dict) -> dict[str, ast.expr] | None:
        """``{qualified key: value}`` of a dict whose keys and values are classes."""
        out: dict[str, ast.expr] = {}
        empty = Scope("", None, None, {})
        for key, value in zip(node.keys, node.values, strict=True):
            if key is None or not self._is_class_expr(key, empty):
                return None
            if not self._is_class_expr(value, empty):
                return None
            out[self.qualify(key)] = value
        return out

    # -- the calls ----------------------------------------------------------------------

    def _plan_raise(
        self,
        fn: Function,
        owner: str | None,
        stmt: ast.Raise,
        local: str,
        param: str,
        table: dict[str, ast.expr] | None,
        fallback: bool,
    ) -> None:
        assert self._planned is not None and self._replaced is not None
        key = self._key(fn)
        if key is None:
            return
        method = key.startswith(".")
        calls = self._helper_calls(fn, owner, method)
        if not calls or len(calls) > MAX_CALLS:
            return
        exc = stmt.exc
        assert isinstance(exc, ast.Call)
        named = {n.id for n in walk(exc) if isinstance(n, ast.Name)} - {local}
        every = _parameters(fn)[1:] if method else _parameters(fn)
        texts = [p for p in every if p in named]
        if any(self._reassigned(fn, p) for p in texts):
            return
        helper = f"{owner}.{fn.name}" if owner else fn.name
        scope = Scope(helper, fn.name, owner, {}, set(), fn)
        empty = Scope("", None, None, {})
        settled = 0
        walked = self._walked_calls({c.lineno for c, _ in calls})
        for call, within in calls:
            if id(call) not in walked:
                continue  # in an ``if`` test, a decorator…: the walk does not stop there
            arg, _ = _passed(fn, call, param, method=method)
            if arg is None or not self._is_class_expr(arg, empty):
                continue
            cls: ast.expr | None = arg
            if table is not None:
                cls = table.get(self.qualify(arg), arg if fallback else None)
            if cls is None:
                continue
            binding: dict[str, MessageTemplate] = {}
            for p in texts:
                given, default = _passed(fn, call, p, method=method)
                found = (
                    None if given is None else self._text_of(given, None if default else within, 0)
                )
                if found is None or len(found) != 1 or found[0].is_opaque:
                    break
                binding[p] = found[0]
            if len(binding) != len(texts):
                continue
            bound = Scope(
                scope.qualname,
                scope.function,
                scope.class_name,
                {k: (Fixed(v),) for k, v in binding.items()},
                set(),
                fn,
            )
            raised = _substituted(exc, local, cls)
            parts = [p for p in self._raised_parts(raised, bound) if p[1] is not None]
            if not parts or any(len(p[2]) > MAX_ALTERNATIVES for p in parts):
                continue
            passed = ast.unparse(arg)
            note = (
                f"raised by `{helper}` at line {stmt.lineno} (`{ast.unparse(exc)}`), with the"
                f" class and message this call passes (`{passed}`"
                + (f", mapped to `{ast.unparse(cls)}`" if cls is not arg else "")
                + ")"
            )
            self._planned[id(call)] = Planned(
                call, [(s, q, t, st, [*n, note]) for s, q, t, st, n in parts], stmt.lineno
            )
            settled += 1
        if settled == len(calls) and settled and not _is_public_name(fn.name):
            self._replaced.add(id(stmt))

    def _walked_calls(self, lines: set[int]) -> set[int]:
        """id() of the calls on ``lines`` inside a statement the walk stops at for them
        (a return, an expression, an assignment: ``ModuleExtractor._calls_stmt``)."""
        out: set[int] = set()
        todo: list[ast.stmt] = list(self._tree.body) if self._tree is not None else []
        ordered = sorted(lines)
        while todo:
            stmt = todo.pop()
            first = bisect_left(ordered, stmt.lineno)  # a line of ``lines`` in the statement?
            if first == len(ordered) or ordered[first] > (stmt.end_lineno or stmt.lineno):
                continue
            if isinstance(stmt, _WALKED):
                out.update(id(n) for n in walk(stmt) if isinstance(n, ast.Call))
                continue
            for name in ("body", "orelse", "finalbody"):
                todo.extend(getattr(stmt, name, None) or ())
            for handler in getattr(stmt, "handlers", None) or ():
                todo.extend(handler.body)
            for case in getattr(stmt, "cases", None) or ():
                todo.extend(case.body)
        return out

    def _helper_calls(
        self, fn: Function, owner: str | None, method: bool
    ) -> list[tuple[ast.Call, Function | None]]:
        """The calls of ``fn`` in this module: resolved ones (:mod:`.passed`) and, for a
        private method name one class alone defines, every ``x.name(…)``."""
        found = [(call, within) for reader, call, within in self._callers(fn) if reader is self]
        if method and owner is not None and self._sole_private_method(fn):
            seen = {id(c) for c, _ in found}
            needle = f".{fn.name}("
            lines = self.lines_with(needle)
            if self._tree is not None and lines:
                for call, within in self._calls_on(lines):
                    func = call.func
                    if (
                        isinstance(func, ast.Attribute)
                        and func.attr == fn.name
                        and id(call) not in seen
                    ):
                        found.append((call, within))
        return found

    def _sole_private_method(self, fn: Function) -> bool:
        """Whether ``fn`` is a private method whose name no other class or function of
        the module defines (then any ``x.name(…)`` here calls it)."""
        if _is_public_name(fn.name) or fn.name in self.functions:
            return False
        return sum(1 for (_, name) in self.methods if name == fn.name) == 1


def _is_public_name(name: str) -> bool:
    return not name.startswith("_") or name.startswith("__")


def _raises_in(fn: Function) -> list[ast.Raise]:
    """The raises of ``fn``'s own body (not of functions nested in it)."""
    out: list[ast.Raise] = []
    todo: list[ast.AST] = list(fn.body)
    while todo:
        node = todo.pop()
        if isinstance(node, (ast.FunctionDef, ast.AsyncFunctionDef, ast.Lambda, ast.ClassDef)):
            continue
        if isinstance(node, ast.Raise):
            out.append(node)
        todo.extend(ast.iter_child_nodes(node))
    return out


def _single_assignment(fn: Function, name: str) -> ast.expr | None:
    """The value of the one ``name = value`` of ``fn`` when ``name`` is bound nowhere
    else in it."""
    stores = [
        n
        for n in walked(fn)
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))
    ]
    if len(stores) != 1:
        return None
    for node in walked(fn):
        if isinstance(node, ast.Assign) and len(node.targets) == 1 and node.targets[0] is stores[0]:
            return node.value
    return None


def _class_maps(tree: ast.Module) -> dict[str, ast.Dict]:
    """Module-level ``NAME = {…}`` dict literals bound once and never changed: no
    ``NAME[k] = …``, ``del NAME[k]``, method call on it other than ``get``, or ``global``."""
    bound: dict[str, list[ast.Dict | None]] = {}
    for stmt in tree.body:
        if isinstance(stmt, ast.Assign) and len(stmt.targets) == 1:
            target = stmt.targets[0]
            if isinstance(target, ast.Name):
                value = stmt.value if isinstance(stmt.value, ast.Dict) else None
                bound.setdefault(target.id, []).append(value)
    maps = {k: v[0] for k, v in bound.items() if len(v) == 1 and v[0] is not None}
    if not maps:
        return {}
    for node in walk(tree):
        if isinstance(node, ast.Global):
            for name in node.names:
                maps.pop(name, None)
        elif isinstance(node, ast.Subscript) and not isinstance(node.ctx, ast.Load):
            if isinstance(node.value, ast.Name):
                maps.pop(node.value.id, None)
        elif (
            isinstance(node, ast.Attribute)
            and isinstance(node.value, ast.Name)
            and node.value.id in maps
            and node.attr != "get"
        ):
            maps.pop(node.value.id, None)
        elif (
            isinstance(node, ast.Name)
            and isinstance(node.ctx, ast.Store)
            and node.id in maps
            and not _top_level_store(tree, node)
        ):
            maps.pop(node.id, None)
    return maps


def _top_level_store(tree: ast.Module, node: ast.Name) -> bool:
    return any(isinstance(stmt, ast.Assign) and node in stmt.targets for stmt in tree.body)
