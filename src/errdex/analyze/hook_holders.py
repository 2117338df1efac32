"""Whether an attribute of ``self`` can hold an object whose method is a given override.

``Holder.run`` calls ``self._meter.check()``: that reaches ``Strict.check`` only if
``self._meter`` can be a ``Strict``. A call matched by the method's name alone said "the
object it calls `check` on is a `Strict`" of a ``Meter()`` (read-only review, session
38). The evidence is read from what the holder's class (and its bases) store in the
attribute: an instance of the override's class (or a subclass) keeps the hook; so does
an instance of a base of it when a parameter may put the override's class there instead
(``ConfigParser(interpolation=ExtendedInterpolation())``), and only while that class is
public. Anything else, or nothing readable, drops it.
"""

from __future__ import annotations

import ast
import os
from dataclasses import dataclass, field

from .ancestors import lineage
from .entrypoints import PublicApi
from .facts import dotted
from .file_trees import module_tree
from .repo import RepoIndex

__all__ = ["can_hold"]

#: Classes walked up from the holder, at most.
_MAX_CLASSES = 16
_Function = ast.FunctionDef | ast.AsyncFunctionDef


@dataclass(slots=True)
class _Stores:
    """What ``self.<attr>`` is given: classes instantiated, and whether a parameter (a
    value or a factory) can choose it."""

    built: set[str] = field(default_factory=set)
    chosen: bool = False  # a parameter stored or called there


def _class_node(index: RepoIndex, cls: str) -> tuple[ast.ClassDef, str] | None:
    facts = index.classes.get(cls)
    module = index.modules.get(facts.module) if facts is not None else None
    if facts is None or module is None or not index.root:
        return None
    tree = module_tree(os.path.join(index.root, module.rel))
    if tree is None:
        return None
    for node in ast.walk(tree):
        if isinstance(node, ast.ClassDef) and node.name == facts.name and node.lineno == facts.line:
            return node, facts.module
    return None


def _class_of(index: RepoIndex, module: str, node: ast.expr | None) -> str | None:
    ref = dotted(node) if node is not None else None
    if not ref or ref[0] in ("self", "", "super()"):  # a name's attribute chain only
        return None
    target = index.resolve(module, ref)
    return target.qualname if target is not None and target.kind == "class" else None


_Param = tuple[ast.expr | None, ast.expr | None]


def _params(func: _Function) -> dict[str, _Param]:
    """Parameter -> (its default, its annotation), None where it has none."""
    args = func.args
    plain = [*args.posonlyargs, *args.args]
    every = (*plain, *args.kwonlyargs)
    out: dict[str, _Param] = {a.arg: (None, a.annotation) for a in every}
    for arg, default in zip(plain[len(plain) - len(args.defaults) :], args.defaults, strict=True):
        out[arg.arg] = (default, arg.annotation)
    for arg, kw_default in zip(args.kwonlyargs, args.kw_defaults, strict=True):
        out[arg.arg] = (kw_default, arg.annotation)
    return out


def _table_classes(
    index: RepoIndex, module: str, head: ast.Subscript, params: dict[str, _Param]
) -> set[str]:
    """The classes of a module-level dict that a subscript keyed by a parameter calls
    (``_STYLES[style][0]``, ``_STYLES = {"%": (PercentStyle, …), "{": …}``)."""
    keys: list[ast.expr] = []
    node: ast.expr = head
    while isinstance(node, ast.Subscript):
        keys.append(node.slice)
        node = node.value
    picked = any(isinstance(n, ast.Name) and n.id in params for k in keys for n in ast.walk(k))
    facts = index.modules.get(module)
    if not picked or not isinstance(node, ast.Name) or facts is None or not index.root:
        return set()
    tree = module_tree(os.path.join(index.root, facts.rel))
    found: set[str] = set()
    for stmt in tree.body if tree is not None else []:
        if not (isinstance(stmt, ast.Assign) and isinstance(stmt.value, ast.Dict)):
            continue
        if not any(isinstance(t, ast.Name) and t.id == node.id for t in stmt.targets):
            continue
        for item in stmt.value.values:
            parts = item.elts if isinstance(item, (ast.Tuple, ast.List)) else [item]
            found.update(c for p in parts if (c := _class_of(index, module, p)) is not None)
    return found


