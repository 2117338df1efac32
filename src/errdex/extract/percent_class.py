"""``%``-format holes that print a class: ``"bad type %s" % type(x)`` prints
``bad type <class 'int'>``, in a ``.py`` file as in a compiled ``.pyx``.

A ``%s`` or ``%r`` hole (no flags, width or precision) whose value is ``type(x)`` or
``x.__class__`` (also inside ``str()``/``repr()``) prints the class's repr, as CPython's
``str(type(x))`` does, in a compiled Cython module as in Python (checked against a Cython
3.3.1 build: ``raise TypeError("bad type %s" % type(x))`` prints ``bad type <class
'int'>``). Such a hole admits only that form (:mod:`errdex.extract.class_holes`'s
``class_repr``), as an f-string's ``{type(x)}`` already does.
"""

from __future__ import annotations

import ast
from dataclasses import replace

from errdex.extract.class_holes import KIND
from errdex.template import Hole, MessageTemplate

__all__ = ["typed_percent_holes"]

#: The conversions that print a class's repr whole.
_PLAIN = frozenset({"%s", "%r"})


def _prints_class(node: ast.expr) -> bool:
    """``type(x)``, ``x.__class__``, or either inside ``str()``/``repr()``."""
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("str", "repr")
        and len(node.args) == 1
        and not node.keywords
    ):
        node = node.args[0]
    if isinstance(node, ast.Attribute):
        return node.attr == "__class__"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 1
        and not node.keywords
    )


def _values(node: ast.BinOp) -> list[ast.expr] | None:
    """The values a ``%`` formats, by position (None: a shape whose positions are not
    known, a name holding the tuple or a starred element)."""
    right = node.right
    if isinstance(right, ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in right.elts):
            return None
        return list(right.elts)
    return [right] if _prints_class(right) else None


def typed_percent_holes(node: ast.expr, templates: list[MessageTemplate]) -> list[MessageTemplate]:
    """``templates`` of ``node`` with each positional ``%s``/``%r`` hole whose value
    prints a class typed ``class_repr``; unchanged for any other expression."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)):
        return templates
    values = _values(node)
    if not values:
        return templates
    classes = {str(k) for k, v in enumerate(values) if _prints_class(v)}
    if not classes:
        return templates
    return [_typed(t, classes) for t in templates]


def _typed(template: MessageTemplate, classes: set[str]) -> MessageTemplate:
    holes = [p for p in template.parts if isinstance(p, Hole)]
    if any("*" in h.text for h in holes):  # ``%*s`` takes two values: positions shift
        return template
    if not any(h.name in classes and h.text in _PLAIN and not h.kind for h in holes):
        return template
    return MessageTemplate(
        replace(p, kind=KIND)
        if isinstance(p, Hole) and p.name in classes and p.text in _PLAIN and not p.kind
        else p
        for p in template.parts
    )
