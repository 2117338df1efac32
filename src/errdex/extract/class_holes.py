"""Holes that print a class: ``f"… {type(x)}"`` prints ``<class 'int'>``.

A hole whose value is a class (``type(x)``, ``x.__class__``, C's ``Py_TYPE(x)`` under
``%R``/``%S``), shown with ``str`` or ``repr`` (the same text for a class), prints the
class's repr, so its hole admits only that form (:data:`errdex.template.KIND_REGEX`'s
``class_repr``) and a message whose value there is any other text is not taken for it.
A format spec, a C precision (``%.5R``) or ``__name__`` prints something else: those holes
stay untyped. (A class whose metaclass defines ``__repr__`` prints what that returns: such a
class is not known from the raise, and its message does not fit the typed hole.)
"""

from __future__ import annotations

import re
from dataclasses import replace

from errdex.template import Hole, MessageTemplate

__all__ = ["typed_class_holes"]

KIND = "class_repr"
#: An f-string or ``str.format`` hole shown with no spec, or with ``!r``/``!s``/``!a``.
_PY_HOLE = re.compile(r"\{(?P<expr>[^{}:!]+?)(?:![rsa])?\}")
#: ``x.__class__`` (``self.__class__``, ``obj.attr.__class__``).
_PY_ATTRIBUTE = re.compile(r"[\w.]+\.__class__")
#: C: a ``%R``/``%S`` conversion with no precision: ``%.5R`` prints the repr's first five
#: characters (``<clas``), which no class repr's form admits, so such a hole stays untyped.
_C_HOLE = re.compile(r"%[RS]")
_C_CAST = re.compile(r"\(\s*PyObject\s*\*\s*\)")
#: C: ``x->ob_type`` (``self->ob_type``, ``((PyObject *)o)->ob_type`` once the cast is gone).
_C_MEMBER = re.compile(r"[\w.()]+->ob_type")


def _called(expr: str, names: tuple[str, ...]) -> str | None:
    """The argument text of ``name(…)`` when ``expr`` is that call whole (its opening
    parenthesis closes at the end), for one of ``names``; else None."""
    name, paren, rest = expr.partition("(")
    if not paren or name.strip() not in names or not expr.endswith(")"):
        return None
    depth = 0
    for k, ch in enumerate(expr):
        depth += (ch == "(") - (ch == ")")
        if depth == 0 and ch == ")":
            return rest[:-1] if k == len(expr) - 1 else None
    return None


def _unwrapped(expr: str) -> str:
    """``((x))`` -> ``x``: outer parentheses that enclose the whole expression."""
    expr = expr.strip()
    while expr.startswith("(") and _called("_" + expr, ("_",)) is not None:
        expr = expr[1:-1].strip()
    return expr


def _prints_class(hole: Hole, language: str) -> bool:
    if language == "c":
        if not _C_HOLE.fullmatch(hole.text):
            return False
        expr = _unwrapped(_C_CAST.sub("", hole.name))
        return (
            _called(expr, ("Py_TYPE", "PyObject_Type")) is not None
            or _C_MEMBER.fullmatch(expr) is not None
        )
    m = _PY_HOLE.fullmatch(hole.text)
    if m is None:
        return False
    expr = _unwrapped(m.group("expr"))
    inner = _called(expr, ("str", "repr"))
    if inner is not None:
        expr = _unwrapped(inner)
    return _called(expr, ("type",)) is not None or _PY_ATTRIBUTE.fullmatch(expr) is not None


def typed_class_holes(template: MessageTemplate, language: str = "python") -> MessageTemplate:
    """``template`` with each untyped hole that prints a class admitting only a class's
    repr; ``language`` ``"c"`` reads C conversions, else Python/Cython holes."""
    if not any(
        isinstance(p, Hole) and not p.kind and _prints_class(p, language) for p in template.parts
    ):
        return template
    return MessageTemplate(
        replace(p, kind=KIND)
        if isinstance(p, Hole) and not p.kind and _prints_class(p, language)
        else p
        for p in template.parts
    )