def _body_values(cls: ast.ClassDef, name: str) -> list[ast.expr]:
    """What the class body binds ``name`` to."""
    return [
        stmt.value
        for stmt in cls.body
        if isinstance(stmt, ast.Assign)
        and any(isinstance(t, ast.Name) and t.id == name for t in stmt.targets)
    ]


def _read_value(
    index: RepoIndex,
    module: str,
    cls: ast.ClassDef,
    value: ast.expr,
    params: dict[str, _Param],
    out: _Stores,
) -> None:
    """Adds what storing ``value`` tells: a class called (directly, or as a parameter's
    default factory), a parameter stored (its default's class, or its annotation's)."""
    if isinstance(value, ast.IfExp):
        for part in (value.body, value.orelse):
            _read_value(index, module, cls, part, params, out)
    elif isinstance(value, ast.BoolOp):
        for part in value.values:
            _read_value(index, module, cls, part, params, out)
    elif isinstance(value, ast.Call) and isinstance(value.func, ast.Subscript):
        table = _table_classes(index, module, value.func, params)
        # ``_STYLES[style][0](fmt)``: the parameter picks one of the table's classes, and
        # only those (not a subclass of one of them)
        out.built.update(table)
    elif isinstance(value, ast.Call):
        head = value.func
        if isinstance(head, ast.Name) and head.id in params:  # a factory passed in
            out.chosen = True
            found = _class_of(index, module, params[head.id][0])
        else:
            found = _class_of(index, module, head)
        if found is not None:
            out.built.add(found)
    elif isinstance(value, ast.Name) and value.id in params:
        out.chosen = True
        default, annotation = params[value.id]
        if isinstance(default, ast.Call):
            _read_value(index, module, cls, default, {}, out)
        typed = _class_of(index, module, annotation)
        if typed is not None:
            out.built.add(typed)
    elif isinstance(value, ast.Attribute) and dotted(value) == ("self", value.attr):
        for bound in _body_values(cls, value.attr):  # ``self._DEFAULT_INTERPOLATION``
            _read_value(index, module, cls, bound, {}, out)


def _stores(index: RepoIndex, holder: str, attr: str) -> _Stores:
    out = _Stores()
    for cls in lineage(index, holder)[:_MAX_CLASSES]:
        found = _class_node(index, cls)
        if found is None:
            continue
        node, module = found
        for value in _body_values(node, attr):
            _read_value(index, module, node, value, {}, out)
        for func in node.body:
            if not isinstance(func, (ast.FunctionDef, ast.AsyncFunctionDef)):
                continue
            params = _params(func)
            for sub in ast.walk(func):
                if isinstance(sub, ast.Assign):
                    targets, value = sub.targets, sub.value
                elif isinstance(sub, ast.AnnAssign) and sub.value is not None:
                    targets, value = [sub.target], sub.value
                else:
                    continue
                if any(dotted(t) == ("self", attr) for t in targets):
                    _read_value(index, module, node, value, params, out)
    return out


def can_hold(index: RepoIndex, api: PublicApi, holder: str, attr: str, override: str) -> bool:
    """Whether ``self.<attr>`` of a ``holder`` can be an instance of the class of the
    method ``override`` (a qualname), by what the class stores there."""
    facts = index.function(override)
    if facts is None or facts.cls is None:
        return False
    stores = _stores(index, holder, attr)
    if any(facts.cls in lineage(index, c) for c in stores.built):
        return True  # an instance of the override's class, or of a subclass of it
    if not stores.chosen or not api.is_public(override):
        return False  # a parameter's choice reaches only what users can name
    above = lineage(index, facts.cls)
    return any(c in above for c in stores.built)
