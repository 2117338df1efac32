"""What a name holds at a site: a local variable's assignments before it, or a constant.

Only what the file says for sure is followed: the initializers and plain ``=``
assignments of a local variable that come before the site in its method (each one
an alternative), or a ``final`` field's initializer. A ``+=``, a parameter or anything
assigned elsewhere leaves the name a hole.
"""

from __future__ import annotations

from .names import enclosing_method, is_class_node
from .syntax import Node, text

__all__ = ["Bindings"]

Assignment = tuple[int, str, Node | None]  # (start byte, operator, value)


class Bindings:
    """Name lookups for one file: a name's bytes found in its method (or the file) and
    looked up in the tree, each (method, name) and constant read once."""

    def __init__(self, root: Node, data: bytes) -> None:
        self.root = root
        self._data = data
        self._by_member: dict[tuple[int, str], list[Assignment] | None] = {}
        self._constants: dict[str, Node | None] = {}

    def values(self, name_node: Node) -> list[Node] | None:
        """The expressions ``name_node`` may hold where it is read, or None."""
        name = text(name_node)
        member, _ = enclosing_method(name_node)
        if member is not None:
            assigned = self._assignments(member, name)
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

    def _assignments(self, member: Node, name: str) -> list[Assignment] | None:
        """``name``'s initializers, assignments and parameters in ``member`` (nested
        lambdas and classes included), or None when it has none."""
        key = (member.id, name)
        if key in self._by_member:
            return self._by_member[key]
        found: list[Assignment] = []
        for node in self._names(name, member.start_byte, member.end_byte):
            parent = node.parent
            kind = parent.type if parent is not None else ""
            if kind == "variable_declarator" and parent is not None:
                holder = parent.parent
                local = holder is not None and holder.type == "local_variable_declaration"
                if local and _is_field(parent, node):
                    value = parent.child_by_field_name("value")
                    found.append((parent.start_byte, "=", value))
            elif kind == "assignment_expression" and parent is not None:
                if _is_field(parent, node, "left"):
                    op = text(parent.child_by_field_name("operator"))
                    found.append((parent.start_byte, op, parent.child_by_field_name("right")))
            elif kind in _PARAMETERS and parent is not None and _is_field(parent, node):
                found.append((parent.start_byte, "param", None))
        self._by_member[key] = found or None
        return found or None

    def _names(self, name: str, start: int, end: int) -> list[Node]:
        """The identifier nodes spelled ``name`` between two bytes: each occurrence of
        its bytes looked up in the tree (one in a comment or a longer name is no node)."""
        word = name.encode("utf-8")
        data = self._data
        size = len(word)
        nodes: list[Node] = []
        at = data.find(word, start, end)
        while at != -1:
            node = self.root.descendant_for_byte_range(at, at + size)
            if (
                node is not None
                and node.type == "identifier"
                and node.start_byte == at
                and node.end_byte == at + size
            ):
                nodes.append(node)
            at = data.find(word, at + size, end)
        return nodes

    def _constant(self, name: str) -> Node | None:
        """A ``final`` field's initializer, when one field of the file has that name."""
        if name in self._constants:
            return self._constants[name]
        value: Node | None = None
        seen = 0
        for node in self._names(name, 0, len(self._data)):
            decl = node.parent
            field = decl.parent if decl is not None else None
            if field is None or decl is None or field.type != "field_declaration":
                continue
            if decl.type != "variable_declarator" or not _is_field(decl, node):
                continue
            seen += 1
            mods = next((c for c in field.children if c.type == "modifiers"), None)
            final = mods is not None and "final" in text(mods).split()
            value = decl.child_by_field_name("value") if final else None
        # the same name in two classes: not sure which
        self._constants[name] = value if seen == 1 else None
        return self._constants[name]


_PARAMETERS = frozenset({"formal_parameter", "catch_formal_parameter"})


def _is_field(parent: Node, node: Node, field: str = "name") -> bool:
    """Whether ``node`` is ``parent``'s ``field`` child."""
    child = parent.child_by_field_name(field)
    return child is not None and child.start_byte == node.start_byte
