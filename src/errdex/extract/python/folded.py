"""Holes whose value is a constant of the code: the text the runtime prints there.

``'nargs must be %r to supply const' % OPTIONAL``, with ``OPTIONAL = '?'`` bound once
at the top of argparse, always prints ``nargs must be '?' to supply const``: the hole
holds no value of the call, so the template says what Python prints (blind review of
stop 35). A value is a constant when the expression is a literal, a name bound once to
one (in the function, else at the module's top level and settled there:
:func:`~.module_globals.settled_global`), or ``Cls.NAME`` / ``self.NAME`` bound once in
a class body and settled (:func:`~.settled.settled_in_class`). Its text is computed as
Python does: ``%r``/``{!r}``/``repr()`` apply ``repr``, ``%s``/``{}``/``str()`` apply
``str``, a literal format spec applies ``format``.
"""

from __future__ import annotations

import ast
import re
from collections import Counter
from collections.abc import Callable
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from errdex.template import Hole, Literal, MessageTemplate

from .module_globals import settled_global
from .params import parameter_names
from .scope import LAZY, Scope

if TYPE_CHECKING:
    from .messages import MessageBuilder

__all__ = [
    "MISSING",
    "call_constant",
    "constant_value",
    "field_text",
    "format_filled",
    "fstring_constant",
    "percent_text",
]

#: What :func:`constant_value` answers for an expression whose value is not a constant.
MISSING = object()
#: Literal values whose ``str``/``repr``/``format`` do not depend on the run.
_KINDS = (str, bytes, int, float, bool, type(None))
#: A ``str.format`` field as :meth:`MessageTemplate.from_format` writes it.
_FORMAT_FIELD = re.compile(r"\{(?P<field>[^!:{}]*)(?P<rest>(?:![rsa])?(?::[^{}]*)?)\}")
#: A function's stores by name and every name it binds (:func:`_bindings`).
_BINDINGS: WeakKeyDictionary[ast.AST, tuple[Counter[str], frozenset[str]]] = WeakKeyDictionary()


def constant_value(reader: MessageBuilder, node: ast.expr, scope: Scope) -> object:
    """The literal value ``node`` has on every run, else :data:`MISSING`."""
    if isinstance(node, ast.Constant):
        return node.value if isinstance(node.value, _KINDS) else MISSING
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, (ast.USub, ast.UAdd)):
        inner = constant_value(reader, node.operand, scope)
        if isinstance(inner, (int, float)) and not isinstance(inner, bool):
            return -inner if isinstance(node.op, ast.USub) else inner
        return MISSING
    if isinstance(node, ast.Name):
        return _name_value(reader, node.id, scope)
    if isinstance(node, ast.Attribute) and isinstance(node.value, ast.Name):
        return _class_value(reader, node.value.id, node.attr, scope)
    return MISSING


def _name_value(reader: MessageBuilder, name: str, scope: Scope) -> object:
    """A name bound once to a literal where the function reads it: in the function
    itself (as far as the walk replayed it), else at the module's top level, settled.
    A name any enclosing function binds (a parameter, a loop variable) is not read
    further: its value is the call's."""
    fn = scope.node
    # bound once, and no parameter: ``n = 0`` with ``n += 1`` later in a loop, or
    # ``if method is None: method = "mehlhorn"``, may leave another value at the raise
    # (a Cython scope's node is Cython's own, not Python's ast: its stores are not read)
    once = (
        isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef))
        and _stores(fn)[name] == 1
        and name not in _parameters(fn)
    )
    if scope.env is not LAZY or once:
        local = scope.env.get(name)  # (LAZY: the walk replays the function, then asks again)
        if local is not None:
            return _literal(local) if once else MISSING
    outer: Scope | None = scope
    while outer is not None:
        if isinstance(outer.node, ast.AST) and name in _assigned_names(outer.node):
            return MISSING
        outer = outer.outer[0] if outer.outer is not None else None
    bound = reader.module_env.get(name)
    if bound is None or not settled_global(reader, name, scope):
        return MISSING
    return _literal(bound)


