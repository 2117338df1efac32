"""Messages a private helper was handed by its callers.

``def _fail_neg(values, errmsg='negative value'): … raise StatisticsError(errmsg)`` prints
what each caller passes (``harmonic_mean`` passes its local ``errmsg``, "harmonic mean does
not support negative values"); packaging's ``_get_sequence_of_objects(d, PackageWheel,
"wheels")`` wraps its errors in the context ``'wheels[0]'``. The raise's own line shows only
the parameter. For a module-level function whose name says it is private, the calls of it
in its module are its callers: each call's argument for a parameter the raise names, when
it is text the call site settles (a literal, a local assigned literals, or a parameter of
a private caller settled the same way, a few levels up), is bound to the parameter and the
raise is read again. The record stays at the helper's raise line (the traceback's
innermost frame is there, whoever called); the callers' messages are its alternatives, and
they replace the bare parameter only when every call was settled.
"""

from __future__ import annotations

import ast
from bisect import bisect_left, bisect_right
from collections.abc import Iterator
from dataclasses import replace

from errdex.template import MessageTemplate

from .exceptions import ExceptionReader
from .joined import Joined, list_joined
from .messages import MAX_ALTERNATIVES, Templates
from .params import parameter_names
from .scope import LAZY, Fixed, Scope
from .subtree import calls, walk, walked

__all__ = ["CallerReader", "Part"]

#: Levels of private callers passing the parameter on that are followed.
MAX_LEVELS = 3
#: Messages kept for one raise from its callers: each caller's text is its own fact (a
#: context ``'hashes'``, ``'name'``…), so more are kept than one expression's alternatives.
MAX_FROM_CALLERS = 2 * MAX_ALTERNATIVES
Function = ast.FunctionDef | ast.AsyncFunctionDef
Part = tuple[str | None, str | None, Templates, str, list[str]]
#: A statement read whole for calls, and the function its calls stand in.
Unit = tuple[ast.stmt, Function | None]


