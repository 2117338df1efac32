"""The class of a raise whose class arrives as a parameter, settled by its callers.

``def fail(self, msg, lineno=None, exc=TemplateSyntaxError): raise exc(msg, …)`` (jinja2's
``Parser.fail``), ``def copyfileobj(src, dst, length=None, exception=OSError)`` (tarfile),
``_get_module_details(mod_name, error=ImportError)`` (runpy), tomlkit's ``Source.inc(self,
exception=None)`` raising ``self.parse_error(exception)``: the line shows only the
parameter; the class users see is decided by the calls. Every call of the function at an
exact, resolved call site is read, in its module and in the other modules of its package
(:mod:`.package_calls`): ``name(…)``, ``mod.name(…)``, ``self.name(…)`` in the class or a
subclass that does not override it, ``parser.name(…)`` on a parameter annotated with the
class, ``self._src.name(…)`` on an attribute its class assigns an instance of it. Each
call gives the class it passes (positionally or by keyword; the default when it passes
none; a caller passing its own parameter on is followed a few levels up) and, call by
call, the message it passes beside it: one site per class, holding the messages of the
calls that pass that class. A call passing ``None`` raises nothing there; a call passing
anything else not resolved to a class is left out, and the records say the class set may
be incomplete. A public function's default stays (code outside may call it bare), as
does its bare message.
"""

from __future__ import annotations

import ast
import copy
from collections.abc import Iterator
from dataclasses import replace

from errdex.template import MessageTemplate

from .callers import (
    MAX_LEVELS,
    CallerReader,
    Function,
    Part,
    _assigned_values,
    _bindings,
    _is_public,
    _parameters,
)
from .frames import SelfBinding
from .held_class import default_of, held_parameter, kept_from, passing_calls
from .hierarchy import ClassRef
from .messages import MAX_ALTERNATIVES, Templates
from .module import BUILTIN_EXCEPTIONS
from .package_calls import package_modules
from .params import parameters
from .scope import LAZY, Env, Fixed, Scope
from .star_passed import one_star_arg, single_star, unstarred
from .subtree import statements, walk

__all__ = ["PassedClassReader"]

#: Messages kept for one class from its callers (each caller's text is its own fact).
MAX_PASSED = 4 * MAX_ALTERNATIVES
#: Classes kept for one raise.
MAX_CLASSES = MAX_ALTERNATIVES
_EMPTY = Scope("", None, None, {})
#: (the reader of the module the call is in, the call, the function it stands in).
Found = tuple["PassedClassReader", ast.Call, Function | None]


class _Given:
    """What the calls of a function pass for one parameter."""

    def __init__(self) -> None:
        #: qualified class -> (the reader its expression is read in, the expression)
        self.classes: dict[str, tuple[PassedClassReader, ast.expr]] = {}
        #: qualified class -> the calls passing it directly (None: its default, for
        #: outside callers, or a call further up passing it on: messages unbound)
        self.calls: dict[str, list[Found | None]] = {}
        self.left_out = 0
        self.count = 0
        self.modules: set[str] = set()
        #: The public functions on the way (code outside may call them with any class).
        self.public: list[str] = []
        #: qualified class -> (the calls passing it, those leaving it the default)
        self.where: dict[str, tuple[list[str], list[str]]] = {}

    def add(
        self, qualified: str, reader: PassedClassReader, expr: ast.expr, by: Found | None
    ) -> None:
        self.classes.setdefault(qualified, (reader, expr))
        self.calls.setdefault(qualified, []).append(by)

    def at(self, qualified: str, where: str, *, default: bool) -> None:
        """Notes the call (``path:line``; empty: callers outside) giving ``qualified``."""
        found = self.where.setdefault(qualified, ([], []))[1 if default else 0]
        if where not in found:
            found.append(where)


