"""Messages built away from the raise: by a helper that returns the exception, or by the
exception class's own ``__init__``.

``raise self.parse_error(InvalidNumberError)`` prints what ``Source.parse_error`` builds
when it calls ``exception(line, col, *args)``, which is what ``InvalidNumberError.__init__``
hands to ``ParseError.__init__``, which formats ``f"{message} at line {line} col {col}"``.
This module follows such a chain the way the interpreter would: the call's arguments
bound to the callee's parameters (defaults, ``*args`` and ``**kwargs`` included), the
callee's statements in order, ``super().__init__`` along the class's MRO, ``self.x[key]``
looked up where the class hierarchy defines it. A branch is followed only when its
condition is decided by what is known (``message is None`` with ``message`` given); a
statement it cannot follow ends the chain with no answer, so the raise keeps what its own
line shows. Where an argument is a literal, the callee's parameter is filled with it;
otherwise the parameter stays a hole named as the callee names it.
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from errdex.template import MessageTemplate

from .hierarchy import ClassRef, HierarchyReader, Node, class_attribute, defines, method_of
from .literals import quoted_repr
from .messages import MAX_ALTERNATIVES, Templates
from .scope import Env, Fixed, Scope, bind_assignment

__all__ = ["BuilderReader", "Built", "SelfBinding", "Unfollowed"]

#: Calls followed from a raise before the chain is given up.
MAX_DEPTH = 8
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(frozen=True)
class Text:
    template: MessageTemplate


@dataclass(frozen=True)
class ClassValue:
    qualified: str


@dataclass(frozen=True)
class Star:
    items: tuple[Value, ...]


@dataclass(frozen=True)
class Kw:
    items: tuple[tuple[str, Value], ...]


class _NoneType:
    pass


NONE = _NoneType()
Value = Text | ClassValue | Star | Kw | _NoneType


@dataclass
class Args:
    positional: list[Value] = field(default_factory=list)
    keywords: dict[str, Value] = field(default_factory=dict)


@dataclass
class SelfBinding:
    """The class ``self`` is an instance of while a method runs; ``used`` once it mattered."""

    ref: ClassRef
    used: bool = False
    #: ``self.<name> = …`` seen while its ``__init__`` chain ran: what ``__str__`` reads.
    attrs: dict[str, MessageTemplate] = field(default_factory=dict)
    #: Whether that chain assigned ``self.args`` (which the builtin ``__str__`` prints).
    sets_args: bool = False
    #: Whether an ``__init__`` of the chain is running (attributes not yet all set).
    in_init: bool = False


@dataclass
class Built:
    """What a raise raises when its exception is built elsewhere."""

    qualified: str
    templates: Templates
    notes: list[str]


@dataclass(frozen=True)
class Unfollowed:
    """The repository's ``__init__``/``__str__`` builds the message, in a way not followed."""

    builder: str


@dataclass
class _Frame:
    reader: BuilderReader
    scope: Scope
    values: dict[str, Value]
    binding: SelfBinding | None
    defining: ClassRef | None
    notes: list[str]
    depth: int = 0
    #: In an ``__init__``: the message the last base ``__init__`` call set.
    message: MessageTemplate | None = None


class _Stop:
    """A ``return`` inside an ``__init__``: nothing after it runs."""


_STOP = _Stop()


class _Fail(Exception):
    """A statement the chain cannot follow: the raise keeps its own account."""


