"""Guards: the if/else, switch, catch and loop clauses on the way to a Java site.

Read by walking up from the site to its method (or lambda), innermost last, each
condition in source form: the ``if`` test, or its negation on the ``else`` branch.
"""

from __future__ import annotations

from errdex.extract.site import Guard

from .names import is_class_node
from .syntax import Node, text

__all__ = ["guards_of", "negate"]

_FLIP = {"==": "!=", "!=": "==", "<": ">=", ">=": "<", ">": "<=", "<=": ">"}
_STOP = frozenset(
    {
        "method_declaration",
        "constructor_declaration",
        "compact_constructor_declaration",
        "lambda_expression",
        "static_initializer",
        "field_declaration",
    }
)


def _line(node: Node) -> int:
    return node.start_point[0] + 1


def condition(node: Node | None) -> Node | None:
    """The expression inside an ``if``/``while`` test's parentheses."""
    if node is not None and node.type == "parenthesized_expression" and node.named_children:
        return node.named_children[0]
    return node


def negate(node: Node) -> str:
    """The condition under which an ``else`` branch runs, written as a reader would."""
    kind = node.type
    if kind == "parenthesized_expression" and node.named_children:
        return negate(node.named_children[0])
    if kind == "unary_expression" and text(node.child_by_field_name("operator")) == "!":
        operand = node.child_by_field_name("operand")
        inner = condition(operand)
        return text(inner)
    if kind == "binary_expression":
        op = text(node.child_by_field_name("operator"))
        if op in _FLIP:
            left = text(node.child_by_field_name("left"))
            right = text(node.child_by_field_name("right"))
            return f"{left} {_FLIP[op]} {right}"
    if kind in ("identifier", "method_invocation", "field_access"):
        return "!" + text(node)
    return f"!({text(node)})"


def guards_of(site: Node) -> tuple[Guard, ...]:
    """Every clause between the site and its method, outermost first."""
    found: list[Guard] = []
    child = site
    parent = site.parent
    while parent is not None and parent.type not in _STOP and not is_class_node(parent):
        guard = _guard(parent, child)
        if guard is not None:
            found.append(guard)
        child, parent = parent, parent.parent
    found.reverse()
    return tuple(found)


def _guard(parent: Node, child: Node) -> Guard | None:
    kind = parent.type
    if kind == "if_statement":
        test = condition(parent.child_by_field_name("condition"))
        if test is None:
            return None
        alternative = parent.child_by_field_name("alternative")
        if alternative is not None and alternative.id == child.id:
            return Guard("else", negate(test), _line(parent))
        consequence = parent.child_by_field_name("consequence")
        if consequence is not None and consequence.id == child.id:
            outer = parent.parent
            chained = (
                outer is not None
                and outer.type == "if_statement"
                and (_is_field(outer, "alternative", parent))
            )
            return Guard("elif" if chained else "if", text(test), _line(parent))
        return None
    if kind in ("switch_block_statement_group", "switch_rule"):
        return _case(parent)
    if kind == "catch_clause":
        param = next((c for c in parent.named_children if c.type == "catch_formal_parameter"), None)
        if param is None:
            return None
        types = next((c for c in param.named_children if c.type == "catch_type"), None)
        name = text(param.child_by_field_name("name"))
        return Guard("except", f"{text(types)} was thrown (as {name})", _line(parent))
    if kind in ("for_statement", "enhanced_for_statement"):
        body = parent.child_by_field_name("body")
        if body is not None and body.id == child.id:
            header = text(parent)[: body.start_byte - parent.start_byte].strip()
            return Guard("for", " ".join(header.split()), _line(parent))
        return None
    if kind in ("while_statement", "do_statement"):
        body = parent.child_by_field_name("body")
        test = condition(parent.child_by_field_name("condition"))
        if body is not None and body.id == child.id and test is not None:
            return Guard("while", text(test), _line(parent))
        return None
    if kind == "ternary_expression":
        test = parent.child_by_field_name("condition")
        if test is None:
            return None
        if _is_field(parent, "consequence", child):
            return Guard("if", text(condition(test)), _line(parent))
        if _is_field(parent, "alternative", child):
            return Guard("else", negate(test), _line(parent))
    return None


def _is_field(parent: Node, field: str, child: Node) -> bool:
    found = parent.child_by_field_name(field)
    return found is not None and found.id == child.id


def _case(group: Node) -> Guard | None:
    switch = group.parent.parent if group.parent is not None else None
    if switch is None:
        return None
    subject = text(condition(switch.child_by_field_name("condition")))
    labels = [c for c in group.named_children if c.type == "switch_label"]
    written = []
    for label in labels:
        values = text(label).removeprefix("case").strip().rstrip(":").strip()
        written.append(values)
    if any(w == "default" or w == "" for w in written):
        return Guard("case", f"{subject} matches no other case", _line(group))
    return Guard("case", f"{subject} matches {' or '.join(written)}", _line(group))
