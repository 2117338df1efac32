"""What ``%R`` of a variable prints, when its function says what the variable holds.

``PyErr_Format(…, "…: %.200R", strobj)`` prints ``b'abc'`` when ``strobj`` is bytes and
``'abc'`` when it is a str: CPython's ``int()`` raises the same words from two
functions, one for each. Where every value the function gives the variable comes from a
constructor of one type (``PyBytes_FromStringAndSize``, ``PyUnicode_FromString``), the
hole admits only that type's repr; a parameter, or a variable of mixed origin, admits
any text.
"""

from __future__ import annotations

import re
from dataclasses import replace

from tree_sitter import Node

from errdex.template import Hole, MessageTemplate

from .helpers import assigned, definition_of

__all__ = ["typed_reprs"]

#: Constructors by the repr their result prints (the hole kinds of errdex.template).
_MADE_BY = (
    (re.compile(r"\s*(?:PyBytes_From\w*|PyBytes_Concat\w*)\s*\("), "bytes_repr"),
    (re.compile(r"\s*(?:PyUnicode_(?:From|Decode)\w*|PyUnicode_Concat)\s*\("), "str_repr"),
)
_IDENTIFIER = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")


def _kind_of(values: list[str]) -> str:
    kinds = {next((k for rx, k in _MADE_BY if rx.match(v)), "") for v in values}
    return kinds.pop() if len(kinds) == 1 else ""


def typed_reprs(template: MessageTemplate, call: Node) -> MessageTemplate:
    """``template`` with each ``%R`` hole of a variable made by one type's constructor
    admitting only that type's repr."""
    if not any(isinstance(p, Hole) and p.text.endswith("R") for p in template.parts):
        return template
    definition = definition_of(call)
    body = definition.child_by_field_name("body") if definition is not None else None
    if body is None:
        return template
    parts = []
    for part in template.parts:
        if isinstance(part, Hole) and part.text.endswith("R") and _IDENTIFIER.fullmatch(part.name):
            kind = _kind_of(assigned(body, part.name))
            part = replace(part, kind=kind) if kind else part
        parts.append(part)
    return MessageTemplate(parts)