class BuilderReader(HierarchyReader):
    """Follows helpers and ``__init__`` methods of the repository to the message they build."""

    # -- entry points ---------------------------------------------------------------------

    def built_by_helper(self, call: ast.Call, scope: Scope) -> Built | None:
        """``raise helper(...)``: the class and message the helper's returned exception has."""
        target = self._callee(call.func, scope, None)
        if target is None:
            return None
        reader, fn, binding, defining = target
        try:
            args = self._arguments(call, scope, {})
            first = reader._run_helper(fn, reader._helper_frame(fn, args, binding, defining, [], 0))
            if first is None:
                return None
            if binding is None or not binding.used:
                return first
            # ``self`` may be any subclass: each one its module defines may say otherwise
            out = list(first.templates)
            for sub in binding.ref.reader.subclasses(binding.ref):
                frame = reader._helper_frame(fn, args, SelfBinding(sub), defining, [], 0)
                other = reader._run_helper(fn, frame)
                if other is None or other.qualified != first.qualified:
                    return None
                out.extend(t for t in other.templates if t not in out)
            if len(out) > MAX_ALTERNATIVES:
                return None
            return Built(first.qualified, out, first.notes)
        except _Fail:
            return None

    def built_by_class(
        self, qualified: str, call: ast.Call | None, scope: Scope
    ) -> Built | Unfollowed | None:
        """``raise Cls(...)`` or ``raise Cls`` of a repository class whose ``__init__`` or
        ``__str__`` builds the message; None when neither is on the way (the builtin's
        rules, applied by the caller, hold); ``Unfollowed`` when one is but the chain
        could not be followed (the message is then not known)."""
        ref = self.class_ref(qualified)
        if ref is None:
            return None
        mro = ref.reader.mro(ref)
        if mro is None:
            return None
        init = next((n for n in mro if defines(n, "__init__")), None)
        printer = next((n for n in mro if defines(n, "__str__")), None)
        if not isinstance(init, ClassRef) and not isinstance(printer, ClassRef):
            return None
        try:
            args = self._arguments(call, scope, {}) if call is not None else Args()
            built = self._construct(qualified, args, [], 0)
            for i, choices in self._alternative_arguments(call, scope):
                # ``message`` may hold one of several texts: each is built the same way
                for choice in choices[1:]:
                    positional = list(args.positional)
                    positional[i] = Text(choice)
                    other = self._construct(qualified, Args(positional, args.keywords), [], 0)
                    built.templates.extend(t for t in other.templates if t not in built.templates)
                break  # one argument's alternatives at most: they multiply otherwise
            return built
        except _Fail:
            builder = init if isinstance(init, ClassRef) else printer
            assert isinstance(builder, ClassRef)
            method = "__init__" if builder is init else "__str__"
            return Unfollowed(f"`{builder.node.name}.{method}`")

    # -- what a call reaches --------------------------------------------------------------

    def _callee(
        self, func: ast.expr, scope: Scope, binding: SelfBinding | None
    ) -> tuple[BuilderReader, Function, SelfBinding | None, ClassRef | None] | None:
        """The function a call runs, and what ``self`` is in it."""
        if isinstance(func, ast.Name):
            fn = self.functions.get(func.id)
            if fn is not None:
                return self, fn, None, None
            imported = self.imports.get(func.id)
            if imported is None:
                return None
            module, _, name = imported.rpartition(".")
            other = self.reader_of(module) if module else None
            if isinstance(other, BuilderReader) and name in other.functions:
                return other, other.functions[name], None, None
            return None
        if not isinstance(func, ast.Attribute):
            return None
        owner = func.value
        if isinstance(owner, ast.Name) and owner.id in ("self", "cls"):
            if binding is None and scope.class_name and scope.class_name in self.classes:
                binding = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            if binding is None:
                return None
            return _method(binding, func.attr)
        if (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id == "self"
        ):
            if binding is None and scope.class_name and scope.class_name in self.classes:
                binding = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            held = self._attribute_class(binding.ref, owner.attr) if binding else None
            return _method(SelfBinding(held), func.attr) if held is not None else None
        return None

    def _attribute_class(self, ref: ClassRef, attr: str) -> ClassRef | None:
        """The class of ``self.<attr>`` when every assignment to it constructs that class."""
        mro = ref.reader.mro(ref)
        if mro is None:
            return None
        found: ClassRef | None = None
        for node in mro:
            if not isinstance(node, ClassRef):
                continue
            for stmt in ast.walk(node.node):
                if not isinstance(stmt, (ast.Assign, ast.AnnAssign)):
                    continue
                targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
                if not any(
                    isinstance(t, ast.Attribute)
                    and t.attr == attr
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    for t in targets
                ):
                    continue
                value = stmt.value
                if not (isinstance(value, ast.Call) and isinstance(value.func, ast.Name)):
                    return None
                held = node.reader.class_ref(node.reader.qualify(value.func))
                if held is None or (found is not None and held.node is not found.node):
                    return None
                found = held
        return found

    # -- arguments ------------------------------------------------------------------------

    def _arguments(self, call: ast.Call, scope: Scope, values: dict[str, Value]) -> Args:
        args = Args()
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                held = values.get(arg.value.id) if isinstance(arg.value, ast.Name) else None
                if not isinstance(held, Star):
                    raise _Fail
                args.positional.extend(held.items)
            else:
                args.positional.append(self._value(arg, scope, values))
        for keyword in call.keywords:
            if keyword.arg is None:
                name = keyword.value
                held = values.get(name.id) if isinstance(name, ast.Name) else None
                if not isinstance(held, Kw):
                    raise _Fail
                args.keywords.update(held.items)
            else:
                args.keywords[keyword.arg] = self._value(keyword.value, scope, values)
        return args

    def _alternative_arguments(
        self, call: ast.Call | None, scope: Scope
    ) -> list[tuple[int, Templates]]:
        """Positional arguments of the raise that hold one of several texts."""
        out: list[tuple[int, Templates]] = []
        for i, arg in enumerate(call.args if call is not None else ()):
            if isinstance(arg, ast.Starred):
                return []
            found = self.templates(arg, scope)
            if 1 < len(found) <= MAX_ALTERNATIVES:
                out.append((i, found))
        return out

    def _value(self, expr: ast.expr, scope: Scope, values: dict[str, Value]) -> Value:
        if isinstance(expr, ast.Name) and expr.id in values:
            return values[expr.id]
        if isinstance(expr, ast.Constant) and expr.value is None:
            return NONE
        if isinstance(expr, (ast.Name, ast.Attribute)) and self._is_class_expr(expr, scope):
            return ClassValue(self.qualify(expr))
        found = self.templates(expr, scope)
        if len(found) == 1 or (
            found and scope.bound_self is None and len(found) <= MAX_ALTERNATIVES
        ):
            return Text(found[0])  # at the raise, the others are built by built_by_class
        return Text(MessageTemplate.expression(self.expr_text(expr)))

    def _bind_params(
        self, fn: Function, args: Args, is_method: bool, qualname: str
    ) -> dict[str, Value]:
        """The callee's parameters bound as the interpreter binds them; _Fail if they do not."""
        spec = fn.args
        positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
        if is_method:
            if not positional:
                raise _Fail
            positional = positional[1:]
        defaults = dict(zip(reversed(positional), reversed(spec.defaults), strict=False))
        kwonly = {a.arg: d for a, d in zip(spec.kwonlyargs, spec.kw_defaults, strict=True)}
        bound: dict[str, Value] = {}
        given = list(args.positional)
        for name in positional:
            if given:
                bound[name] = given.pop(0)
        if given and spec.vararg is None:
            raise _Fail  # more arguments than parameters
        if spec.vararg is not None:
            bound[spec.vararg.arg] = Star(tuple(given))
        extra: dict[str, Value] = {}
        for name, value in args.keywords.items():
            if (name in positional or name in kwonly) and name not in bound:
                bound[name] = value
            elif spec.kwarg is not None and name not in bound:
                extra[name] = value
            else:
                raise _Fail
        if spec.kwarg is not None:
            bound[spec.kwarg.arg] = Kw(tuple(extra.items()))
        for name in [*positional, *kwonly]:
            if name in bound:
                continue
            default = defaults.get(name) if name in defaults else kwonly.get(name)
            if default is None:
                raise _Fail  # a required parameter the call does not give
            bound[name] = self._value(default, _empty_scope(qualname), {})
        return bound

    # -- running a callee -----------------------------------------------------------------

    def _helper_frame(self, fn: Function, args: Args, *rest: Any) -> _Frame:
        """A helper's frame; ``rest`` is (binding, defining, notes, depth)."""
        binding, defining, notes, depth = rest
        frame = self._frame(fn, args, binding, defining, [*notes, f"`{_name(defining, fn)}`"])
        frame.depth = depth
        return frame

    def _frame(
        self,
        fn: Function,
        args: Args,
        binding: SelfBinding | None,
        defining: ClassRef | None,
        notes: list[str],
    ) -> _Frame:
        is_method = defining is not None and not any(
            isinstance(d, ast.Name) and d.id == "staticmethod" for d in fn.decorator_list
        )
        owner = defining.node.name if defining is not None else None
        qualname = f"{owner}.{fn.name}" if owner else fn.name
        values = self._bind_params(fn, args, is_method, qualname)
        env: Env = {}
        for name, value in values.items():
            shown = value.template if isinstance(value, Text) else None
            if shown is None or shown.is_opaque:
                shown = MessageTemplate.literal("None") if value is NONE else None
            env[name] = (
                Fixed(shown if shown is not None else MessageTemplate.hole("{" + name + "}", name)),
            )
        scope = Scope(qualname, fn.name, owner, env, set(), fn, None, binding)
        return _Frame(self, scope, values, binding, defining, notes)

    def _run_helper(self, fn: Function, frame: _Frame) -> Built | None:
        """What a helper's ``return`` builds, run in ``frame`` (its arguments bound)."""
        depth = frame.depth
        if depth > MAX_DEPTH:
            raise _Fail
        returned = self._walk_to(fn.body, frame, None)
        if not isinstance(returned, ast.expr):
            return None
        return self._returned(returned, frame, depth)

    def _returned(self, expr: ast.expr, frame: _Frame, depth: int) -> Built | None:
        scope, values = frame.scope, frame.values
        if isinstance(expr, ast.Name) and expr.id not in values:
            bound = scope.env.get(expr.id, ())
            if len(bound) == 1 and isinstance(bound[0], ast.Call):
                return self._returned(bound[0], frame, depth + 1)
            return None
        if not isinstance(expr, ast.Call):
            return None
        func = expr.func
        held = values.get(func.id) if isinstance(func, ast.Name) else None
        if isinstance(held, ClassValue):
            return self._construct(
                held.qualified, self._arguments(expr, scope, values), frame.notes, depth + 1
            )
        if held is None and self._is_class_expr(func, scope):
            qualified = self.qualify(func)
            return self._construct(
                qualified, self._arguments(expr, scope, values), frame.notes, depth + 1
            )
        target = self._callee(func, scope, frame.binding)
        if target is None:
            return None
        reader, fn, binding, defining = target
        args = self._arguments(expr, scope, values)
        inner = reader._helper_frame(fn, args, binding, defining, frame.notes, depth + 1)
        return reader._run_helper(fn, inner)

    def _construct(self, qualified: str, args: Args, notes: list[str], depth: int) -> Built:
        """``Cls(*args)`` as ``str()`` prints it; _Fail where that is not known."""
        if depth > MAX_DEPTH:
            raise _Fail
        ref = self.class_ref(qualified) if not qualified.startswith("builtins.") else None
        if ref is None:
            builtin = _builtin(qualified)
            mro: list[Node] = list(builtin.__mro__) if builtin is not None else []
            message = _builtin_message(mro, args)
            return Built(qualified, [message], notes)
        full = ref.reader.mro(ref)
        if full is None:
            raise _Fail
        printer = next((n for n in full if defines(n, "__str__")), None)
        init = next((n for n in full if defines(n, "__init__")), None)
        binding = SelfBinding(ref)
        steps = list(notes)
        if isinstance(init, ClassRef):
            message = _builder(init)._run_init(init, full, args, args, binding, notes, depth + 1)
            steps.append(f"`{init.node.name}.__init__`")
        elif not isinstance(printer, ClassRef):
            message = _builtin_message(full, args)
        if isinstance(printer, ClassRef):
            steps.append(f"`{printer.node.name}.__str__`")
            return Built(ref.qualified, _builder(printer)._run_str(printer, binding), steps)
        if binding.sets_args:
            raise _Fail  # ``self.args = …``: what the builtin ``__str__`` prints was replaced
        return Built(ref.qualified, [message], steps)

    def _run_str(self, printer: ClassRef, binding: SelfBinding) -> Templates:
        """What ``__str__`` returns, reading the attributes ``__init__`` set."""
        fn = method_of(printer, "__str__")
        alias = class_attribute(printer, "__str__")
        if fn is None and isinstance(alias, ast.Name):
            fn = method_of(printer, alias.id)  # ``__str__ = __repr__``
        if fn is None:
            raise _Fail
        binding.in_init = False
        frame = self._frame(fn, Args(), binding, printer, [])
        try:
            returned = self._walk_to(fn.body, frame, None)
            found = self.templates(returned, frame.scope) if isinstance(returned, ast.expr) else []
        except _Fail:
            found = self._every_return(fn, frame)
        if not found or len(found) > MAX_ALTERNATIVES or any(t.is_opaque for t in found):
            raise _Fail
        return found

    def _every_return(self, fn: Function, frame: _Frame) -> Templates:
        """A ``__str__`` that branches on what is not known: the text of each ``return``
        (one of them prints), when none depends on a local name."""
        if any(isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store) for n in ast.walk(fn)):
            raise _Fail
        out: Templates = []
        for node in ast.walk(fn):
            if isinstance(node, ast.Return) and node.value is not None:
                out.extend(t for t in self.templates(node.value, frame.scope) if t not in out)
        if not out or len(out) > MAX_ALTERNATIVES or any(t.is_opaque for t in out):
            raise _Fail
        return out

    def _run_init(
        self,
        defining: ClassRef,
        mro: list[Node],
        args: Args,
        original: Args,
        binding: SelfBinding,
        notes: list[str],
        depth: int,
    ) -> MessageTemplate:
        if depth > MAX_DEPTH:
            raise _Fail
        fn = method_of(defining, "__init__")
        if fn is None:
            raise _Fail
        frame = self._frame(fn, args, binding, defining, notes)
        frame.depth = depth
        binding.in_init = True
        self._walk_to(fn.body, frame, mro)
        if frame.message is not None:
            return frame.message
        # no base ``__init__`` call: ``BaseException.__new__`` kept the constructor's args
        return _builtin_message(mro, original)

    def _base_init(self, call: ast.Call, frame: _Frame, mro: list[Node]) -> MessageTemplate | None:
        """``super().__init__(...)`` (or ``Base.__init__(self, ...)``): the message it sets."""
        func = call.func
        if not (isinstance(func, ast.Attribute) and func.attr == "__init__"):
            return None
        owner = func.value
        call_args = list(call.args)
        start: int
        if (
            isinstance(owner, ast.Call)
            and isinstance(owner.func, ast.Name)
            and (owner.func.id == "super")
        ):
            if owner.args and not (
                len(owner.args) == 2
                and frame.defining is not None
                and self.qualify(owner.args[0]) == frame.defining.qualified
            ):
                raise _Fail
            start = _position(mro, frame.defining) + 1
        elif (
            isinstance(owner, (ast.Name, ast.Attribute))
            and call_args
            and isinstance(call_args[0], ast.Name)
            and call_args[0].id == "self"
        ):
            base = self.base_node(owner, 0)
            if base is None:
                raise _Fail
            start = _position(mro, base)
            call_args = call_args[1:]
        else:
            return None
        if start <= 0:
            raise _Fail
        args = self._arguments(
            ast.Call(func=func, args=call_args, keywords=call.keywords), frame.scope, frame.values
        )
        rest = mro[start:]
        init = next((n for n in rest if defines(n, "__init__")), None)
        if isinstance(init, ClassRef):
            assert frame.binding is not None
            return _builder(init)._run_init(
                init, mro, args, args, frame.binding, frame.notes, frame.depth + 1
            )
        return _builtin_message(mro, args)

    # -- statements -----------------------------------------------------------------------

    def _walk_to(
        self, body: Sequence[ast.stmt], frame: _Frame, mro: list[Node] | None
    ) -> ast.expr | _Stop | None:
        """Run statements: the returned expression (a helper), ``_STOP`` at a return from
        an ``__init__`` (``mro`` given; its base calls leave the message in the frame), or
        None at the end of the body."""
        for stmt in body:
            if isinstance(stmt, (ast.Assign, ast.AnnAssign, ast.AugAssign)):
                bind_assignment(stmt, frame.scope)
                for name in _assigned(stmt):
                    frame.values.pop(name, None)
                self._set_attributes(stmt, frame)
            elif isinstance(stmt, ast.Return):
                if mro is not None:
                    return _STOP
                if stmt.value is None:
                    raise _Fail
                return stmt.value
            elif isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
                found = self._base_init(stmt.value, frame, mro) if mro is not None else None
                if found is not None:
                    frame.message = found  # a later base call sets ``args`` again
                    if frame.binding is not None:
                        frame.binding.sets_args = False
                else:
                    self._mutated(stmt.value, frame)
            elif isinstance(stmt, ast.If):
                decided = self._decide(stmt.test, frame)
                if decided is None:
                    self._unknown(stmt, frame)
                    continue
                found2 = self._walk_to(stmt.body if decided else stmt.orelse, frame, mro)
                if found2 is not None:
                    return found2
            elif isinstance(stmt, ast.Try):
                found3 = self._walk_to(stmt.body, frame, mro)
                if found3 is not None:
                    return found3
                for handler in stmt.handlers:
                    if not (handler.body and isinstance(handler.body[-1], ast.Raise)):
                        self._unknown(handler, frame)
                found4 = self._walk_to([*stmt.orelse, *stmt.finalbody], frame, mro)
                if found4 is not None:
                    return found4
            elif isinstance(stmt, ast.Raise):
                raise _Fail
            elif isinstance(stmt, (ast.Pass, ast.Expr, ast.Assert, ast.Import, ast.ImportFrom)):
                continue
            else:
                self._unknown(stmt, frame)
        return None

    def _set_attributes(
        self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, frame: _Frame
    ) -> None:
        """Keep what ``self.<name> = value`` stores, for ``__str__`` to read."""
        binding = frame.binding
        if binding is None:
            return
        targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
        pairs: list[tuple[ast.expr, ast.expr | None]] = []
        for target in targets:
            if (
                isinstance(target, ast.Tuple)
                and isinstance(stmt.value, ast.Tuple)
                and len(target.elts) == len(stmt.value.elts)
            ):
                pairs.extend(zip(target.elts, stmt.value.elts, strict=True))
            elif isinstance(target, ast.Tuple):
                pairs.extend((t, None) for t in target.elts)
            else:
                pairs.append((target, None if isinstance(stmt, ast.AugAssign) else stmt.value))
        for target, value in pairs:
            if not (
                isinstance(target, ast.Attribute)
                and isinstance(target.value, ast.Name)
                and target.value.id == "self"
            ):
                continue
            if target.attr == "args":
                binding.sets_args = True
            found = self.templates(value, frame.scope) if value is not None else []
            if len(found) == 1:
                binding.attrs[target.attr] = found[0]
            else:
                binding.attrs.pop(target.attr, None)

    def _mutated(self, call: ast.Call, frame: _Frame) -> None:
        """``parts.append(x)``: a method call may change the local it is called on."""
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name = func.value.id
            if name != "self":
                frame.values.pop(name, None)
                frame.scope.env[name] = (Fixed(MessageTemplate.expression(name)),)
            elif frame.binding is not None:
                frame.binding.attrs.clear()  # a method of self may set any attribute

    def _unknown(self, stmt: ast.AST, frame: _Frame) -> None:
        """A statement not followed: what it may return ends the chain, what it binds is unknown."""
        for node in ast.walk(stmt):
            if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)):
                raise _Fail
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "__init__"
            ):
                raise _Fail  # a base ``__init__`` called on one path only
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                frame.values.pop(node.id, None)
                frame.scope.env[node.id] = (Fixed(MessageTemplate.expression(node.id)),)

    def _decide(self, test: ast.expr, frame: _Frame) -> bool | None:
        """A condition's truth where the known values settle it, else None."""
        if isinstance(test, ast.UnaryOp) and isinstance(test.op, ast.Not):
            inner = self._decide(test.operand, frame)
            return None if inner is None else not inner
        if isinstance(test, ast.BoolOp):
            parts = [self._decide(v, frame) for v in test.values]
            if isinstance(test.op, ast.And):
                return False if False in parts else (None if None in parts else True)
            return True if True in parts else (None if None in parts else False)
        if (
            isinstance(test, ast.Compare)
            and len(test.ops) == 1
            and isinstance(test.ops[0], (ast.Is, ast.IsNot))
            and isinstance(test.comparators[0], ast.Constant)
            and test.comparators[0].value is None
        ):
            known = self._known(test.left, frame)
            if known is None:
                return None
            return (known is NONE) == isinstance(test.ops[0], ast.Is)
        if (
            isinstance(test, ast.Call)
            and isinstance(test.func, ast.Name)
            and test.func.id == "isinstance"
            and len(test.args) == 2
        ):
            known = self._known(test.args[0], frame)
            kinds = test.args[1]
            names = kinds.elts if isinstance(kinds, ast.Tuple) else [kinds]
            if known is None or not all(isinstance(n, ast.Name) for n in names):
                return None
            if isinstance(known, Text):
                return any(isinstance(n, ast.Name) and n.id == "str" for n in names)
            return None
        return None

    def _known(self, expr: ast.expr, frame: _Frame) -> Value | None:
        """The value of a name when it is known to be None or text; None when it is not."""
        if not isinstance(expr, ast.Name):
            return None
        if expr.id in frame.values:
            value = frame.values[expr.id]
            return value if isinstance(value, (Text, _NoneType)) else None
        bound = frame.scope.env.get(expr.id, ())
        if len(bound) != 1:
            return None
        thunk = bound[0]
        if isinstance(thunk, ast.Constant):
            return (
                NONE
                if thunk.value is None
                else (
                    Text(MessageTemplate.literal(thunk.value))
                    if isinstance(thunk.value, str)
                    else None
                )
            )
        if isinstance(thunk, ast.expr):
            found = self.templates(thunk, frame.scope)
            if found and not any(t.is_opaque for t in found):
                return Text(found[0])  # every text it can be is a string
        return None

    # -- ``self.messages[key]``, ``self.message`` -------------------------------------------

    def _self_attribute(self, node: ast.Attribute, scope: Scope) -> Templates | None:
        binding = scope.bound_self
        if not (
            isinstance(binding, SelfBinding)
            and isinstance(node.value, ast.Name)
            and node.value.id == "self"
        ):
            return None
        if node.attr in binding.attrs:
            return [binding.attrs[node.attr]]
        if binding.in_init:
            return None  # while ``__init__`` runs, only what it has set so far is known
        return _instance_attribute(binding, node.attr)

    def _returned_text(self, node: ast.Call, scope: Scope) -> Templates | None:
        """``self._format_error(value)``: what a method of the raising class returns."""
        func = node.func
        if not (
            isinstance(func, ast.Attribute)
            and isinstance(func.value, ast.Name)
            and func.value.id == "self"
            and scope.class_name
            and scope.class_name in self.classes
            and not func.attr.startswith("__")
        ):
            return None
        given = scope.bound_self
        if isinstance(given, SelfBinding):
            bindings = [given]
        else:
            # ``self`` is the class or any subclass its module defines: each may differ
            own = SelfBinding(ClassRef(self, self.classes[scope.class_name]))
            bindings = [own, *(SelfBinding(s) for s in own.ref.reader.subclasses(own.ref))]
        found: Templates = []
        for binding in bindings:
            texts = self._text_for(func, node, scope, binding)
            if texts is None:
                return None
            found.extend(t for t in texts if t not in found)
            if binding is bindings[0] and not binding.used:
                break  # nothing read from ``self``'s class: the subclasses say the same
        if not found or len(found) > MAX_ALTERNATIVES or all(t.is_opaque for t in found):
            return None
        return found

    def _text_for(
        self, func: ast.Attribute, node: ast.Call, scope: Scope, binding: SelfBinding
    ) -> Templates | None:
        target = _method(binding, func.attr)
        if target is None:
            return None
        reader, fn, binding, defining = target
        try:
            args = self._arguments(node, scope, {})
            frame = reader._frame(fn, args, binding, defining, [])
            returned = reader._walk_to(fn.body, frame, None)
        except _Fail:
            return None
        if not isinstance(returned, ast.expr):
            return None
        return reader.templates(returned, frame.scope)

    def _subscript(self, node: ast.Subscript, scope: Scope, depth: int) -> Templates | None:
        binding = scope.bound_self
        if not isinstance(binding, SelfBinding):
            return None
        owner = node.value
        if not (
            isinstance(owner, ast.Attribute)
            and isinstance(owner.value, ast.Name)
            and owner.value.id == "self"
        ):
            return None
        keys = self.templates(node.slice, scope, depth + 1)
        if len(keys) != 1 or keys[0].holes:
            return None
        found = _lookup_key(binding.ref, owner.attr, keys[0].display)
        if found is None:
            return None
        binding.used = True
        reader, value = found
        return reader.templates(value, _empty_scope(""), depth + 1)


