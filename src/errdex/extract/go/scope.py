"""Where a Go site stands: its function as the runtime names it, and the guards on the way.

Read by climbing from the site to the file, so the cost is the site's depth, not the
file's size. Names follow Go's own frames: ``pkg.f``, ``pkg.(*T).m``, ``pkg.T.m``, and a
closure ``pkg.f.func1`` (a closure inside it ``pkg.f.func1.1``).
"""

from __future__ import annotations

from tree_sitter import Node

from errdex.extract._syntax import guards_up, if_guard
from errdex.extract.site import Guard

from .messages import node_text

__all__ = ["function_of", "guards_of", "receiver_type", "where"]


def receiver_type(method: Node) -> str:
    """``(*T)`` or ``T`` of a method declaration, type parameters left out (``(*List[T])``
    prints ``(*List[...])``; the name is what a reader looks for)."""
    receiver = method.child_by_field_name("receiver")
    if receiver is None:
        return ""
    for param in receiver.named_children:
        if param.type != "parameter_declaration":
            continue
        typ = param.child_by_field_name("type")
        if typ is None:
            continue
        pointer = typ.type == "pointer_type"
        if pointer and typ.named_children:
            typ = typ.named_children[0]
        if typ.type == "generic_type":
            inner = typ.child_by_field_name("type")
            typ = inner if inner is not None else typ
        name = node_text(typ)
        return f"(*{name})" if pointer else name
    return ""


def _declared_name(decl: Node) -> str:
    name = decl.child_by_field_name("name")
    text = node_text(name) if name is not None else "?"
    if decl.type == "method_declaration":
        return f"{receiver_type(decl)}.{text}"
    return text


def _closure_number(literal: Node, owner: Node) -> int:
    """Go numbers closures in source order among those the function (or closure) holds
    directly, nested ones not counted."""
    direct: list[int] = []
    stack = list(reversed(owner.named_children))
    while stack:
        node = stack.pop()
        if node.type == "func_literal":
            direct.append(node.id)
            continue
        stack.extend(reversed(node.named_children))
    return direct.index(literal.id) + 1 if literal.id in direct else len(direct) + 1


def function_of(node: Node) -> tuple[str | None, str]:
    """(the declared function or method name, its qualname without the package)."""
    literals: list[Node] = []
    current: Node | None = node.parent
    while current is not None:
        if current.type == "func_literal":
            literals.append(current)
        elif current.type in ("function_declaration", "method_declaration"):
            name = current.child_by_field_name("name")
            function = node_text(name) if name is not None else None
            qualname = _declared_name(current)
            owner = current
            for depth, literal in enumerate(reversed(literals)):
                number = _closure_number(literal, owner)
                qualname += f".func{number}" if depth == 0 else f".{number}"
                owner = literal
            return function, qualname
        current = current.parent
    if literals:
        return None, "init.func1"  # a closure in a package-level ``var``: Go names it so
    return None, ""


def _case_text(case: Node, subject: str) -> str:
    if case.type == "default_case":
        return f"{subject} matches no other case" if subject else "no other case holds"
    values = case.child_by_field_name("value")
    if case.type == "type_case":
        types = [node_text(c) for c in case.children_by_field_name("type")]
        return f"{subject} is {' or '.join(types)}"
    shown = node_text(values) if values is not None else "?"
    return f"{subject} is {shown}" if subject else shown


def _guard(node: Node, child: Node) -> Guard | None:
    """The guard ``node`` puts on ``child`` (one of its parts), or None."""
    line = node.start_point[0] + 1
    kind = node.type
    if kind == "if_statement":
        condition = node.child_by_field_name("condition")
        return if_guard(node, child, node_text(condition) if condition is not None else "?")
    if kind in ("expression_case", "default_case", "type_case"):
        switch = node.parent
        value = switch.child_by_field_name("value") if switch is not None else None
        subject = node_text(value) if value is not None else ""
        return Guard("case", _case_text(node, subject), line)
    if kind == "for_statement":
        body = node.child_by_field_name("body")
        if body is None or body.id != child.id:
            return None
        head = [c for c in node.named_children if c.id != body.id]
        return Guard("for", "for " + " ".join(node_text(h) for h in head), line)
    if kind == "communication_case":
        communication = node.child_by_field_name("communication")
        shown = node_text(communication) if communication is not None else "?"
        return Guard("case", f"select received {shown}", line)
    return None


def guards_of(node: Node) -> tuple[Guard, ...]:
    """The clauses from the enclosing function down to the site, outermost first."""
    return guards_up(node, ("function_declaration", "method_declaration", "func_literal"), _guard)


def where(node: Node, package: str) -> tuple[str | None, str]:
    """(function, qualname with the package) of the code around ``node``."""
    function, local = function_of(node)
    return function, f"{package}.{local}" if local else package
