"""The conditions on the way to a JavaScript site, in source form, outermost first.

Walking up from the site to its function: an ``if`` whose consequence holds it gives
its test; an ``else`` the test negated (an ``else if`` is an ``elif``); a ``switch``
case ``subject === value``; a ``catch`` clause, a loop, a conditional expression and
a short-circuit (``ok || fail()``) their own.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.extract.site import Guard

from .messages import node_text
from .scope import FUNCTIONS

__all__ = ["guards_of", "negate"]

_FLIP = {
    "===": "!==",
    "!==": "===",
    "==": "!=",
    "!=": "==",
    "<": ">=",
    ">=": "<",
    ">": "<=",
    "<=": ">",
}
_SPACE = re.compile(r"\s+")
_SIMPLE = frozenset(
    {"identifier", "member_expression", "call_expression", "subscript_expression", "this"}
)
_LOOPS = {
    "for_statement": "for",
    "for_in_statement": "for",
    "while_statement": "while",
    "do_statement": "while",
}


def _text(node: Node) -> str:
    return _SPACE.sub(" ", node_text(node)).strip()


def _inner(node: Node) -> Node:
    while node.type == "parenthesized_expression" and node.named_children:
        node = node.named_children[0]
    return node


def negate(node: Node) -> str:
    """The condition under which ``node`` is false, written as simply as the source allows."""
    node = _inner(node)
    if node.type == "unary_expression":
        op = node.child_by_field_name("operator")
        arg = node.child_by_field_name("argument")
        if op is not None and arg is not None and node_text(op) == "!":
            return _text(_inner(arg))
    if node.type == "binary_expression":
        op = node.child_by_field_name("operator")
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if op is not None and left is not None and right is not None:
            flipped = _FLIP.get(node_text(op))
            if flipped is not None:
                return f"{_text(left)} {flipped} {_text(right)}"
    text = _text(node)
    return f"!{text}" if node.type in _SIMPLE else f"!({text})"


def _line(node: Node) -> int:
    return node.start_point[0] + 1


def _step(child: Node, parent: Node) -> Guard | None:
    """The guard ``parent`` puts on ``child`` (its direct child), if any."""
    kind = parent.type
    if kind == "if_statement":
        cond = parent.child_by_field_name("condition")
        if cond is None:
            return None
        if child == parent.child_by_field_name("consequence"):
            grand = parent.parent
            elif_ = grand is not None and grand.type == "else_clause"
            return Guard("elif" if elif_ else "if", _text(_inner(cond)), _line(parent))
        if child == parent.child_by_field_name("alternative"):
            return Guard("else", negate(cond), _line(child))
        return None
    if kind in ("switch_case", "switch_default"):
        switch = parent.parent.parent if parent.parent is not None else None
        subject = switch.child_by_field_name("value") if switch is not None else None
        subject_text = _text(_inner(subject)) if subject is not None else "the subject"
        value = parent.child_by_field_name("value")
        if kind == "switch_case" and value is not None and child != value:
            return Guard("case", f"{subject_text} === {_text(value)}", _line(parent))
        if kind == "switch_default":
            return Guard("case", f"{subject_text} matches no case", _line(parent))
        return None
    if kind == "catch_clause" and child == parent.child_by_field_name("body"):
        param = parent.child_by_field_name("parameter")
        text = f"catch ({_text(param)})" if param is not None else "catch"
        return Guard("except", text, _line(parent))
    if kind in _LOOPS and child == parent.child_by_field_name("body"):
        head = parent.child_by_field_name("condition")
        if parent.type == "for_in_statement":
            left, right = parent.child_by_field_name("left"), parent.child_by_field_name("right")
            head_text = f"{_text(left)} of {_text(right)}" if left and right else _text(parent)
        else:
            head_text = _text(_inner(head)) if head is not None else "true"
        return Guard(_LOOPS[kind], head_text, _line(parent))
    if kind == "ternary_expression":
        cond = parent.child_by_field_name("condition")
        if cond is None:
            return None
        if child == parent.child_by_field_name("consequence"):
            return Guard("if", _text(_inner(cond)), _line(parent))
        if child == parent.child_by_field_name("alternative"):
            return Guard("else", negate(cond), _line(parent))
        return None
    if kind == "binary_expression" and child == parent.child_by_field_name("right"):
        op = parent.child_by_field_name("operator")
        left = parent.child_by_field_name("left")
        if op is None or left is None:
            return None
        if node_text(op) == "&&":
            return Guard("if", _text(_inner(left)), _line(parent))
        if node_text(op) == "||":
            return Guard("if", negate(left), _line(parent))
    return None


def guards_of(node: Node) -> tuple[Guard, ...]:
    """The guards from the site's function (or module) down to ``node``, outermost first."""
    found: list[Guard] = []
    child, parent = node, node.parent
    while parent is not None and parent.type not in FUNCTIONS:
        guard = _step(child, parent)
        if guard is not None:
            found.append(guard)
        child, parent = parent, parent.parent
    return tuple(reversed(found))