def _method(
    binding: SelfBinding, name: str
) -> tuple[BuilderReader, Function, SelfBinding, ClassRef] | None:
    mro = binding.ref.reader.mro(binding.ref)
    for node in mro or ():
        if isinstance(node, ClassRef):
            fn = method_of(node, name)
            if fn is not None and isinstance(node.reader, BuilderReader):
                return node.reader, fn, binding, node
        elif name in vars(node):
            return None
    return None


def _lookup_key(ref: ClassRef, attr: str, key: str) -> tuple[BuilderReader, ast.expr] | None:
    """``self.<attr>[key]``: from a class attribute dict, or from the per-class dicts an
    ``__init__`` merges into ``self.<attr>`` along ``__mro__`` (nearest class first when it
    walks ``reversed(__mro__)``, as ``dict.update`` then keeps the nearest)."""
    mro = ref.reader.mro(ref)
    if mro is None:
        return None
    name = attr
    order = [n for n in mro if isinstance(n, ClassRef)]
    merged = _merged_from(order, attr)
    if merged is not None:
        name, nearest_first = merged
        if not nearest_first:
            order = order[::-1]
    for node in order:
        value = class_attribute(node, name)
        if isinstance(value, ast.Dict):
            for k, v in zip(value.keys, value.values, strict=True):
                if isinstance(k, ast.Constant) and k.value == key:
                    return (node.reader, v) if isinstance(node.reader, BuilderReader) else None
            if merged is None:
                return None  # a plain class attribute: the nearest dict is the whole answer
    return None