def _stores(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> Counter[str]:
    """How many statements of the function (nested ones included) store each name."""
    return _bindings(fn)[0]


def _parameters(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> set[str]:
    return set(parameter_names(fn.args))


def _assigned_names(fn: ast.AST) -> frozenset[str]:
    """Every name the function (or a function in it) binds, parameters included."""
    return _bindings(fn)[1]


def _bindings(fn: ast.AST) -> tuple[Counter[str], frozenset[str]]:
    """:func:`_stores` and :func:`_assigned_names` of one function, from one walk of it
    (a name in a message asks for both), kept while its tree lives."""
    found = _BINDINGS.get(fn)
    if found is not None:
        return found
    stores: Counter[str] = Counter()
    names: set[str] = set()
    for n in ast.walk(fn):
        if isinstance(n, ast.Name):
            if not isinstance(n.ctx, ast.Load):
                stores[n.id] += 1
            if isinstance(n.ctx, (ast.Store, ast.Del)):
                names.add(n.id)
        elif isinstance(n, ast.arg):
            names.add(n.arg)
        elif isinstance(n, ast.ExceptHandler) and n.name:
            names.add(n.name)
        elif isinstance(n, (ast.Import, ast.ImportFrom)):
            names.update((a.asname or a.name).partition(".")[0] for a in n.names)
        elif isinstance(n, (ast.FunctionDef, ast.AsyncFunctionDef, ast.ClassDef, ast.MatchAs)):
            names.add(n.name or "")  # a nested def or class, a ``case`` capture
        elif isinstance(n, ast.MatchStar) and n.name:
            names.add(n.name)
    found = _BINDINGS[fn] = (stores, frozenset(names))
    return found


def _literal(bound: tuple[object, ...] | list[object]) -> object:
    """The value of the one binding, when it is a literal (``-3`` included)."""
    if len(bound) != 1:
        return MISSING
    node = bound[0]
    sign = 1
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.USub):
        node, sign = node.operand, -1
    if not isinstance(node, ast.Constant) or not isinstance(node.value, _KINDS):
        return MISSING
    if sign == 1:
        return node.value
    number = node.value
    return -number if isinstance(number, (int, float)) and not isinstance(number, bool) else MISSING


def _class_value(reader: MessageBuilder, owner: str, attr: str, scope: Scope) -> object:
    """``Cls.NAME`` (a class of this module) or ``self.NAME`` in its method: the literal
    the class body binds, when nothing else in the package may set it."""
    from .hierarchy import ClassRef, HierarchyReader, class_binding, method_of  # below us
    from .settled import settled_in_class

    if not isinstance(reader, HierarchyReader):
        return MISSING
    exact = owner in reader.classes and owner not in reader.module_env
    if exact:
        class_name = owner
    elif owner == "self" and _plain_method(scope):
        class_name = scope.class_name or ""
    else:
        return MISSING
    node = reader.classes.get(class_name)
    if node is None:
        return MISSING
    ref = ClassRef(reader, node)
    for defining in reader.mro(ref) or ():
        if not isinstance(defining, ClassRef):
            if attr in vars(defining):
                return MISSING
            continue
        if method_of(defining, attr) is not None:
            return MISSING  # a method or property
        stmt = class_binding(defining, attr)
        if stmt is None:
            continue
        if not settled_in_class(ref, defining, attr, exact):
            return MISSING
        if not exact and any(  # a subclass of this module may bind it again
            class_binding(sub, attr) is not None or method_of(sub, attr) is not None
            for sub in reader.subclasses(ref)
        ):
            return MISSING
        return _literal([stmt.value]) if stmt.value is not None else MISSING
    return MISSING


def _plain_method(scope: Scope) -> bool:
    """A method whose first parameter is ``self`` (not a static or class method)."""
    fn = scope.node
    if fn is None or scope.class_name is None or scope.outer is not None:
        return False
    if not isinstance(fn, (ast.FunctionDef, ast.AsyncFunctionDef)):
        return False  # a Cython method (DefNode/CFuncDefNode): ``self.X`` is not folded
    params = [*fn.args.posonlyargs, *fn.args.args]
    decorated = any(
        isinstance(d, ast.Name) and d.id in ("staticmethod", "classmethod")
        for d in fn.decorator_list
    )
    return bool(params) and params[0].arg == "self" and not decorated


def percent_text(hole: Hole, value: object) -> str | None:
    """What ``%`` prints for ``hole`` given ``value``; None where it would fail or
    depends on more than the value (``%*d``)."""
    if value is MISSING or "*" in hole.text:
        return None
    try:
        if hole.text.startswith("%("):
            return hole.text % {hole.name: value}
        return hole.text % (value,)
    except (TypeError, ValueError, KeyError, OverflowError):
        return None


def field_text(value: object, conversion: int, spec: str) -> str | None:
    """What an f-string field (``{X!r:>5}``) prints for ``value``; None where it fails."""
    if value is MISSING:
        return None
    shown = (
        repr(value) if conversion == ord("r") else ascii(value) if conversion == ord("a") else value
    )
    try:
        return format(shown, spec)
    except (TypeError, ValueError):
        return None


def fstring_constant(
    reader: MessageBuilder, value: ast.FormattedValue, scope: Scope
) -> MessageTemplate | None:
    """An f-string field whose value is a constant and whose spec is literal text."""
    spec = value.format_spec
    text = ""
    if spec is not None:
        if not isinstance(spec, ast.JoinedStr) or not all(
            isinstance(v, ast.Constant) and isinstance(v.value, str) for v in spec.values
        ):
            return None
        text = "".join(v.value for v in spec.values)  # type: ignore[attr-defined]
    shown = field_text(constant_value(reader, value.value, scope), value.conversion, text)
    return None if shown is None else MessageTemplate.literal(shown)


def format_filled(
    reader: MessageBuilder, template: MessageTemplate, call: ast.Call, scope: Scope
) -> MessageTemplate:
    """``'{} must be {!r}'.format(NAME, OPTIONAL)``: each field whose argument is a
    constant takes the text ``format`` prints for it; the others stay holes."""
    if any(isinstance(a, ast.Starred) for a in call.args) or any(
        k.arg is None for k in call.keywords
    ):
        return template
    keywords = {k.arg: k.value for k in call.keywords if k.arg is not None}
    parts = []
    for part in template.parts:
        m = _FORMAT_FIELD.fullmatch(part.text) if isinstance(part, Hole) else None
        if m is None or not isinstance(part, Hole):
            parts.append(part)
            continue
        field = m.group("field") or part.name
        arg = (
            call.args[int(field)]
            if field.isdigit() and int(field) < len(call.args)
            else keywords.get(field)
        )
        value = MISSING if arg is None else constant_value(reader, arg, scope)
        try:
            shown = None if value is MISSING else ("{0" + m.group("rest") + "}").format(value)
        except (TypeError, ValueError):
            shown = None
        parts.append(part if shown is None else Literal(shown))
    return MessageTemplate(parts)


#: Builtins that turn one value into its text.
_TEXT_CALLS: dict[str, Callable[[object], str]] = {"repr": repr, "str": str, "ascii": ascii}


def call_constant(reader: MessageBuilder, call: ast.Call, scope: Scope) -> MessageTemplate | None:
    """``repr(OPTIONAL)``, ``str(RATE)``, ``format(RATE, '.2f')`` of a constant: its text.
    The builtin must be the builtin (not bound in the module or the function)."""
    func = call.func
    if not isinstance(func, ast.Name) or call.keywords or not call.args:
        return None
    name = func.id
    if name not in (*_TEXT_CALLS, "format") or name in reader.imports:
        return None
    if name in reader.functions or name in reader.module_env:
        return None
    if scope.node is not None and (
        not isinstance(scope.node, ast.AST) or name in _assigned_names(scope.node)
    ):
        return None  # (a Cython scope: what its function binds is not read here)
    value = constant_value(reader, call.args[0], scope)
    if value is MISSING:
        return None
    if name in _TEXT_CALLS and len(call.args) == 1:
        if name == "str" and isinstance(value, bytes):
            return None  # ``str(b'x')`` warns under -b; leave it to the runtime
        return MessageTemplate.literal(_TEXT_CALLS[name](value))
    spec = call.args[1] if len(call.args) == 2 else None
    if name == "format" and isinstance(spec, ast.Constant) and isinstance(spec.value, str):
        shown = field_text(value, -1, spec.value)
        return None if shown is None else MessageTemplate.literal(shown)
    return None
