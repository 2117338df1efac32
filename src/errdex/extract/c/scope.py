"""Where a C or C++ site stands: its enclosing function and the guards on the way to it."""

from __future__ import annotations

from tree_sitter import Node

from errdex.extract.site import Guard

from .messages import node_text

__all__ = ["ancestors", "enclosing", "guards_of", "negate"]

_SCOPES = frozenset(
    {
        "function_definition",
        "lambda_expression",
        "class_specifier",
        "struct_specifier",
        "namespace_definition",
    }
)


def _function_name(definition: Node) -> str | None:
    """The declared name of a function definition (``K::g`` -> ``K::g``)."""
    node: Node | None = definition.child_by_field_name("declarator")
    while node is not None and node.type != "function_declarator":
        node = node.child_by_field_name("declarator")
    if node is None:
        return None
    name = node.child_by_field_name("declarator")
    return "".join(node_text(name).split()) if name is not None else None


def ancestors(node: Node) -> list[Node]:
    """``node``'s parent, its parent, … up to the root: read once for :func:`enclosing` and
    :func:`guards_of` (each ``parent`` is a walk down from the root in tree-sitter)."""
    found: list[Node] = []
    parent = node.parent
    while parent is not None:
        found.append(parent)
        parent = parent.parent
    return found


def enclosing(node: Node, above: list[Node] | None = None) -> tuple[str | None, str]:
    """(innermost named function, qualname through classes, namespaces and lambdas);
    ``above``: :func:`ancestors` of ``node``, when already read."""
    names: list[str] = []
    function: str | None = None
    for parent in ancestors(node) if above is None else above:
        if parent.type in _SCOPES:
            if parent.type == "lambda_expression":
                name: str | None = "<lambda>"
            elif parent.type == "function_definition":
                name = _function_name(parent)
                if function is None and name:
                    function = name.rpartition("::")[2]
            else:
                found = parent.child_by_field_name("name")
                name = node_text(found) if found is not None else None
            if name:
                names.append(name)
    return function, "::".join(reversed(names)) or "<module>"


def _condition(node: Node | None) -> str:
    if node is None:
        return ""
    text = " ".join(node_text(node).split())
    if node.type in ("parenthesized_expression", "condition_clause") and text.startswith("("):
        text = text[1:-1].strip() if text.endswith(")") else text
    return text


def negate(text: str) -> str:
    """The condition under which an ``else`` branch runs, in source form (``!x`` -> ``x``)."""
    rest = text[1:].strip()
    if text.startswith("!") and not text.startswith("!=") and _one_operand(rest):
        return rest[1:-1].strip() if rest.startswith("(") else rest
    return f"!({text})"


def _one_operand(text: str) -> bool:
    text = text.strip()
    if text.startswith("(") and text.endswith(")"):
        depth = 0
        for i, c in enumerate(text):
            depth += c == "("
            depth -= c == ")"
            if depth == 0 and i != len(text) - 1:
                return False
        return True
    return all(c.isalnum() or c in "_.->[]" for c in text)


def guards_of(node: Node, above: list[Node] | None = None) -> tuple[Guard, ...]:
    """Each ``if``/``else``/``case``/loop on the way from the function to ``node``, innermost
    last; ``above``: :func:`ancestors` of ``node``, when already read."""
    found: list[Guard] = []
    chain = [node, *(ancestors(node) if above is None else above)]
    for at in range(1, len(chain)):
        child, parent = chain[at - 1], chain[at]
        if parent.type in ("function_definition", "lambda_expression"):
            break
        kind = parent.type
        line = parent.start_point[0] + 1
        if kind == "if_statement":
            cond = _condition(parent.child_by_field_name("condition"))
            alternative = parent.child_by_field_name("alternative")
            if alternative is not None and child.id == alternative.id:
                found.append(Guard("else", negate(cond), alternative.start_point[0] + 1))
            elif child.id != (parent.child_by_field_name("condition") or child).id:
                found.append(Guard("if", cond, line))
        elif kind == "case_statement":
            value = parent.child_by_field_name("value")
            switch = chain[at + 2] if at + 2 < len(chain) else None
            subject = (
                _condition(switch.child_by_field_name("condition")) if switch is not None else ""
            )
            text = (
                f"{subject} == {node_text(value)}" if value is not None else f"{subject}: default"
            )
            found.append(Guard("case", text, line))
        elif kind in ("while_statement", "do_statement"):
            found.append(Guard("while", _condition(parent.child_by_field_name("condition")), line))
        elif kind in ("for_statement", "for_range_loop"):
            body = parent.child_by_field_name("body")
            header = node_text(parent)[: (body.start_byte - parent.start_byte) if body else None]
            found.append(
                Guard("for", " ".join(header.split()).removeprefix("for").strip(" ()"), line)
            )
    return tuple(reversed(found))