def _merged_from(order: list[ClassRef], attr: str) -> tuple[str, bool] | None:
    """``for cls in reversed(self.__class__.__mro__): d.update(getattr(cls, "NAME", {}))``
    then ``self.<attr> = d`` in an ``__init__``: (NAME, nearest class first)."""
    for node in order:
        init = method_of(node, "__init__")
        if init is None:
            continue
        local = next(
            (
                s.value.id
                for s in ast.walk(init)
                if isinstance(s, ast.Assign)
                and isinstance(s.value, ast.Name)
                and any(
                    isinstance(t, ast.Attribute)
                    and t.attr == attr
                    and isinstance(t.value, ast.Name)
                    and t.value.id == "self"
                    for t in s.targets
                )
            ),
            None,
        )
        if local is None:
            continue
        for loop in ast.walk(init):
            if not isinstance(loop, ast.For) or not isinstance(loop.target, ast.Name):
                continue
            nearest_first = _walks_mro(loop.iter)
            if nearest_first is None:
                continue
            for stmt in loop.body:
                source = _update_from_getattr(stmt, local, loop.target.id)
                if source is not None:
                    return source, nearest_first
        return None
    return None


def _walks_mro(expr: ast.expr) -> bool | None:
    """``reversed(X.__mro__)`` -> True (the nearest class's update wins), ``X.__mro__`` -> False."""
    if (
        isinstance(expr, ast.Call)
        and isinstance(expr.func, ast.Name)
        and expr.func.id == "reversed"
        and len(expr.args) == 1
    ):
        inner = expr.args[0]
        return True if isinstance(inner, ast.Attribute) and inner.attr == "__mro__" else None
    if isinstance(expr, ast.Attribute) and expr.attr == "__mro__":
        return False
    return None


