"""What a followed call runs in: its arguments, its bound parameters, its statements.

The values a chain carries (text, a class passed as an argument, ``*args`` and
``**kwargs``, ``None``), the binding of a call's arguments to the callee's parameters as
the interpreter binds them, and the walk over the callee's statements that keeps only
what is decided by what is known (see :mod:`.builders`, which runs it).
"""

from __future__ import annotations

import ast
from collections.abc import Sequence
from dataclasses import dataclass

from errdex.template import MessageTemplate

from .frame_values import (
    NONE,
    STOP,
    Args,
    ClassValue,
    Fail,
    Kw,
    NoneType,
    SelfBinding,
    Star,
    Stop,
    Text,
    Value,
)
from .hierarchy import ClassRef, HierarchyReader, Node
from .messages import MAX_ALTERNATIVES, Templates
from .not_none import surely_not_none
from .scope import Env, Fixed, Scope, bind_assignment
from .subtree import walk

__all__ = [
    "MAX_DEPTH",
    "NONE",
    "STOP",
    "Args",
    "ClassValue",
    "Fail",
    "Frame",
    "FrameReader",
    "Function",
    "Kw",
    "SelfBinding",
    "Star",
    "Text",
    "Value",
    "aliased_init",
    "empty_scope",
    "mro_position",
]

MAX_DEPTH = 8
Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass
class Frame:
    reader: FrameReader
    scope: Scope
    values: dict[str, Value]
    binding: SelfBinding | None
    defining: ClassRef | None
    notes: list[str]
    depth: int = 0
    #: In an ``__init__``: the message the last base ``__init__`` call set.
    message: MessageTemplate | None = None


