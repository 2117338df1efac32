"""Messages kept in a struct field and raised later: ujson's ``SetError(ds, -1, "…")``.

A decoder notes what went wrong in a field, through a setter that stores the message it
is passed (``ds->errorStr = (char *) message;``), and its entry point raises the field
once (``PyErr_Format(JSONDecodeError, "%s", ds.errorStr)``). That raise's text is one
value; the texts are the literals the file passes to the setter, or assigns to the field
directly. Each is a site of its own, at the line that chooses it and with the raise's
class, as a helper's call is (:mod:`.helpers`). A field is known by its name within one
file: a value the source does not state (a variable passed on) adds nothing.
"""

from __future__ import annotations

import re
from dataclasses import dataclass, field

from tree_sitter import Node

from errdex.extract.site import ErrorSite

from .helpers import _parameters, definition_of
from .messages import node_text

__all__ = ["Stores", "stored_field", "stores_of"]

#: ``ds.errorStr``, ``self->state->msg``: a field read through names alone.
_FIELD_READ = re.compile(r"[A-Za-z_]\w*(?:\s*(?:\.|->)\s*[A-Za-z_]\w*)+")
_STRINGS = frozenset({"string_literal", "concatenated_string"})


@dataclass
class Stores:
    """What a file stores in one field."""

    #: function name -> which of its parameters it stores in the field
    setters: dict[str, int] = field(default_factory=dict)
    #: string literals assigned to the field directly
    direct: list[Node] = field(default_factory=list)


def stored_field(site: ErrorSite) -> str | None:
    """The field a one-value site raises (``"%s", ds.errorStr`` -> ``errorStr``)."""
    holes = site.template.holes
    if len(holes) != 1 or not site.template.is_opaque:
        return None
    read = holes[0].name.strip()
    if not _FIELD_READ.fullmatch(read):
        return None
    return re.split(r"\.|->", read)[-1].strip()


def _bare(node: Node) -> Node:
    """The value under casts and parentheses (``(char *) message`` -> ``message``)."""
    while node.type in ("cast_expression", "parenthesized_expression"):
        inner = node.child_by_field_name("value") or (
            node.named_children[-1] if node.named_children else None
        )
        if inner is None:
            break
        node = inner
    return node


def stores_of(root: Node, name: str) -> Stores:
    """Every assignment to a field ``name`` in the tree: of a parameter of the function it
    is in (a setter), or of a string literal."""
    found = Stores()
    stack = [root]
    while stack:
        node = stack.pop()
        stack.extend(node.named_children)
        if node.type != "assignment_expression":
            continue
        left, right = node.child_by_field_name("left"), node.child_by_field_name("right")
        if left is None or right is None or left.type != "field_expression":
            continue
        target = left.child_by_field_name("field")
        if target is None or node_text(target) != name:
            continue
        value = _bare(right)
        if value.type in _STRINGS:
            found.direct.append(value)
        elif value.type == "identifier" and (definition := definition_of(node)) is not None:
            function, params = _parameters(definition)
            if function and node_text(value) in params:
                found.setters[function] = params.index(node_text(value))
    found.direct.sort(key=lambda n: n.start_byte)
    return found