def _update_from_getattr(stmt: ast.stmt, local: str, var: str) -> str | None:
    """``local.update(getattr(var, "NAME", {}))`` -> NAME."""
    if not (isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call)):
        return None
    call = stmt.value
    func = call.func
    if not (
        isinstance(func, ast.Attribute)
        and func.attr == "update"
        and isinstance(func.value, ast.Name)
        and func.value.id == local
        and len(call.args) == 1
    ):
        return None
    got = call.args[0]
    if (
        isinstance(got, ast.Call)
        and isinstance(got.func, ast.Name)
        and got.func.id == "getattr"
        and len(got.args) >= 2
        and isinstance(got.args[0], ast.Name)
        and got.args[0].id == var
        and isinstance(got.args[1], ast.Constant)
        and isinstance(got.args[1].value, str)
    ):
        return got.args[1].value
    return None


def _assigned(stmt: ast.stmt) -> list[str]:
    return [
        n.id for n in ast.walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)
    ]


def _position(mro: list[Node], node: Node | None) -> int:
    for i, n in enumerate(mro):
        if node is not None and (
            n is node
            or (isinstance(n, ClassRef) and isinstance(node, ClassRef) and n.node is node.node)
        ):
            return i
    return -1


def _name(defining: ClassRef | None, fn: Function) -> str:
    return f"{defining.node.name}.{fn.name}" if defining is not None else fn.name