class CallerReader(ExceptionReader):
    """Finds the calls of the module's private functions and what they pass."""

    #: Per key (``name`` or ``.name``): the calls of it in the module.
    _calls: dict[str, list[tuple[ast.Call, Function | None]]] | None = None
    #: Per function (by id, kept with it): its key (:meth:`_key`), asked once per raise
    #: and per call read.
    _keys: dict[int, tuple[Function, str | None]] | None = None
    #: Per function (by id): the names it binds.
    _stored: dict[int, set[str]] | None = None
    _tree: ast.Module | None = None
    #: For the tree they were listed from: the statements :meth:`_calls_on` reads (one
    #: after another in the source), their first lines and their last lines.
    _units: tuple[ast.Module, list[Unit], list[int], list[int]] | None = None

    def _raised_parts(self, exc: ast.expr, scope: Scope) -> Iterator[Part]:
        """What a raise raises, read as the walk reads it (:mod:`.walk`)."""
        raise NotImplementedError

    # -- entry point ------------------------------------------------------------------

    def from_callers(
        self, stmt: ast.Raise, exc: ast.expr, scope: Scope, parts: list[Part]
    ) -> list[Part]:
        """``parts`` (what the raise shows) with the callers' messages added, or replacing
        them when every caller was settled; ``parts`` unchanged when nothing applies."""
        by_holder = self._classes_held(stmt, exc, scope)
        if by_holder is not None:
            return by_holder
        fn = self._helper_function(scope)
        if fn is None:
            return parts
        by_class = self._classes_passed(stmt, exc, scope, fn, parts)
        if by_class is not None:
            return by_class
        if not any(t.holes for part in parts for t in part[2]):
            return parts
        called = self._key(fn)
        if called is None or not self._calls_of(called):
            return parts
        named = {n.id for n in walk(exc) if isinstance(n, ast.Name)}
        params = [p for p in _parameters(fn) if p in named]
        if not params:
            return parts
        params = [p for p in params if not self._reassigned(fn, p)]
        settled: dict[str, Templates] = {}
        complete = True
        for param in params:
            found = self._settle(fn, param, 0)
            if found is None:
                complete = False
            else:
                settled[param] = found
        if not settled:
            return parts
        env = dict(self._env_at(scope, stmt)) if scope.env is LAZY else dict(scope.env)
        out: dict[tuple[str | None, str | None], Part] = {}
        count = 0
        for binding in _bindings(settled):
            bound = replace(scope, env={**env, **{k: (Fixed(v),) for k, v in binding.items()}})
            for shown, qualified, templates, style, notes in self._raised_parts(exc, bound):
                key = (shown, qualified)
                if key not in out:
                    out[key] = (shown, qualified, [], style, notes)
                held = out[key][2]
                held.extend(t for t in templates if t not in held)
                count = max(count, len(held))
        if count > MAX_FROM_CALLERS:
            return parts
        calls = len(self._calls_of(called))
        note = f"message filled in from the {calls} call(s) of `{fn.name}` in this module"
        if complete and not _is_public(fn):
            return [(s, q, t, st, [*n, note]) for s, q, t, st, n in out.values()]
        merged: list[Part] = []
        for shown, qualified, templates, style, notes in parts:
            extra = out.pop((shown, qualified), None)
            more = [t for t in (extra[2] if extra else []) if t not in templates]
            if len(templates) + len(more) > MAX_FROM_CALLERS:
                more = []
            merged.append(
                (shown, qualified, [*templates, *more], style, [*notes, note] if more else notes)
            )
        return merged

    def _classes_passed(
        self, stmt: ast.Raise, exc: ast.expr, scope: Scope, fn: Function, parts: list[Part]
    ) -> list[Part] | None:
        """What the raise raises when its class is a parameter of ``fn``, from the calls
        (:mod:`.passed`); None when its class is not a parameter."""
        return None

    def _classes_held(self, stmt: ast.Raise, exc: ast.expr, scope: Scope) -> list[Part] | None:
        """What the raise raises when its class is held by an attribute of ``self``
        (:mod:`.passed`); None when it is not."""
        return None

    # -- callers ----------------------------------------------------------------------

    def _helper_function(self, scope: Scope) -> Function | None:
        """The module function, or method called on ``self``, the raise stands in."""
        fn = scope.node
        if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)) or not isinstance(
            fn.args, ast.arguments
        ):
            return None  # Cython's ``cdef`` functions, read by the same walk, bind otherwise
        if scope.outer is not None or self._key(fn) is None:
            return None
        expected = f"{scope.class_name}.{fn.name}" if scope.class_name else fn.name
        return fn if scope.qualname == expected else None

    def _key(self, fn: Function) -> str | None:
        """``name`` for a module function (called ``name(...)``), ``.name`` for a method
        (called ``self.name(...)`` in the module's classes); None for anything else."""
        if self._keys is None:
            self._keys = {}
        known = self._keys.get(id(fn))
        if known is not None and known[0] is fn:
            return known[1]
        key: str | None = None
        if self.functions.get(fn.name) is fn:
            key = fn.name
        elif (
            _parameters(fn)[:1] == ["self"]
            and not fn.decorator_list
            and any(self.methods.get((c, fn.name)) is fn for c in self.classes)
        ):
            key = "." + fn.name
        self._keys[id(fn)] = (fn, key)  # the module's definitions are indexed: fixed
        return key

    def _reassigned(self, fn: Function, name: str) -> bool:
        """Whether ``fn`` binds ``name`` anywhere (then a parameter is not what was passed)."""
        if self._stored is None:
            self._stored = {}
        stored = self._stored.get(id(fn))
        if stored is None:
            stored = self._stored[id(fn)] = {
                n.id
                for n in walked(fn)
                if isinstance(n, ast.Name) and isinstance(n.ctx, (ast.Store, ast.Del))
            }
        return name in stored

    def _owner(self, fn: Function) -> str | None:
        return next((c for c in self.classes if self.methods.get((c, fn.name)) is fn), None)

    def _inherits(self, within: Function, owner: str | None) -> bool:
        """Whether ``within`` is a method of ``owner`` or of a class of the module that
        names it as a base."""
        mine = self._owner(within)
        if owner is None or mine is None:
            return False
        if mine == owner:
            return True
        bases = self.classes[mine].bases
        return any(isinstance(b, ast.Name) and b.id == owner for b in bases)

    def _calls_of(self, key: str) -> list[tuple[ast.Call, Function | None]]:
        """The calls ``name(...)`` (``self.name(...)`` for a ``.name`` key) in the module,
        with the function each stands in; only statements on lines showing the call are
        walked."""
        if self._calls is None:
            self._calls = {}
        if key not in self._calls:
            method = key.startswith(".")
            needle = f"{key}("
            at = self.source.find(needle)
            # the ``def name(`` line is no call: a module function needs a second occurrence
            if not method and at >= 0:
                at = self.source.find(needle, at + 1)
            lines = self.lines_with(needle) if at >= 0 else []
            found: list[tuple[ast.Call, Function | None]] = []
            if self._tree is not None and lines:
                for call, within in self._calls_on(lines):
                    func = call.func
                    if method:
                        if (
                            isinstance(func, ast.Attribute)
                            and func.attr == key[1:]
                            and isinstance(func.value, ast.Name)
                            and func.value.id == "self"
                        ):
                            found.append((call, within))
                    elif isinstance(func, ast.Name) and func.id == key:
                        found.append((call, within))
            self._calls[key] = found
        return self._calls[key]

    def _calls_on(self, lines: list[int]) -> Iterator[tuple[ast.Call, Function | None]]:
        """Every call in the statements of the module that span one of ``lines`` (sorted),
        with the function it stands in (a method's own, not its class's; calls in a ``def``
        nested in a statement count for the function around it). The statements are
        listed once per tree: those on a line are found by bisection, not by reading
        the module's statements again for each name searched."""
        tree = self._tree
        if tree is None:
            return
        if self._units is None or self._units[0] is not tree:
            units: list[Unit] = []
            _units_of(tree.body, None, units)
            starts = [stmt.lineno for stmt, _ in units]
            ends = [stmt.end_lineno or stmt.lineno for stmt, _ in units]
            self._units = (tree, units, starts, ends)
        _, units, starts, ends = self._units
        picked: set[int] = set()
        for line in lines:  # units do not nest: those on a line are consecutive
            picked.update(range(bisect_left(ends, line), bisect_right(starts, line)))
        for at in sorted(picked):
            stmt, within = units[at]
            for call in calls(stmt):
                yield call, within

    def _settle(self, fn: Function, param: str, level: int) -> Templates | None:
        """The texts every call of ``fn`` passes as ``param``; None when one is not settled."""
        if level > MAX_LEVELS:
            return None
        key = self._key(fn)
        calls = self._calls_of(key) if key else []
        if not calls:
            return None
        method = key is not None and key.startswith(".")
        if method:
            # ``self.fail(…)`` calls this method only from its class and the module's
            # subclasses of it
            owner = self._owner(fn)
            calls = [(c, w) for c, w in calls if w is not None and self._inherits(w, owner)]
            if not calls:
                return None
        out: Templates = []
        for call, within in calls:
            arg = _argument(fn, call, param, method=method)
            if arg is None:
                return None
            found = self._text_of(arg, within, level)
            if found is None:
                return None
            out.extend(t for t in found if t not in out)
            if len(out) > MAX_FROM_CALLERS:
                return None
        return out

    def _text_of(self, arg: ast.expr, within: Function | None, level: int) -> Templates | None:
        """What a call's argument holds, where the call site settles it."""
        if isinstance(arg, ast.Name):
            if within is not None and arg.id in _parameters(within):
                if self._reassigned(within, arg.id) or self._key(within) is None:
                    return None
                if not within.name.startswith("_"):
                    return None  # a public caller passes on what its own callers give
                return self._settle(within, arg.id, level + 1)
            values = _assigned_values(within, arg.id) if within is not None else None
            if not values:
                return None
            out: Templates = []
            for value in values:
                found = (
                    self._text_of(value, None, level) if not isinstance(value, ast.Name) else None
                )
                if found is None:
                    return None
                out.extend(t for t in found if t not in out)
            return out
        if isinstance(arg, ast.Constant):
            return [MessageTemplate.literal(arg.value)] if isinstance(arg.value, str) else None
        joined = list_joined(arg, within) if within is not None else None
        if joined is not None:
            return self._joined_text(joined, within, level)
        if isinstance(arg, (ast.JoinedStr, ast.BinOp)):
            found = self.templates(arg, Scope("", None, None, {}))
            return None if any(t.is_opaque for t in found) else found
        return None

    def _joined_text(self, joined: Joined, within: Function | None, level: int) -> Templates | None:
        """``" ".join(message)`` passed by a caller (jinja2's ``Parser._fail_ut_eof``): each
        list it starts as, joined, then one hole for whatever the appends add (each may run
        or not: the hole holds the separators too)."""
        out: Templates = []
        for start in joined.starts:
            items = [self._text_of(item, within, level) for item in start]
            if any(texts is None or len(texts) != 1 for texts in items):
                return None
            text = MessageTemplate.join([texts[0] for texts in items if texts], joined.separator)
            if joined.appends:
                text = text + MessageTemplate.hole("{…}", "(appended)")
            out.append(text)
        return out