class PassedClassReader(CallerReader):
    """Settles a raise's class passed as a parameter from the calls of its function."""

    #: Per function (by id): the class of the module it is a method of, or nested in.
    _around: dict[int, str] | None = None

    def _classes_passed(
        self, stmt: ast.Raise, exc: ast.expr, scope: Scope, fn: Function, parts: list[Part]
    ) -> list[Part] | None:
        param = _class_parameter(exc, fn, parts)
        if param is None or self._reassigned(fn, param):
            return None
        given = _Given()
        self._given(fn, param, 0, given, set())
        return self._parts_passed(stmt, exc, scope, fn, param, given)

    def _classes_held(self, stmt: ast.Raise, exc: ast.expr, scope: Scope) -> list[Part] | None:
        """``raise self._undefined_exception(…)`` of an attribute ``__init__`` keeps from
        its parameter (:mod:`.held_class`): the parameter's default, as for a parameter."""
        held = held_parameter(self, exc, scope)
        if held is None:
            return None
        init, param, owner = held
        assert isinstance(exc, ast.Call) and isinstance(exc.func, ast.Attribute)
        attr = exc.func.attr
        exc = ast.Call(ast.Name(id=param, ctx=ast.Load()), exc.args, exc.keywords)
        given = _Given()
        given.public.append(f"{owner}.__init__")
        bare = default_of(init, param)
        if bare is not None and self._is_class_expr(bare, _EMPTY):
            given.add(self.qualify(bare), self, bare, None)
            given.at(self.qualify(bare), "", default=True)
        target = f"{self.module}.{owner}"
        others = (r for r, _ in package_modules(self, f"{param}="))
        for reader in [self, *(r for r in others if isinstance(r, PassedClassReader))]:
            for call, cls, within in passing_calls(reader, target, param):
                given.count += 1
                if reader is not self:
                    given.modules.add(reader.module)
                if not reader._is_class_expr(cls, _EMPTY):
                    given.left_out += 1
                    continue
                given.add(reader.qualify(cls), reader, cls, (reader, call, within))
                given.at(reader.qualify(cls), f"{reader.file_path}:{call.lineno}", default=False)
        held_in = f"class held in `self.{attr}`, which `{owner}.__init__` keeps from `{param}`"
        parts = self._parts_passed(stmt, exc, scope, init, param, given, held_in)
        for i, (shown, qualified, templates, style, notes) in enumerate(parts or []):
            calls = given.calls.get(qualified or "", [])
            if calls and None not in calls:  # the class only those calls pass
                named = self._here(qualified or "", *given.classes[qualified or ""])
                texts = self._as_built_by(
                    _substituted(exc, param, named), scope, init, owner, calls
                )
                parts[i] = (shown, qualified, texts or templates, style, notes)  # type: ignore[index]
        return parts

    def _as_built_by(
        self, exc: ast.expr, scope: Scope, init: Function, owner: str, calls: list[Found | None]
    ) -> Templates | None:
        """What the raise prints for the instances these calls make: each attribute
        ``__init__`` keeps from a parameter holds the text the call passes (jinja2's
        ``hint``, the message ``_undefined_message`` returns first); None where a call's
        text is not settled or the reading gives none."""
        kept = kept_from(init)
        out: Templates = []
        for found in calls:
            assert found is not None
            reader, call, within = found
            binding = SelfBinding(ClassRef(self, self.classes[owner]))
            for param, attr in kept.items():
                arg, default = _passed(init, call, param, method=True)
                if isinstance(arg, ast.Constant) and arg.value is None:
                    binding.nones.add(attr)
                elif arg is not None:
                    texts = (self if default else reader)._text_of(arg, within, 0)
                    if texts is not None and len(texts) == 1:
                        binding.attrs[attr] = texts[0]
            bound = replace(scope, bound_self=binding)
            for _, _, templates, _, _ in self._raised_parts(exc, bound):
                out.extend(t for t in templates if t not in out)
        if not out or all(t.is_opaque for t in out) or len(out) > MAX_ALTERNATIVES:
            return None
        return out

    def _parts_passed(
        self,
        stmt: ast.Raise,
        exc: ast.expr,
        scope: Scope,
        fn: Function,
        param: str,
        given: _Given,
        held_in: str | None = None,
    ) -> list[Part] | None:
        """One part per class ``given`` holds, with the messages its calls pass."""
        if not given.classes or len(given.classes) > MAX_CLASSES:
            return None
        env = dict(self._env_at(scope, stmt)) if scope.env is LAZY else dict(scope.env)
        notes = self._notes(fn, param, given)
        if held_in is not None:  # the calls counted are those of the class, not of ``fn``
            notes[0] = f"{held_in}: taken from {given.count} call(s) of the class passing it"
        by_part: dict[tuple[str | None, str | None], Part] = {}
        for qualified, (reader, expr) in given.classes.items():
            calls = given.calls[qualified]
            method = (self._key(fn) or "").startswith(".")
            star = single_star(exc, fn, [f[1] for f in calls if f], method=method)
            if star is not None and self._reassigned(fn, star):
                star = None  # ``args = (...,)`` in the body: the calls' text is not it
            read = exc if star is None else unstarred(exc, star)
            raised = _substituted(read, param, self._here(qualified, reader, expr))
            bindings = self._messages(fn, read, param, calls, star)
            own = [*notes, _where(qualified, param, *given.where.get(qualified, ([], [])))]
            found = self._read_as(raised, scope, env, bindings, own)
            if any(len(p[2]) > MAX_PASSED for p in found.values()):
                found = self._read_as(raised, scope, env, [{}], own)  # the line as written
            for key, part in found.items():
                if key[1] is None:
                    continue  # a builder still not resolved: the class is not known
                held = by_part.setdefault(key, part)
                if held is not part:
                    held[2].extend(t for t in part[2] if t not in held[2])
        return list(by_part.values()) or None

    def _read_as(
        self,
        raised: ast.expr,
        scope: Scope,
        env: Env,
        bindings: list[dict[str, MessageTemplate]],
        notes: list[str],
    ) -> dict[tuple[str | None, str | None], Part]:
        """What ``raised`` raises under each binding of the parameters, by class."""
        out: dict[tuple[str | None, str | None], Part] = {}
        for binding in bindings:
            bound = replace(scope, env={**env, **{k: (Fixed(v),) for k, v in binding.items()}})
            for shown, q, templates, style, more in self._raised_parts(raised, bound):
                held = out.setdefault((shown, q), (shown, q, [], style, [*more, *notes]))
                held[2].extend(t for t in templates if t not in held[2])
        return out

    # -- the calls ----------------------------------------------------------------------

    def _given(self, fn: Function, param: str, level: int, given: _Given, seen: set[int]) -> None:
        """Adds what every call of ``fn`` (a function of this module) passes as ``param``."""
        if id(fn) in seen or level > MAX_LEVELS:
            return
        seen.add(id(fn))
        method = (self._key(fn) or "").startswith(".")
        if _is_public(fn):  # code outside may call it leaving ``param`` its default
            owner = self._owner(fn) if method else None
            named = f"{owner}.{fn.name}" if owner else fn.name
            if named not in given.public:
                given.public.append(named)
            bare = default_of(fn, param)
            if bare is not None and self._is_class_expr(bare, _EMPTY):
                given.add(self.qualify(bare), self, bare, None)
                given.at(self.qualify(bare), "", default=True)
        for found in self._callers(fn):
            reader, call, within = found
            if level == 0:
                given.count += 1
                if reader is not self:
                    given.modules.add(reader.module)
            arg, default = _passed(fn, call, param, method=method)
            if arg is None:
                given.left_out += 1
                continue
            at = self if default else reader
            if isinstance(arg, ast.Constant) and arg.value is None:
                continue  # ``inc(exception=None)``: nothing is raised there
            if (
                not default
                and isinstance(arg, ast.Name)
                and within is not None
                and arg.id in _parameters(within)
            ):
                if within is fn and arg.id == param:
                    continue  # ``_get_module_details(pkg_main_name, error)``: passed on
                if reader._reassigned(within, arg.id) or reader._key(within) is None:
                    given.left_out += 1
                else:  # a caller passing its own parameter on: its callers decide
                    reader._given(within, arg.id, level + 1, given, seen)
                continue
            if at._is_class_expr(arg, _EMPTY):
                given.add(at.qualify(arg), at, arg, found if level == 0 else None)
                given.at(at.qualify(arg), f"{reader.file_path}:{call.lineno}", default=default)
            else:
                given.left_out += 1

    def _callers(self, fn: Function) -> Iterator[Found]:
        """The resolved calls of ``fn`` in this module and the other modules of its package."""
        key = self._key(fn)
        if key is None:
            return
        owner = self._owner(fn) if key.startswith(".") else None
        target = f"{self.module}.{owner}" if owner else f"{self.module}.{fn.name}"
        yield from self._calls_here(fn, owner, target, self)
        for reader, tree in package_modules(self, f"{fn.name}("):
            if isinstance(reader, PassedClassReader):
                if reader._tree is None:
                    reader._tree = tree
                yield from reader._calls_here(fn, owner, target, self)

    def _calls_here(
        self, fn: Function, owner: str | None, target: str, home: PassedClassReader
    ) -> Iterator[Found]:
        """The calls in this module of ``fn`` (defined in ``home``; a method of the class
        qualified ``target`` when ``owner`` is set, else the function ``target``)."""
        if self._tree is None:
            return
        needle = f".{fn.name}(" if owner else f"{fn.name}("
        lines = self.lines_with(needle)
        for call, within in self._calls_on(lines):
            func = call.func
            if owner is None:
                if isinstance(func, ast.Name) and func.id == fn.name and self is home:
                    ok = self.functions.get(fn.name) is fn
                else:
                    ok = self.qualify(func) == target and self is not home
            else:
                ok = (
                    isinstance(func, ast.Attribute)
                    and func.attr == fn.name
                    and self._instance_of(func.value, within, target, fn)
                )
            if ok:
                yield self, call, within

    def _instance_of(
        self, receiver: ast.expr, within: Function | None, target: str, fn: Function
    ) -> bool:
        """Whether ``receiver`` is known here to be an instance of the class ``target``
        (or of a class of this module inheriting ``fn`` from it)."""
        if within is None:
            return False
        if isinstance(receiver, ast.Name) and receiver.id == "self":
            mine = self._class_around(within)
            return mine is not None and self._inherits_from(mine, target, fn)
        if isinstance(receiver, ast.Name):
            if receiver.id in _parameters(within):
                every = parameters(within.args, starred=False)
                arg = next(a for a in every if a.arg == receiver.id)
                return self._names_class(arg.annotation, target)
            values = _assigned_values(within, receiver.id) or []
            return bool(values) and all(self._builds(v, target) for v in values)
        if (
            isinstance(receiver, ast.Attribute)
            and isinstance(receiver.value, ast.Name)
            and receiver.value.id == "self"
        ):
            mine = self._class_around(within)
            values = self._self_assigned(mine, receiver.attr) if mine else []
            return bool(values) and all(self._builds(v, target) for v in values)
        return False

    def _class_around(self, within: Function) -> str | None:
        """The class of this module whose method ``within`` is, or is nested in (an
        ``@overload``-ed method's real ``def`` too)."""
        if self._around is None:
            self._around = {}
            for name, node in self.classes.items():
                for item in node.body:
                    if isinstance(item, (ast.FunctionDef, ast.AsyncFunctionDef)):
                        for inner in statements(item):
                            if isinstance(inner, (ast.FunctionDef, ast.AsyncFunctionDef)):
                                self._around.setdefault(id(inner), name)
        return self._around.get(id(within))

    def _inherits_from(self, name: str, target: str, fn: Function, depth: int = 0) -> bool:
        """Whether this module's class ``name`` is ``target`` or inherits ``fn`` from it."""
        if f"{self.module}.{name}" == target:
            return True
        node = self.classes.get(name)
        if node is None or depth > 4 or self.methods.get((name, fn.name)) is not None:
            return False  # not a class of this module, or overriding the method
        for base in node.bases:
            if self.qualify(base) == target:
                return True
            if isinstance(base, ast.Name) and self._inherits_from(base.id, target, fn, depth + 1):
                return True
        return False

    def _names_class(self, annotation: ast.expr | None, target: str) -> bool:
        if isinstance(annotation, ast.Constant) and isinstance(annotation.value, str):
            try:
                annotation = ast.parse(annotation.value, mode="eval").body
            except SyntaxError:
                return False
        return annotation is not None and self.qualify(annotation) == target

    def _builds(self, value: ast.expr, target: str) -> bool:
        return isinstance(value, ast.Call) and self.qualify(value.func) == target

    def _self_assigned(self, class_name: str, attr: str) -> list[ast.expr]:
        """The values of every ``self.attr = value`` in the class's methods."""
        out: list[ast.expr] = []
        for (cls, _), method in self.methods.items():
            if cls != class_name:
                continue
            for node in statements(method):
                targets = node.targets if isinstance(node, ast.Assign) else []
                for t in targets:
                    if (
                        isinstance(t, ast.Attribute)
                        and t.attr == attr
                        and isinstance(t.value, ast.Name)
                        and t.value.id == "self"
                        and isinstance(node, ast.Assign)
                    ):
                        out.append(node.value)
        return out

    # -- the raise read again -----------------------------------------------------------

    def _here(self, qualified: str, reader: PassedClassReader, expr: ast.expr) -> ast.expr:
        """An expression naming the class ``qualified`` in this module."""
        if reader is self:
            return expr
        module, _, name = qualified.rpartition(".")
        if module == self.module and name in self.classes:
            return ast.Name(id=name, ctx=ast.Load())
        if module == "builtins" and name in BUILTIN_EXCEPTIONS:
            return ast.Name(id=name, ctx=ast.Load())
        local = next((k for k, v in self.imports.items() if v == qualified), None)
        if local is not None:
            return ast.Name(id=local, ctx=ast.Load())
        node: ast.expr = ast.Name(id=qualified.split(".")[0], ctx=ast.Load())
        for part in qualified.split(".")[1:]:
            node = ast.Attribute(value=node, attr=part, ctx=ast.Load())
        return node

    def _messages(
        self,
        fn: Function,
        exc: ast.expr,
        param: str,
        calls: list[Found | None],
        star: str | None = None,
    ) -> list[dict[str, MessageTemplate]]:
        """Per call passing the class, the texts it passes for the raise's other
        parameters (``star``: the ``*args`` read as one, :mod:`.star_passed`); an empty
        binding (the line as written) for a call not settled."""
        named = {n.id for n in walk(exc) if isinstance(n, ast.Name)} - {param}
        method = (self._key(fn) or "").startswith(".")
        every = _parameters(fn)[1:] if method else _parameters(fn)
        every = [*every, star] if star is not None else every
        params = [p for p in every if p in named and not self._reassigned(fn, p)]
        if not params:
            return [{}]
        out: list[dict[str, MessageTemplate]] = []
        for found in calls:
            settled: dict[str, Templates] = {}
            if found is not None:
                reader, call, within = found
                for p in params:
                    arg, default = (
                        (one_star_arg(fn, call, method=method), False)
                        if p == star
                        else _passed(fn, call, p, method=method)
                    )
                    texts = (
                        None
                        if arg is None
                        else (self if default else reader)._text_of(arg, within, 0)
                    )
                    if texts is None:
                        break
                    settled[p] = texts
            bindings = list(_bindings(settled)) if len(settled) == len(params) else [{}]
            out.extend(b for b in (bindings or [{}]) if b not in out)
        if _is_public(fn) and {} not in out:
            out.append({})  # code outside may pass this class with any message
        return out

    def _notes(self, fn: Function, param: str, given: _Given) -> list[str]:
        where = "in this module"
        if given.modules:
            where += f" and {len(given.modules)} other module(s) of its package"
        notes = [f"class taken from the {given.count} call(s) of `{fn.name}` {where}"]
        if given.left_out:
            notes.append(
                f"class set may be incomplete: {given.left_out} call(s) pass `{param}` a"
                " value not resolved to a class"
            )
        if given.public:
            names = ", ".join(f"`{n}`" for n in given.public)
            notes.append(
                "class set may be incomplete: code outside the repository may call"
                f" {names} with another class"
            )
        return notes