def _empty_scope(qualname: str) -> Scope:
    return Scope(qualname, None, None, {}, set(), None)


def _builtin(qualified: str) -> type | None:
    import builtins

    found = getattr(builtins, qualified.removeprefix("builtins."), None)
    return found if isinstance(found, type) and issubclass(found, BaseException) else None


def _builtin_message(mro: Sequence[Node], args: Args) -> MessageTemplate:
    """``str()`` of an exception whose message the builtin ``__init__``/``__str__`` make."""
    printer = next((n for n in mro if isinstance(n, type) and "__str__" in vars(n)), None)
    items = args.positional
    if not items:
        return MessageTemplate()
    if len(items) == 1:
        value = items[0]
        if value is NONE:
            return MessageTemplate.literal("None")
        if not isinstance(value, Text):
            raise _Fail
        if printer is KeyError:
            return quoted_repr(value.template)
        return value.template
    if printer is not BaseException:
        raise _Fail  # OSError, UnicodeError and kin print several arguments their own way
    pieces: list[MessageTemplate] = []
    for value in items:
        if not isinstance(value, Text):
            raise _Fail
        pieces.append(value.template if value.template.is_opaque else quoted_repr(value.template))
    return (
        MessageTemplate.literal("(")
        + MessageTemplate.join(pieces, ", ")
        + MessageTemplate.literal(")")
    )