def _units_of(body: list[ast.stmt], within: Function | None, out: list[Unit]) -> None:
    """The statements of ``body`` a call search reads whole, in order: ``def`` and
    ``class`` bodies are entered (of their headers, only defaults holding a call are
    read: :func:`_called_defaults`); a method's calls stand in the method, not its class."""
    for stmt in body:
        if isinstance(stmt, (ast.FunctionDef, ast.AsyncFunctionDef)):
            header = _called_defaults(stmt)
            if header is not None:
                out.append((header, within))
            _units_of(stmt.body, stmt, out)
        elif isinstance(stmt, ast.ClassDef):
            _units_of(stmt.body, within, out)
        else:
            out.append((stmt, within))


def _called_defaults(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> ast.stmt | None:
    """``fn``'s defaults that hold a call, as one statement: ``def pick(key,
    missing=lambda k: raise_(KeyError, k))`` calls ``raise_`` from the body, as a call
    of the function around the ``def``."""
    spec = fn.args
    found = [
        d
        for d in [*spec.defaults, *spec.kw_defaults]
        if d is not None and any(isinstance(n, ast.Call) for n in ast.walk(d))
    ]
    if not found:
        return None
    holder = ast.Expr(ast.Tuple(found, ast.Load()))
    holder.lineno, holder.col_offset = found[0].lineno, found[0].col_offset
    holder.end_lineno, holder.end_col_offset = found[-1].end_lineno, found[-1].end_col_offset
    return holder


def _parameters(fn: Function) -> list[str]:
    spec = fn.args
    if not isinstance(spec, ast.arguments):
        return []
    return parameter_names(spec, starred=False)


def _assigned_values(fn: Function, name: str) -> list[ast.expr] | None:
    """The values of every ``name = value`` in ``fn``; None when it is bound another way
    too (a loop, ``+=``, a tuple target…)."""
    nodes = walked(fn)
    stores = sum(
        1
        for n in nodes
        if isinstance(n, ast.Name) and n.id == name and isinstance(n.ctx, (ast.Store, ast.Del))
    )
    plain = [
        node.value
        for node in nodes
        if isinstance(node, ast.Assign)
        and len(node.targets) == 1
        and isinstance(node.targets[0], ast.Name)
        and node.targets[0].id == name
    ]
    return plain if plain and len(plain) == stores else None


def _argument(fn: Function, call: ast.Call, param: str, *, method: bool) -> ast.expr | None:
    """The expression a call binds to ``param`` (its default when it passes none); a
    method's ``self`` is the object called on."""
    spec = fn.args
    positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
    defaults = dict(zip(reversed(positional), reversed(spec.defaults), strict=False))
    if method:
        positional = positional[1:]
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None
    if param in positional and positional.index(param) < len(call.args):
        return call.args[positional.index(param)]
    for keyword in call.keywords:
        if keyword.arg == param:
            return keyword.value
    kwonly = {a.arg: d for a, d in zip(spec.kwonlyargs, spec.kw_defaults, strict=True)}
    return defaults.get(param) or kwonly.get(param)


def _bindings(settled: dict[str, Templates]) -> Iterator[dict[str, MessageTemplate]]:
    """Each combination of the parameters' texts (a few: their product is capped)."""
    combos: list[dict[str, MessageTemplate]] = [{}]
    for param, texts in settled.items():
        combos = [{**c, param: t} for c in combos for t in texts]
        if len(combos) > MAX_FROM_CALLERS:
            return
    yield from combos


def _is_public(fn: Function) -> bool:
    return not fn.name.startswith("_") or fn.name.startswith("__")
