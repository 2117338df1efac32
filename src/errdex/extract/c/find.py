"""The nodes a C file's walk reads, found from the text rather than by a query.

A tree-sitter query visits every node of the tree; on a large C file that costs a
quarter of the parse, for the few calls the walk reads (simplejson's ``_speedups.c``:
~900 calls, ~80 of them to the C API). In C a site's call is named by its callee
alone, so the names the walk dispatches on are searched for in the file's bytes and
each hit is taken to its node (``descendant_for_byte_range``, a walk down one path):
the call whose callee it is, or the ``#define`` it opens. A hit in a comment or a
string is no call and is dropped. C++ keeps the query: a ``throw`` and the callees
written through namespaces and templates are not found by name alone.
"""

from __future__ import annotations

import re
from collections.abc import Iterable, Iterator

from tree_sitter import Node, Tree

from .messages import call_name

__all__ = ["calls_named", "definitions", "throws"]

_WORD_END = re.compile(rb"\w*")
_SPACE = b" \t"
_DEFINITIONS = ("preproc_def", "preproc_function_def")
#: How many leading characters of a name are searched for (``bytes.find``, far faster
#: than a regex alternation); names sharing them are searched for once.
_ANCHOR = 6


def _is_word(byte: int) -> bool:
    return byte == 95 or 48 <= byte <= 57 or 65 <= byte <= 90 or 97 <= byte <= 122


def _identifiers(data: bytes, names: frozenset[str]) -> Iterator[tuple[int, int]]:
    """(start, end) of each whole identifier of ``data`` that is one of ``names``."""
    anchors = {name.lstrip("_")[:_ANCHOR].encode() for name in names}
    seen: set[int] = set()
    for anchor in anchors:
        i = data.find(anchor)
        while i >= 0:
            start = i
            while start > 0 and _is_word(data[start - 1]):
                start -= 1
            found = _WORD_END.match(data, i)
            end = found.end() if found else i
            if start not in seen and data[start:end].decode("utf-8", "replace") in names:
                seen.add(start)
                yield start, end
            i = data.find(anchor, end)


#: What a callee's name may be written inside, up to the call (``py::set_error``,
#: ``py::register_exception<E>``).
_CALLEE_PARTS = frozenset({"qualified_identifier", "template_function"})


def calls_named(tree: Tree, names: Iterable[str]) -> list[Node]:
    """The calls whose callee, as :func:`~.messages.call_name` writes it, is one of
    ``names`` (``PyErr_SetString``, ``py::set_error``), in file order."""
    wanted = frozenset(names)
    if not wanted:
        return []
    root = tree.root_node
    data, base = root.text or b"", root.start_byte  # the root starts at the first token
    found: dict[int, Node] = {}
    last = frozenset(name.rpartition("::")[2] for name in wanted)
    for start, end in _identifiers(data, last):
        node = root.descendant_for_byte_range(base + start, base + end)
        if node is None or node.type != "identifier":
            continue
        parent = node.parent
        while parent is not None and parent.type in _CALLEE_PARTS:
            node, parent = parent, parent.parent
        if parent is None or parent.type != "call_expression":
            continue
        callee = parent.child_by_field_name("function")
        if callee is not None and callee.id == node.id and call_name(parent) in wanted:
            found.setdefault(parent.id, parent)
    return sorted(found.values(), key=lambda n: n.start_byte)


def throws(tree: Tree) -> list[Node]:
    """Every ``throw`` statement (C++), in file order."""
    root = tree.root_node
    data, base = root.text or b"", root.start_byte
    found: dict[int, Node] = {}
    for start, end in _identifiers(data, frozenset({"throw"})):
        node = root.descendant_for_byte_range(base + start, base + end)
        while node is not None and node.type != "throw_statement":
            if node.type in ("comment", "string_literal", "raw_string_literal", "translation_unit"):
                node = None
                break
            node = node.parent
        if node is not None and node.start_byte == base + start:
            found.setdefault(node.id, node)
    return sorted(found.values(), key=lambda n: n.start_byte)


def _defines(data: bytes) -> Iterator[int]:
    """Where each ``#define`` (``#`` and ``define`` may have blanks between, and the
    line blanks before) starts."""
    i = data.find(b"define")
    while i >= 0:
        j = i
        while j > 0 and data[j - 1] in _SPACE:
            j -= 1
        if j > 0 and data[j - 1] == 35:  # '#'
            k = j - 1
            while k > 0 and data[k - 1] in _SPACE:
                k -= 1
            after = data[i + 6 : i + 7]
            if (k == 0 or data[k - 1] == 10) and not (after and _is_word(after[0])):
                yield j - 1
        i = data.find(b"define", i + 6)


def definitions(tree: Tree) -> tuple[list[Node], list[Node]]:
    """(``#define NAME value`` nodes, ``#define NAME(args) body`` nodes), in file order."""
    root = tree.root_node
    data, base = root.text or b"", root.start_byte
    found: dict[int, Node] = {}
    for at in _defines(data):
        node = root.descendant_for_byte_range(base + at, base + at + 1)
        while node is not None and node.type not in _DEFINITIONS:
            if node.type in ("comment", "string_literal", "translation_unit"):
                node = None
                break
            node = node.parent
        if node is not None:
            found.setdefault(node.id, node)
    ordered = sorted(found.values(), key=lambda n: n.start_byte)
    return (
        [n for n in ordered if n.type == "preproc_def"],
        [n for n in ordered if n.type == "preproc_function_def"],
    )
