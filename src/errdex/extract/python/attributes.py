"""``self.x`` and ``self.x[key]`` read in a method, where the class hierarchy says
what they hold: a class attribute of the MRO, the one value an ``__init__`` assigns, or
the per-class dicts an ``__init__`` merges along ``__mro__`` (marshmallow's
``default_error_messages``)."""

from __future__ import annotations

import ast
from weakref import WeakKeyDictionary

from .frames import SelfBinding, Text, empty_scope
from .hierarchy import ClassRef, HierarchyReader, class_attribute, method_of
from .messages import Templates
from .scope import Scope
from .settled import settled_in_class, settled_name
from .subtree import statements, walk

__all__ = ["assigned_to_self", "instance_attribute", "lookup_key"]

_BY_ATTRIBUTE: WeakKeyDictionary[ast.AST, dict[str, list[ast.expr]]] = WeakKeyDictionary()


def lookup_key(ref: ClassRef, attr: str, key: str) -> tuple[HierarchyReader, ast.expr] | None:
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
                    return node.reader, v
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
                for s in statements(init)
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
        for loop in statements(init):
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


def instance_attribute(binding: SelfBinding, attr: str) -> Templates | None:
    """``self.<attr>`` read in a method: a class attribute of the MRO, or the one value an
    ``__init__`` of the MRO assigns it (its parameters unknown: holes)."""
    ref = binding.ref
    mro = ref.reader.mro(ref)
    # a property of the class wins over what an ``__init__`` may assign
    defining = next(
        (
            n
            for n in mro or ()
            if isinstance(n, ClassRef)
            and (method_of(n, attr) is not None or class_attribute(n, attr) is not None)
        ),
        None,
    )
    if defining is not None and _returns_first_arg(method_of(defining, attr)):
        return _first_arg(binding)
    for node in mro or ():
        if not isinstance(node, ClassRef):
            if attr in vars(node):
                return None
            continue
        if method_of(node, attr) is not None:
            return None  # a method or property: not a value the body binds
        value = class_attribute(node, attr)
        if value is not None:
            if not settled_in_class(ref, node, attr, binding.exact):
                return None  # a default an instance may replace (pandas' ``Index._name``)
            binding.used = True
            return node.reader.templates(value, empty_scope(""))
        init = method_of(node, "__init__")
        if init is None:
            continue
        assigned = assigned_to_self(init, attr)
        if len(assigned) != 1 or not settled_name(ref, attr, binding.exact, known=1):
            return None
        value = assigned[0]
        if any(isinstance(n, ast.Name) and n.id == "self" for n in walk(value)) and not (
            isinstance(value, ast.BoolOp)
        ):
            return None
        binding.used = True
        scope = Scope(
            f"{node.node.name}.__init__", "__init__", node.node.name, {}, set(), init, None, binding
        )
        return node.reader.templates(value, scope)
    return None


def _returns_first_arg(fn: ast.FunctionDef | ast.AsyncFunctionDef | None) -> bool:
    """A property returning ``self.args[0]`` (or ``self.args[0] if self.args else None``:
    jinja2's ``TemplateError.message``)."""
    if fn is None or len(fn.body) != 1 or not isinstance(fn.body[0], ast.Return):
        return False
    if not any(isinstance(d, ast.Name) and d.id == "property" for d in fn.decorator_list):
        return False
    value = fn.body[0].value
    if isinstance(value, ast.IfExp):
        if not (_is_self_args(value.test) and isinstance(value.orelse, ast.Constant)):
            return False
        value = value.body
    return (
        isinstance(value, ast.Subscript)
        and _is_self_args(value.value)
        and isinstance(value.slice, ast.Constant)
        and value.slice.value == 0
    )


def _is_self_args(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Attribute)
        and node.attr == "args"
        and isinstance(node.value, ast.Name)
        and node.value.id == "self"
    )


def _first_arg(binding: SelfBinding) -> Templates | None:
    """``self.args[0]``: the text of the one positional argument the last base
    ``__init__`` was given, when that is all it was given; else not known."""
    given = binding.base_args
    if binding.sets_args or given is None or given.keywords or len(given.positional) != 1:
        return None
    (value,) = given.positional
    if not isinstance(value, Text) or value.caught:
        return None
    binding.used = True
    return [value.template]


def assigned_to_self(fn: ast.FunctionDef | ast.AsyncFunctionDef, attr: str) -> list[ast.expr]:
    """The values of every ``self.<attr> = value`` (annotated or not) in ``fn``."""
    return list(_self_assignments(fn).get(attr, ()))


def _self_assignments(fn: ast.FunctionDef | ast.AsyncFunctionDef) -> dict[str, list[ast.expr]]:
    """Each attribute's values of ``self.<attr> = value`` in ``fn``, in ``ast.walk``'s
    order; made once per function, as a raise of ``self.<attr>(…)`` asks every method."""
    found = _BY_ATTRIBUTE.get(fn)
    if found is not None:
        return found
    found = _BY_ATTRIBUTE[fn] = {}
    for s in statements(fn):
        if not isinstance(s, (ast.Assign, ast.AnnAssign)) or s.value is None:
            continue
        attrs = {  # a value kept under two targets of one attribute counts once
            t.attr: None
            for t in (s.targets if isinstance(s, ast.Assign) else [s.target])
            if isinstance(t, ast.Attribute)
            and isinstance(t.value, ast.Name)
            and t.value.id == "self"
        }
        for attr in attrs:
            found.setdefault(attr, []).append(s.value)
    return found