def _instance_attribute(binding: SelfBinding, attr: str) -> Templates | None:
    """``self.<attr>`` read in a method: a class attribute of the MRO, or the one value an
    ``__init__`` of the MRO assigns it (its parameters unknown: holes)."""
    ref = binding.ref
    mro = ref.reader.mro(ref)
    for node in mro or ():
        if not isinstance(node, ClassRef):
            if attr in vars(node):
                return None
            continue
        value = class_attribute(node, attr)
        if value is not None:
            binding.used = True
            return node.reader.templates(value, _empty_scope(""))
        init = method_of(node, "__init__")
        if init is None:
            continue
        assigned = [
            s.value
            for s in ast.walk(init)
            if isinstance(s, (ast.Assign, ast.AnnAssign))
            and s.value is not None
            and any(
                isinstance(t, ast.Attribute)
                and t.attr == attr
                and isinstance(t.value, ast.Name)
                and t.value.id == "self"
                for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
            )
        ]
        if len(assigned) != 1:
            return None
        value = assigned[0]
        if any(isinstance(n, ast.Name) and n.id == "self" for n in ast.walk(value)) and not (
            isinstance(value, ast.BoolOp)
        ):
            return None
        binding.used = True
        scope = Scope(
            f"{node.node.name}.__init__", "__init__", node.node.name, {}, set(), init, None, binding
        )
        return node.reader.templates(value, scope)
    return None


def _builder(ref: ClassRef) -> BuilderReader:
    """The reader of a class's module (every reader the extractor makes is a builder)."""
    reader = ref.reader
    if not isinstance(reader, BuilderReader):
        raise _Fail
    return reader