class FrameReader(HierarchyReader):
    """Binds a call's arguments and runs the callee's statements."""

    def _base_init(self, call: ast.Call, frame: Frame, mro: list[Node]) -> MessageTemplate | None:
        """The message a base ``__init__`` call sets (builders)."""
        raise NotImplementedError

    def _arguments(self, call: ast.Call, scope: Scope, values: dict[str, Value]) -> Args:
        args = Args()
        for arg in call.args:
            if isinstance(arg, ast.Starred):
                held = values.get(arg.value.id) if isinstance(arg.value, ast.Name) else None
                if not isinstance(held, Star):
                    raise Fail
                args.positional.extend(held.items)
            else:
                args.positional.append(self._value(arg, scope, values))
        for keyword in call.keywords:
            if keyword.arg is None:
                name = keyword.value
                held = values.get(name.id) if isinstance(name, ast.Name) else None
                if not isinstance(held, Kw):
                    raise Fail
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
        if isinstance(expr, ast.Name) and expr.id in scope.caught and expr.id not in scope.env:
            return Text(MessageTemplate.expression(expr.id), caught=True, not_none=True)
        found = self.templates(expr, scope)
        not_none = surely_not_none(expr, scope, self._is_class_expr)
        if len(found) == 1 or (
            found and scope.bound_self is None and len(found) <= MAX_ALTERNATIVES
        ):
            # at the raise, the others are built by built_by_class
            return Text(found[0], not_none=not_none or not found[0].is_opaque)
        return Text(MessageTemplate.expression(self.expr_text(expr)), not_none=not_none)

    def _bind_params(
        self, fn: Function, args: Args, is_method: bool, qualname: str
    ) -> dict[str, Value]:
        """The callee's parameters bound as the interpreter binds them; Fail if they do not."""
        spec = fn.args
        positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
        if is_method:
            if not positional:
                raise Fail
            positional = positional[1:]
        defaults = dict(zip(reversed(positional), reversed(spec.defaults), strict=False))
        kwonly = {a.arg: d for a, d in zip(spec.kwonlyargs, spec.kw_defaults, strict=True)}
        bound: dict[str, Value] = {}
        given = list(args.positional)
        for name in positional:
            if given:
                bound[name] = given.pop(0)
        if given and spec.vararg is None:
            raise Fail  # more arguments than parameters
        if spec.vararg is not None:
            bound[spec.vararg.arg] = Star(tuple(given))
        extra: dict[str, Value] = {}
        for name, value in args.keywords.items():
            if (name in positional or name in kwonly) and name not in bound:
                bound[name] = value
            elif spec.kwarg is not None and name not in bound:
                extra[name] = value
            else:
                raise Fail
        if spec.kwarg is not None:
            bound[spec.kwarg.arg] = Kw(tuple(extra.items()))
        for name in [*positional, *kwonly]:
            if name in bound:
                continue
            default = defaults.get(name) if name in defaults else kwonly.get(name)
            if default is None:
                raise Fail  # a required parameter the call does not give
            bound[name] = self._value(default, empty_scope(qualname), {})
        return bound

    # -- running a callee -----------------------------------------------------------------

    def _frame(
        self,
        fn: Function,
        args: Args,
        binding: SelfBinding | None,
        defining: ClassRef | None,
        notes: list[str],
    ) -> Frame:
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
        return Frame(self, scope, values, binding, defining, notes)

    def _walk_to(
        self, body: Sequence[ast.stmt], frame: Frame, mro: list[Node] | None
    ) -> ast.expr | Stop | None:
        """Run statements: the returned expression (a helper), ``STOP`` at a return from
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
                    return STOP
                if stmt.value is None:
                    raise Fail
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
                    if not self._both_ways(stmt, frame, mro):
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
                raise Fail
            elif isinstance(stmt, (ast.Pass, ast.Expr, ast.Assert, ast.Import, ast.ImportFrom)):
                continue
            else:
                self._unknown(stmt, frame)
        return None

    def _both_ways(self, stmt: ast.If, frame: Frame, mro: list[Node] | None) -> bool:
        """An ``if`` of an ``__init__`` or method not decided: run each branch (see
        :mod:`.branches`); False, with the frame as it was, when that cannot be done."""
        from .branches import join, restore, snapshot

        binding = frame.binding
        if binding is None:
            return False
        start = snapshot(frame, binding)
        ends = []
        for branch in (stmt.body, stmt.orelse):
            try:
                if self._walk_to(branch, frame, mro) is not None:
                    restore(frame, binding, start)
                    return False  # a ``return`` on one way only
                ends.append(snapshot(frame, binding))
            except Fail:
                if not (branch and isinstance(branch[-1], ast.Raise)):
                    restore(frame, binding, start)
                    return False
                # this way raises something else: the exception built is the other way's
            restore(frame, binding, start)
        if not ends or not join(frame, binding, ends):
            restore(frame, binding, start)
            return False
        return True

    def _set_attributes(
        self, stmt: ast.Assign | ast.AnnAssign | ast.AugAssign, frame: Frame
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
            if value is not None and self._known(value, frame) is NONE:
                binding.nones.add(target.attr)
            else:
                binding.nones.discard(target.attr)
            if value is not None and self._not_none(value, frame):
                binding.not_nones.add(target.attr)
            else:
                binding.not_nones.discard(target.attr)
            if isinstance(value, ast.IfExp):
                # ``f"{context}.{inner}" if context else inner``: the way the test decides
                decided = self._decide(value.test, frame)
                value = value if decided is None else (value.body if decided else value.orelse)
            found = self.templates(value, frame.scope) if value is not None else []
            binding.choices.pop(target.attr, None)
            binding.attrs.pop(target.attr, None)
            if len(found) == 1:
                binding.attrs[target.attr] = found[0]
            elif 1 < len(found) <= MAX_ALTERNATIVES:
                binding.choices[target.attr] = found

    def _mutated(self, call: ast.Call, frame: Frame) -> None:
        """``parts.append(x)``: a method call may change the local it is called on."""
        func = call.func
        if isinstance(func, ast.Attribute) and isinstance(func.value, ast.Name):
            name = func.value.id
            if name != "self":
                frame.values.pop(name, None)
                frame.scope.env[name] = (Fixed(MessageTemplate.expression(name)),)
            elif frame.binding is not None:
                frame.binding.attrs.clear()  # a method of self may set any attribute
                frame.binding.choices.clear()
                frame.binding.not_nones.clear()

    def _unknown(self, stmt: ast.AST, frame: Frame) -> None:
        """A statement not followed: what it may return ends the chain, what it binds is unknown."""
        for node in walk(stmt):
            if isinstance(node, (ast.Return, ast.Yield, ast.YieldFrom)):
                raise Fail
            if (
                isinstance(node, ast.Expr)
                and isinstance(node.value, ast.Call)
                and isinstance(node.value.func, ast.Attribute)
                and node.value.func.attr == "__init__"
            ):
                raise Fail  # a base ``__init__`` called on one path only
            if isinstance(node, ast.Name) and isinstance(node.ctx, ast.Store):
                frame.values.pop(node.id, None)
                frame.scope.env[node.id] = (Fixed(MessageTemplate.expression(node.id)),)
            if (
                isinstance(node, ast.Attribute)
                and isinstance(node.ctx, ast.Store)
                and isinstance(node.value, ast.Name)
                and node.value.id == "self"
                and frame.binding is not None
            ):
                frame.binding.attrs.pop(node.attr, None)  # set on a path not followed
                frame.binding.choices.pop(node.attr, None)
                frame.binding.nones.discard(node.attr)
                frame.binding.not_nones.discard(node.attr)

    def _decide(self, test: ast.expr, frame: Frame) -> bool | None:
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
            attr = _self_attr(test.left)
            binding = frame.binding
            if known is None and attr is not None and binding and attr in binding.not_nones:
                return isinstance(test.ops[0], ast.IsNot)  # ``OptionError(msg, self)``
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
            strings = [isinstance(n, ast.Name) and n.id == "str" for n in names]
            if isinstance(known, Text) and known.caught:
                # a caught exception is no string; which class it is, is not known
                return False if all(strings) else None
            return any(strings) if isinstance(known, Text) else None
        attr = _self_attr(test)
        if attr is not None and frame.binding is not None:
            # ``if self.context:`` with ``__init__`` having set it to None, or to text
            if attr in frame.binding.nones:
                return False
            one = frame.binding.attrs.get(attr)
            held = frame.binding.choices.get(attr) or ([one] if one is not None else [])
            # a stored ``False`` or ``0`` shows as text too: only text surely true decides
            if held and all(_is_true_text(t) for t in held):
                return True
            return None
        if isinstance(test, ast.Name):
            # ``if context:``: None is false, text with letters of its own is true
            known = self._known(test, frame)
            if known is NONE:
                return False
            if isinstance(known, Text) and not known.caught and _is_true_text(known.template):
                return True
        return None

    def _known(self, expr: ast.expr, frame: Frame) -> Value | None:
        """The value of a name when it is known to be None or text; None when it is not."""
        if isinstance(expr, ast.Constant) and expr.value is None:
            return NONE
        attr = _self_attr(expr)
        if attr is not None and frame.binding is not None and attr in frame.binding.nones:
            return NONE
        if not isinstance(expr, ast.Name):
            return None
        if expr.id in frame.values:
            value = frame.values[expr.id]
            return value if isinstance(value, (Text, NoneType)) else None
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

    def _not_none(self, expr: ast.expr, frame: Frame) -> bool:
        """Whether what ``expr`` holds in ``frame`` is surely not None: a parameter the
        caller filled with such a value, or an expression that never gives None."""
        if isinstance(expr, ast.Name) and expr.id in frame.values:
            value = frame.values[expr.id]
            return isinstance(value, Text) and value.not_none
        return surely_not_none(expr, frame.scope, self._is_class_expr)

    # -- ``self.messages[key]``, ``self.message`` -------------------------------------------


def _self_attr(expr: ast.expr) -> str | None:
    """``x`` of ``self.x``; None for any other expression."""
    if isinstance(expr, ast.Attribute) and isinstance(expr.value, ast.Name):
        return expr.attr if expr.value.id == "self" else None
    return None


def _is_true_text(template: MessageTemplate) -> bool:
    """Whether a value shown so is surely true, whether it is the text or a constant whose
    ``str()`` it is: not empty, not a falsy constant's ``str()`` (``False``, ``0``), and a
    number only when not zero (``"0"`` is true as text, ``0`` false as a number)."""
    if template.is_opaque or not template.display:
        return False
    shown = template.display.strip()
    if shown in ("False", "None", "()", "[]", "{}", "set()"):
        return False
    try:
        return float(shown) != 0
    except ValueError:
        return True


def _assigned(stmt: ast.stmt) -> list[str]:
    return [n.id for n in walk(stmt) if isinstance(n, ast.Name) and isinstance(n.ctx, ast.Store)]


def aliased_init(call: ast.Call, defining: ClassRef | None) -> ast.Call:
    """``self.__super_init(fp, hdrs, url, code)`` with ``__super_init = Base.__init__`` in
    the class body (urllib's ``HTTPError``): the call ``Base.__init__(self, fp, …)``."""
    func = call.func
    if not (
        defining is not None
        and isinstance(func, ast.Attribute)
        and isinstance(func.value, ast.Name)
        and func.value.id == "self"
    ):
        return call
    for stmt in defining.node.body:
        if (
            isinstance(stmt, ast.Assign)
            and len(stmt.targets) == 1
            and isinstance(stmt.targets[0], ast.Name)
            and stmt.targets[0].id == func.attr
            and isinstance(stmt.value, ast.Attribute)
            and stmt.value.attr == "__init__"
        ):
            return ast.Call(func=stmt.value, args=[func.value, *call.args], keywords=call.keywords)
    return call


def mro_position(mro: list[Node], node: Node | None) -> int:
    """Where ``node`` stands in ``mro`` (-1: not there)."""
    for i, n in enumerate(mro):
        if node is not None and (
            n is node
            or (isinstance(n, ClassRef) and isinstance(node, ClassRef) and n.node is node.node)
        ):
            return i
    return -1


def empty_scope(qualname: str) -> Scope:
    return Scope(qualname, None, None, {}, set(), None)
