"""The keys a dict built up in a function can have, when the code fixes their kind.

``errors = {}`` filled by ``errors.update({idx: ...})`` or ``errors[idx] = ...`` inside
``for idx, each in enumerate(value)`` prints as ``{0: [...], 3: [...]}``: its ``str()``
(the repr) starts with a decimal key. A template that says so, ``{<int>: …}``, stops a
dict of field names (``{'name': [...]}``) raised elsewhere from fitting it equally well
(marshmallow's ``List``/``Tuple`` fields against ``Schema.load``).
"""

from __future__ import annotations

import ast

from errdex.template import Hole, Literal, MessageTemplate

from .subtree import walked

__all__ = ["INT_KEYED_DICT", "int_keyed"]

#: ``str()`` of a non-empty dict whose keys are ints: a brace, a decimal key, the rest
#: (``: ``, its value, more items), a brace. Its literal text is the braces alone, as the
#: template of any dict (``{…}``), so the index lists it among the one-value sites that a
#: message no template with text fits is matched against (``rank._lone_holes``).
INT_KEYED_DICT = MessageTemplate(
    [
        Literal("{"),
        Hole("{key}", "key", kind="int"),
        Hole("{…}", "(dict items)"),
        Literal("}"),
    ]
)


def _int_loop_names(function: ast.AST) -> set[str]:
    """Names a ``for`` of ``function`` binds to ints: ``i`` of ``for i in range(...)`` and
    of ``for i, x in enumerate(...)`` (without a ``start`` that could be anything)."""
    names: set[str] = set()
    for node in walked(function):
        if not isinstance(node, (ast.For, ast.comprehension)):
            continue
        call = node.iter
        if not isinstance(call, ast.Call) or not isinstance(call.func, ast.Name):
            continue
        target = node.target
        if call.func.id == "range" and isinstance(target, ast.Name):
            names.add(target.id)
        elif (
            call.func.id == "enumerate"
            and isinstance(target, ast.Tuple)
            and target.elts
            and isinstance(target.elts[0], ast.Name)
            and all(isinstance(k.value, ast.Constant) for k in call.keywords)
            and all(isinstance(a, ast.Constant) for a in call.args[1:])
        ):
            names.add(target.elts[0].id)
    return names


def _keys_put(name: str, function: ast.AST) -> list[ast.expr] | None:
    """Every key ``function`` puts into the dict ``name``, or None if it is changed some
    other way (``setdefault``, ``|=``, passed on) or its keys are not all known."""
    keys: list[ast.expr] = []
    for node in walked(function):
        if isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute):
            owner = node.func.value
            if not (isinstance(owner, ast.Name) and owner.id == name):
                continue
            if node.func.attr != "update":
                if node.func.attr in ("get", "items", "keys", "values", "copy"):
                    continue
                return None
            if len(node.args) != 1 or node.keywords or not isinstance(node.args[0], ast.Dict):
                return None
            given = node.args[0].keys
            if any(k is None for k in given):
                return None  # ``{**other}``
            keys += [k for k in given if k is not None]
        elif isinstance(node, (ast.Assign, ast.AugAssign)):
            targets = node.targets if isinstance(node, ast.Assign) else [node.target]
            for target in targets:
                if isinstance(target, ast.Subscript) and _is_name(target.value, name):
                    keys.append(target.slice)
                elif isinstance(node, ast.AugAssign) and _is_name(target, name):
                    return None
    return keys


def _is_name(node: ast.expr, name: str) -> bool:
    return isinstance(node, ast.Name) and node.id == name


def int_keyed(name: str, function: ast.AST | None) -> bool:
    """Whether the dict ``name`` (bound to ``{}`` in ``function``) only ever gets int keys:
    loop counters of ``range``/``enumerate`` or int constants. Then a non-empty one prints
    as :data:`INT_KEYED_DICT`."""
    if function is None:
        return False
    keys = _keys_put(name, function)
    if not keys:
        return False
    ints = _int_loop_names(function)
    return all(
        (isinstance(k, ast.Name) and k.id in ints)
        or (isinstance(k, ast.Constant) and type(k.value) is int)
        for k in keys
    )
