"""``%``-format holes that print a class: ``"bad type %s" % type(x)`` prints
``bad type <class 'int'>``, in a ``.py`` file as in a compiled ``.pyx``.

A ``%s`` or ``%r`` hole (no flags, width or precision) whose value is ``type(x)`` or
``x.__class__`` (a ``%s`` hole also of either inside ``str()``/``repr()``; ``%r`` of that
string quotes it) prints the class's repr, as CPython's
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

#: The conversions that print a class's repr whole: of ``type(x)`` itself, both (a
#: class's ``str`` is its ``repr``); of ``str(type(x))``/``repr(type(x))``, a string, only
#: ``%s`` (``%r`` quotes it: ``bad "<class 'int'>"``).
_PLAIN = frozenset({"%s", "%r"})
_OF_STRING = frozenset({"%s"})


def _is_class(node: ast.expr) -> bool:
    """``type(x)`` or ``x.__class__``."""
    if isinstance(node, ast.Attribute):
        return node.attr == "__class__"
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "type"
        and len(node.args) == 1
        and not node.keywords
    )


def _conversions(node: ast.expr) -> frozenset[str]:
    """The conversions under which ``node`` prints a class's repr whole (none: it does
    not): ``type(x)``, ``x.__class__``, or either inside ``str()``/``repr()``."""
    if _is_class(node):
        return _PLAIN
    if (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id in ("str", "repr")
        and len(node.args) == 1
        and not node.keywords
        and _is_class(node.args[0])
    ):
        return _OF_STRING
    return frozenset()


def _values(node: ast.BinOp) -> list[ast.expr] | None:
    """The values a ``%`` formats, by position (None: a shape whose positions are not
    known, a name holding the tuple or a starred element)."""
    right = node.right
    if isinstance(right, ast.Tuple):
        if any(isinstance(e, ast.Starred) for e in right.elts):
            return None
        return list(right.elts)
    return [right] if _conversions(right) else None


def typed_percent_holes(node: ast.expr, templates: list[MessageTemplate]) -> list[MessageTemplate]:
    """``templates`` of ``node`` with each positional ``%s``/``%r`` hole whose value
    prints a class typed ``class_repr``; unchanged for any other expression."""
    if not (isinstance(node, ast.BinOp) and isinstance(node.op, ast.Mod)):
        return templates
    values = _values(node)
    if not values:
        return templates
    classes = {str(k): c for k, v in enumerate(values) if (c := _conversions(v))}
    if not classes:
        return templates
    return [_typed(t, classes) for t in templates]


def _typed(template: MessageTemplate, classes: dict[str, frozenset[str]]) -> MessageTemplate:
    holes = [p for p in template.parts if isinstance(p, Hole)]
    if any("*" in h.text for h in holes):  # ``%*s`` takes two values: positions shift
        return template

    def prints_class(hole: Hole) -> bool:
        return not hole.kind and hole.text in classes.get(hole.name, ())

    if not any(prints_class(h) for h in holes):
        return template
    return MessageTemplate(
        replace(p, kind=KIND) if isinstance(p, Hole) and prints_class(p) else p
        for p in template.parts
    )
