"""Where a Rust file's candidate sites are: found by their keywords in the bytes (a C-speed
scan), then confirmed in the syntax tree, so only real macro calls, method calls and
attributes count (a keyword in a comment, a string or another macro's tokens does not).

A tree-sitter query does the same, but runs its predicates on every macro and method
call of the file: on real crates that cost a third of the parse.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.extract._syntax import named_hits

__all__ = ["candidates"]

#: Matched where one of ``_WORDS`` starts; the tree then says what (if anything) it is.
_KEYWORDS = re.compile(
    rb"(?P<macro>panic|unreachable|todo|unimplemented|(?:debug_)?assert(?:_eq|_ne)?"
    rb"|bail|anyhow|ensure|eyre)\s*!"
    rb"|(?P<method>expect|expect_err|context)\s*\("
    rb"|(?P<io>new|other)\s*\("
    rb"|(?P<attr>error)\s*\("
)
_WORDS = (
    b"panic",
    b"unreachable",
    b"todo",
    b"unimplemented",
    b"assert",
    b"debug_assert",
    b"bail",
    b"anyhow",
    b"ensure",
    b"eyre",
    b"expect",
    b"context",
    b"new",
    b"other",
    b"error",
)


def _macro(name: Node) -> Node | None:
    parent = name.parent
    if parent is not None and parent.type == "scoped_identifier":
        named = parent.child_by_field_name("name")
        if named is None or named.id != name.id:
            return None
        name, parent = parent, parent.parent
    if parent is None or parent.type != "macro_invocation":
        return None
    macro = parent.child_by_field_name("macro")
    return parent if macro is not None and macro.id == name.id else None


def _call_of(function: Node | None, kind: str, name: Node) -> Node | None:
    """The call whose function is ``function`` (a ``kind`` naming ``name``), or None."""
    if function is None or function.type != kind:
        return None
    field = function.child_by_field_name("field" if kind == "field_expression" else "name")
    call = function.parent
    if field is None or field.id != name.id or call is None or call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    return call if callee is not None and callee.id == function.id else None


def _attribute(name: Node) -> Node | None:
    attribute = name.parent
    item = attribute.parent if attribute is not None else None
    if attribute is None or item is None or attribute.type != "attribute":
        return None
    return item if item.type == "attribute_item" else None


def candidates(root: Node, source: bytes) -> dict[str, list[Node]]:
    """``macro``, ``method``, ``io`` and ``attr`` nodes of the file, each once, in order."""
    found: dict[str, list[Node]] = {"macro": [], "method": [], "io": [], "attr": []}
    for group, name in named_hits(root, source, _WORDS, _KEYWORDS):
        node: Node | None
        if group == "macro":
            node = _macro(name) if name.type == "identifier" else None
        elif group == "method":
            node = _call_of(name.parent, "field_expression", name)
        elif group == "io":
            node = _call_of(name.parent, "scoped_identifier", name)
        else:
            node = _attribute(name) if name.type == "identifier" else None
        if node is not None:
            found[group].append(node)
    return found
