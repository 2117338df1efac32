"""The class of a raise whose class an attribute of ``self`` holds.

jinja2's ``Undefined.__init__(self, hint=None, obj=missing, name=None, exc=UndefinedError)``
keeps ``self._undefined_exception = exc``, and ``_fail_with_undefined_error`` raises
``self._undefined_exception(self._undefined_message)``: the line names no class, the
``__init__`` parameter's default does (and each class a resolved call passes instead,
:mod:`.passed`). Only an attribute that one ``__init__`` of the class (or of a base in the
same module) assigns, once, straight from a parameter, and that nothing else in the module
assigns, is read so.
"""

from __future__ import annotations

import ast

from .attributes import assigned_to_self
from .callers import Function, _parameters
from .hierarchy import ClassRef, HierarchyReader, method_of
from .scope import Scope
from .subtree import walked

__all__ = ["default_of", "held_default", "held_parameter", "passing_calls"]


def held_parameter(
    reader: HierarchyReader, exc: ast.expr, scope: Scope
) -> tuple[Function, str, str] | None:
    """(the ``__init__``, its parameter, the class defining it) whose value ``raise
    self.<attr>(…)`` calls; None for any other raise."""
    if not (
        isinstance(exc, ast.Call)
        and isinstance(exc.func, ast.Attribute)
        and isinstance(exc.func.value, ast.Name)
        and exc.func.value.id == "self"
        and scope.class_name
    ):
        return None
    attr = exc.func.attr
    assigned = [
        (cls, fn, value)
        for (cls, _), fn in reader.methods.items()
        for value in assigned_to_self(fn, attr)
    ]
    if len(assigned) != 1 or not isinstance(assigned[0][2], ast.Name):
        return None
    cls, init, value = assigned[0]
    assert isinstance(value, ast.Name)
    if init.name != "__init__" or value.id not in _parameters(init):
        return None
    if not _inherits(reader, scope.class_name, cls):
        return None
    if any(
        isinstance(node, ast.Name) and node.id == value.id and isinstance(node.ctx, ast.Store)
        for node in walked(init)
    ):
        return None  # the parameter is rebound before it is kept
    return init, value.id, cls


def _inherits(reader: HierarchyReader, name: str, base: str, depth: int = 0) -> bool:
    """Whether this module's class ``name`` is ``base`` or derives from it in this module."""
    if name == base:
        return True
    node = reader.classes.get(name)
    if node is None or depth > 8:
        return False
    return any(
        isinstance(b, ast.Name) and _inherits(reader, b.id, base, depth + 1) for b in node.bases
    )


def held_default(reader: HierarchyReader, class_name: str, attr: str) -> str | None:
    """The class ``self.<attr>`` holds in a method of ``class_name`` (of ``reader``'s
    module) when an ``__init__`` of its MRO keeps it from a parameter whose default is a
    class (jinja2's ``Environment.__init__(…, undefined=Undefined)``): that class,
    qualified; None otherwise."""
    ref = reader.class_ref(f"{reader.module}.{class_name}")
    mro = ref.reader.mro(ref) if ref is not None else None
    for node in mro or ():
        if not isinstance(node, ClassRef):
            continue
        init = method_of(node, "__init__")
        if init is None:
            continue
        kept = assigned_to_self(init, attr)
        if not kept:
            continue  # this ``__init__`` leaves it to a base's
        if len(kept) != 1 or not isinstance(kept[0], ast.Name):
            return None
        default = default_of(init, kept[0].id)
        return node.reader.qualify(default) if default is not None else None
    return None


def passing_calls(
    reader: HierarchyReader, target: str, param: str
) -> list[tuple[ast.Call, ast.expr, Function]]:
    """The calls in ``reader``'s module of the class ``target`` that pass ``param`` by
    keyword: ``Undefined(…, exc=X)``, or ``self.undefined(…, exc=X)`` where the method's
    class keeps ``target`` in ``self.undefined`` (:func:`held_default`). (call, X, the
    method it is in) each."""
    out: list[tuple[ast.Call, ast.expr, Function]] = []
    for (cls, _), fn in reader.methods.items():
        for node in walked(fn):
            if not isinstance(node, ast.Call):
                continue
            given = next((k.value for k in node.keywords if k.arg == param), None)
            if given is None:
                continue
            func = node.func
            if reader.qualify(func) == target or (
                isinstance(func, ast.Attribute)
                and isinstance(func.value, ast.Name)
                and func.value.id == "self"
                and held_default(reader, cls, func.attr) == target
            ):
                out.append((node, given, fn))
    return out


def default_of(fn: Function, param: str) -> ast.expr | None:
    """The default value of ``fn``'s parameter ``param``, or None."""
    spec = fn.args
    positional = [a.arg for a in [*spec.posonlyargs, *spec.args]]
    defaults = dict(zip(reversed(positional), reversed(spec.defaults), strict=False))
    kwonly = {a.arg: d for a, d in zip(spec.kwonlyargs, spec.kw_defaults, strict=True)}
    return defaults.get(param) or kwonly.get(param)


def kept_from(init: Function) -> dict[str, str]:
    """``self.<attr> = <param>`` statements of ``init``'s own body: param -> attr."""
    params = set(_parameters(init))
    out: dict[str, str] = {}
    for stmt in init.body:
        if (
            isinstance(stmt, (ast.Assign, ast.AnnAssign))
            and isinstance(stmt.value, ast.Name)
            and stmt.value.id in params
        ):
            targets = stmt.targets if isinstance(stmt, ast.Assign) else [stmt.target]
            for t in targets:
                if isinstance(t, ast.Attribute) and _is_self(t.value):
                    out.setdefault(stmt.value.id, t.attr)
    return out


def _is_self(node: ast.expr) -> bool:
    return isinstance(node, ast.Name) and node.id == "self"
