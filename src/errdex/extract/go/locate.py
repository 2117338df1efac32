"""Where a Go file's candidate sites are: found by their names in the bytes (a C-speed
scan), then confirmed in the syntax tree, so that only real calls (and ``Error() string``
methods) count, not a word in a comment or a string.

A tree-sitter query does the same, but runs its predicates on every call of the file:
on real libraries that cost a third of the parse.
"""

from __future__ import annotations

import re

from tree_sitter import Node

from errdex.extract._syntax import named_hits

__all__ = ["calls_named", "candidates"]

#: Matched where one of ``_WORDS`` starts; the tree then says a call (or method) it is.
_KEYWORDS = re.compile(
    rb"(?P<method>Error)\s*\(\s*\)\s*string\b"
    rb"|(?P<call>panic|New|Errorf|Error|Fatal|Fatalf|Fatalln|Panic|Panicf|Panicln|Wrap|Wrapf"
    rb"|WithMessage|WithMessagef)\s*\("
)
_WORDS = (b"panic", b"New", b"Error", b"Fatal", b"Panic", b"Wrap", b"WithMessage")


def _call(function: Node | None) -> Node | None:
    call = function.parent if function is not None else None
    if call is None or call.type != "call_expression":
        return None
    callee = call.child_by_field_name("function")
    return (
        call if callee is not None and function is not None and callee.id == function.id else None
    )


def _through_selector(name: Node) -> Node | None:
    selector = name.parent
    if selector is None or selector.type != "selector_expression":
        return None
    field = selector.child_by_field_name("field")
    return selector if field is not None and field.id == name.id else None


def candidates(root: Node, source: bytes) -> tuple[list[Node], list[Node]]:
    """(calls that can be sites, ``Error() string`` method declarations), in order."""
    calls: list[Node] = []
    methods: list[Node] = []
    for group, name in named_hits(root, source, _WORDS, _KEYWORDS):
        if group != "method":
            call = _call_by(name)
            if call is not None:
                calls.append(call)
            continue
        declaration = name.parent
        if name.type == "field_identifier" and declaration is not None:
            named = declaration.child_by_field_name("name")
            is_method = declaration.type == "method_declaration"
            if is_method and named is not None and named.id == name.id:
                methods.append(declaration)
    return calls, methods


def calls_named(root: Node, source: bytes, names: set[str]) -> list[Node]:
    """Calls of the functions or methods ``names`` (a file's printf wrappers)."""
    words = [n.encode() for n in sorted(names)]
    pattern = re.compile(rb"(?P<name>" + b"|".join(re.escape(w) for w in words) + rb")\s*\(")
    calls = (_call_by(name) for _, name in named_hits(root, source, words, pattern))
    return [call for call in calls if call is not None]


def _call_by(name: Node) -> Node | None:
    """The call whose function ``name`` is (``f(…)``) or ends (``x.f(…)``), or None."""
    if name.type == "identifier":
        return _call(name)
    if name.type == "field_identifier":
        return _call(_through_selector(name))
    return None
