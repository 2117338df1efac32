"""Helpers that raise a message their caller passes: ``raise_errmsg(state, ERR_X, s, i)``.

Extensions often set every error of one kind through a small function of the same file
(``static void raise_errmsg(const char *msg, …) { … PyErr_SetObject(Error, exc); }``).
Its own site is one opaque value; each call that passes a message the source states is
a site of its own, with the helper's class. Followed one level deep, in one file.
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from tree_sitter import Node

from errdex.extract.site import ErrorSite
from errdex.template import Literal, MessageTemplate

from .messages import node_text

__all__ = ["Helper", "assigned", "definition_of", "helper_of", "python_placeholders"]

_WORD = re.compile(r"[A-Za-z_][A-Za-z0-9_]*")
#: C API calls that call a Python object with the arguments given.
_CALLS_PYTHON = re.compile(r"\s*(?:PyObject_(?:Call\w*|Vectorcall\w*)|PyEval_CallFunction)\s*\(")


@dataclass(frozen=True, slots=True)
class Helper:
    """A function whose site's message is one of its parameters."""

    name: str
    param: int  # which argument of a call holds the message
    site: ErrorSite
    #: The message is handed to a Python callable (``PyObject_CallFunction(Error, "zOn",
    #: msg, …)``), whose code may fill its ``%r``/``%s`` (simplejson's ``errmsg``); C has
    #: no ``%r``, so such a placeholder in a call's message is Python's.
    to_python: bool = False


def definition_of(node: Node) -> Node | None:
    parent = node.parent
    while parent is not None and parent.type != "function_definition":
        if parent.type == "lambda_expression":
            return None
        parent = parent.parent
    return parent


def _parameters(definition: Node) -> tuple[str | None, list[str]]:
    """(function name, parameter names in order) of a C function definition."""
    node: Node | None = definition.child_by_field_name("declarator")
    while node is not None and node.type != "function_declarator":
        node = node.child_by_field_name("declarator")
    if node is None:
        return None, []
    name = node.child_by_field_name("declarator")
    params = node.child_by_field_name("parameters")
    names: list[str] = []
    for param in params.named_children if params is not None else []:
        words = _WORD.findall(node_text(param.child_by_field_name("declarator") or param))
        names.append(words[-1] if words else "")
    return (node_text(name) if name is not None else None), names


def assigned(body: Node, variable: str) -> list[str]:
    """Source of what ``variable`` is initialised or assigned with inside ``body``."""
    found: list[str] = []
    stack = [body]
    while stack:
        node = stack.pop()
        if node.type in ("init_declarator", "assignment_expression"):
            target = node.child_by_field_name("declarator") or node.child_by_field_name("left")
            value = node.child_by_field_name("value") or node.child_by_field_name("right")
            if (
                target is not None
                and value is not None
                and _WORD.findall(node_text(target))[-1:] == [variable]
            ):
                found.append(node_text(value))
        stack.extend(node.named_children)
    return found


def helper_of(node: Node, site: ErrorSite) -> Helper | None:
    """The helper ``site`` makes of its function, when its one hole holds a parameter
    (directly, or through a local built from it: ``exc = Call(Error, "zOn", msg, …)``)."""
    holes = site.template.holes
    if len(holes) != 1 or not site.template.is_opaque:
        return None
    definition = definition_of(node)
    if definition is None:
        return None
    name, params = _parameters(definition)
    if not name or not params:
        return None
    words = set(_WORD.findall(holes[0].name))
    body = definition.child_by_field_name("body")
    to_python = False
    for word in list(words):
        if body is not None and word not in params:
            for value in assigned(body, word):
                reached = set(_WORD.findall(value))
                words |= reached
                to_python = to_python or bool(_CALLS_PYTHON.match(value) and reached & set(params))
    chosen = [i for i, p in enumerate(params) if p in words]
    # the message is text: among the parameters reached, the one the hole names first
    direct = [i for i in chosen if params[i] in _WORD.findall(holes[0].name)]
    found = direct or chosen
    return Helper(name, found[0], site, to_python) if found else None


def python_placeholders(template: MessageTemplate) -> MessageTemplate:
    """The template with the ``%``-placeholders of its literal text read as Python reads
    them (``%r``, ``%s``, ``%(name)s``; ``%%`` is ``%``): for a message handed to Python."""
    return MessageTemplate.join(
        [
            MessageTemplate.from_percent(p.text) if isinstance(p, Literal) else MessageTemplate([p])
            for p in template.parts
        ]
    )
