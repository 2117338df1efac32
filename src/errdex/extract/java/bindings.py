"""What a name holds at a site: a local variable's assignments before it, or a constant.

Only what the file says for sure is followed: the initializers and plain ``=``
assignments of a local variable that come before the site in its method (each one
an alternative), or a ``final`` field's initializer. A ``+=``, a parameter or anything
assigned elsewhere leaves the name a hole.
"""

from __future__ import annotations

from functools import cache

import tree_sitter

from .names import enclosing_method, is_class_node
from .syntax import Node, language, text

__all__ = ["Bindings"]

Assignment = tuple[int, str, Node | None]  # (start byte, operator, value)


class Bindings:
    """Name lookups for one file, each method's assignments gathered once."""

    def __init__(self, root: Node) -> None:
        self.root = root
        self._by_member: dict[int, dict[str, list[Assignment]]] = {}
        self._constants: dict[str, Node | None] | None = None

    def values(self, name_node: Node) -> list[Node] | None:
        """The expressions ``name_node`` may hold where it is read, or None."""
        name = text(name_node)
        member, _ = enclosing_method(name_node)
        if member is not None:
            assigned = self._assignments(member).get(name)
            if assigned is not None:
                before = sorted(
                    (a for a in assigned if a[0] < name_node.start_byte), key=lambda a: a[0]
                )
                if not before or any(op != "=" or v is None for _, op, v in before):
                    return None
                return [v for _, _, v in before if v is not None]
        constant = self._constant(name)
        return [constant] if constant is not None else None

    def catch_names(self, node: Node) -> set[str]:
        """The exception variables of the catch clauses around ``node``."""
        names: set[str] = set()
        parent = node.parent
        while parent is not None and not is_class_node(parent):
            if parent.type == "catch_clause":
                for param in parent.named_children:
                    if param.type == "catch_formal_parameter":
                        names.add(text(param.child_by_field_name("name")))
            parent = parent.parent
        return names

    def _assignments(self, member: Node) -> dict[str, list[Assignment]]:
        found = self._by_member.get(member.id)
        if found is not None:
            return found
        found = {}
        captures = tree_sitter.QueryCursor(_binding_query()).captures(member)
        for node in captures.get("local", ()):
            if node.parent is not None and node.parent.type == "local_variable_declaration":
                name = text(node.child_by_field_name("name"))
                value = node.child_by_field_name("value")
                found.setdefault(name, []).append((node.start_byte, "=", value))
        for node in captures.get("assign", ()):
            left = node.child_by_field_name("left")
            if left is not None and left.type == "identifier":
                op = text(node.child_by_field_name("operator"))
                right = node.child_by_field_name("right")
                found.setdefault(text(left), []).append((node.start_byte, op, right))
        for node in captures.get("param", ()):
            name = text(node.child_by_field_name("name"))
            found.setdefault(name, []).append((node.start_byte, "param", None))
        self._by_member[member.id] = found
        return found

    def _constant(self, name: str) -> Node | None:
        if self._constants is None:
            self._constants = {}
            captures = tree_sitter.QueryCursor(_field_query()).captures(self.root)
            for node in sorted(captures.get("field", ()), key=lambda n: n.start_byte):
                mods = next((c for c in node.children if c.type == "modifiers"), None)
                final = mods is not None and "final" in text(mods).split()
                for decl in node.named_children:
                    if decl.type == "variable_declarator":
                        key = text(decl.child_by_field_name("name"))
                        value = decl.child_by_field_name("value") if final else None
                        # the same name in two classes: not sure which
                        self._constants[key] = None if key in self._constants else value
        return self._constants.get(name)


@cache
def _binding_query() -> tree_sitter.Query:
    return tree_sitter.Query(
        language(),
        "(variable_declarator) @local\n(assignment_expression) @assign\n"
        "[(formal_parameter) (catch_formal_parameter) (spread_parameter)] @param",
    )


@cache
def _field_query() -> tree_sitter.Query:
    return tree_sitter.Query(language(), "(field_declaration) @field")
