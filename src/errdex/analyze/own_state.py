"""A state check a caller can repeat on its own object, said as a solution.

A public method that raises when ``self.closed`` (``zipfile.ZipExtFile.read``: "read from
closed file") tests nothing the call passes: the object is in the wrong state. Where
every condition on the way reads only public attributes and methods of ``self`` (and
builtins, the module's public names), the caller can test the same thing on the object
it holds, under the same names: "Call `ZipExtFile.read()` only when `not obj.closed`
holds". Not where the method sets what the condition reads before the check, nor for
an ``AssertionError`` (``Mock.assert_called``: the check is what the method is for). A
condition over private state (``self._state == _CANCELLED``) is no test a
caller writes, and is left to the message's words (:func:`.remedies._state_solution`).
"""

from __future__ import annotations

import ast
import copy
import re

from .facts import FuncFacts
from .gathered import Gathered, class_phrase
from .guards import CONDITION_KINDS, code, free_names, has_private, negated, parse_guard
from .param_requirement import call_name, module_constants

__all__ = ["is_attribute", "own_state_solution"]

#: Decorators that make a method an attribute: ``obj.name``, not a call by name.
_ATTRIBUTE_DECORATORS = frozenset({"property", "cached_property", "functools.cached_property"})


def is_attribute(func: FuncFacts) -> bool:
    """A property: the caller reads ``obj.name``, and calls nothing by that name."""
    return bool({".".join(d) for d in func.decorators} & _ATTRIBUTE_DECORATORS)


def _as_obj(text: str) -> str | None:
    """``text`` with ``self`` read as the caller's ``obj`` (on a copy: :func:`parse_guard`
    hands out one cached tree per text)."""
    node = parse_guard(text)
    if node is None:
        return None
    node = copy.deepcopy(node)
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and sub.id == "self":
            sub.id = "obj"
    return ast.unparse(node)


def _public_self_condition(g: Gathered) -> str | None:
    """Every condition on the way joined, when each reads ``self`` and otherwise only
    builtins and the module's public names, and names nothing private; None otherwise
    (a handler, a loop or a ``with`` on the way: what it binds is no state of ``self``)."""
    func = g.func
    if func is None or not g.site.guards:
        return None
    if any(guard["kind"] not in CONDITION_KINDS for guard in g.site.guards):
        return None
    known = {"self"} | set(g.import_lines) | module_constants(g, func)
    parts = []
    for guard in g.site.guards:
        text = str(guard["text"])
        names = free_names(text)
        if names is None or "self" not in names or not names <= known or has_private(text):
            return None
        node = parse_guard(text)
        loose = isinstance(node, (ast.BoolOp, ast.IfExp, ast.Lambda, ast.NamedExpr))
        parts.append(f"({text})" if loose and len(g.site.guards) > 1 else text)
    return " and ".join(parts)


def _set_before(g: Gathered, fires: str) -> bool:
    """Whether the method may set an attribute the condition reads before the check
    (``FTP.connect`` sets ``self.timeout = timeout``, ``Stats.load_stats`` sets
    ``self.stats``): then the object's state before the call is not what is tested.
    Read from the record's source window, from the ``def`` to the raise; a window that
    does not reach back to the ``def`` counts as setting it."""
    func, window = g.func, g.site.window()
    node = parse_guard(fires)
    if func is None or window is None or node is None:
        return True
    lines, at = window
    start = at - (g.site.line - func.line)
    if start < 0:
        return True
    read = {
        sub.attr
        for sub in ast.walk(node)
        if isinstance(sub, ast.Attribute)
        and isinstance(sub.value, ast.Name)
        and sub.value.id == "self"
    }
    body = "\n".join(lines[start + 1 : at])
    return any(
        re.search(rf"\bself\.{re.escape(a)}\s*(?:[-+*/%&|^@]|//|<<|>>|\*\*)?=(?!=)", body)
        for a in read
    )


def own_state_solution(g: Gathered) -> tuple[str, list[str]] | None:
    """For a public method that raises on its object's public state (the raising method
    is the call the caller writes: ``self`` is their object), when to call it, in the
    object's own public names."""
    func = g.func
    if func is None or func.cls is None or func.name in ("__init__", "__new__"):
        return None
    if func.name.startswith("__") or has_private(func.qualname.removeprefix(func.module)):
        return None
    if is_attribute(func):
        return None  # ``obj.sentinel`` is read, not called
    if not any(e["qualname"] == func.qualname and e.get("depth", 0) == 0 for e in g.entry_points):
        return None
    if g.site.kind == "assert" or g.site.error_class == "AssertionError":
        return None  # a failed check (``assert_called``) is the method's purpose
    fires = _public_self_condition(g)
    if fires is None or _set_before(g, fires):
        return None
    when, holds = _as_obj(fires), _as_obj(negated(fires))
    call = call_name(func.qualname, func)
    if when is None or holds is None or has_private(call):
        return None
    return (
        f"Call {code(call)} only when {code(holds)} holds, `obj` being the object it is "
        f"called on: it raises {class_phrase(g)} when {code(when)}, a check of the object's "
        "own state, not of the call's arguments.",
        ["site.guards", "entryPoints"],
    )