def _where(qualified: str, param: str, passed: list[str], default: list[str]) -> str:
    """``class `X`: passed as `exc` at ext.py:383; the default of `exc` for the calls at …``."""
    said = []
    if passed:
        said.append(f"passed as `{param}` at {_listed(passed)}")
    if default:
        calls = [d for d in default if d]
        whom = f"the calls at {_listed(calls)}" if calls else ""
        if "" in default:
            whom += (" and " if whom else "") + "callers outside the repository"
        said.append(f"the default of `{param}` for {whom}")
    return f"class `{qualified}`: " + "; ".join(said)


def _listed(places: list[str], most: int = 6) -> str:
    shown = ", ".join(places[:most])
    return shown + (f" and {len(places) - most} more" if len(places) > most else "")


def _class_parameter(exc: ast.expr, fn: Function, parts: list[Part]) -> str | None:
    """The parameter of ``fn`` the raise takes its class from: the one called
    (``raise error(…)``), or one handed to a builder whose class is not resolved
    (``raise self.parse_error(exception)``)."""
    if not isinstance(exc, ast.Call):
        return None
    params = _parameters(fn)
    if isinstance(exc.func, ast.Name) and exc.func.id in params:
        return exc.func.id
    if any(q is not None for _, q, _, _, _ in parts):
        return None
    passed = [*exc.args, *(k.value for k in exc.keywords)]
    names = [a.id for a in passed if isinstance(a, ast.Name) and a.id in params]
    return names[0] if len(names) == 1 else None


def _substituted(exc: ast.expr, param: str, cls: ast.expr) -> ast.expr:
    """``exc`` with the parameter ``param`` read as the class ``cls``."""

    class Swap(ast.NodeTransformer):
        def visit_Name(self, node: ast.Name) -> ast.expr:
            return cls if node.id == param and isinstance(node.ctx, ast.Load) else node

    swapped: ast.expr = Swap().visit(copy.deepcopy(exc))
    return swapped


def _passed(
    fn: Function, call: ast.Call, param: str, *, method: bool
) -> tuple[ast.expr | None, bool]:
    """(the expression a call binds to ``param``, whether it is the default); None when
    the call's ``*args``/``**kwargs`` hide it."""
    spec = fn.args
    positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
    if method:
        positional = positional[1:]
    if param in positional and positional.index(param) < len(call.args):
        before = call.args[: positional.index(param) + 1]
        if any(isinstance(a, ast.Starred) for a in before):
            return None, False
        return call.args[positional.index(param)], False
    for keyword in call.keywords:
        if keyword.arg == param:
            return keyword.value, False
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return None, False
    default = default_of(fn, param)
    return default, default is not None
