"""What the tree-sitter extractors (Go, Rust) share: finding a file's candidate sites by
their names, and climbing from a site to its function for the guards on the way."""

from __future__ import annotations

import re
from collections.abc import Callable, Collection, Iterable, Iterator

from tree_sitter import Node

from errdex.extract.site import Guard

__all__ = ["guards_up", "if_guard", "named_hits"]


_IDENTIFIER = frozenset(b"abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789_")


def named_hits(
    root: Node, source: bytes, words: Iterable[bytes], pattern: re.Pattern[bytes]
) -> Iterator[tuple[str, Node]]:
    """(group, node) for each place a word of ``words`` starts a match of ``pattern`` (whose
    named group says what it is): the smallest node spanning the group, which the caller
    confirms is a real call (not a comment or a string). The words are found with
    ``bytes.find``; a regex alternation tried at every byte costs a fifth of the parse."""
    hits: dict[int, tuple[str, int, int]] = {}
    for word in words:
        pos = source.find(word)
        while pos >= 0:
            if (pos == 0 or source[pos - 1] not in _IDENTIFIER) and pos not in hits:
                m = pattern.match(source, pos)
                if m is not None and m.lastgroup is not None:
                    hits[pos] = (m.lastgroup, *m.span(m.lastgroup))
            pos = source.find(word, pos + 1)
    for pos in sorted(hits):
        group, start, end = hits[pos]
        node = root.descendant_for_byte_range(start, end)
        if node is not None:
            yield group, node


def guards_up(
    node: Node, stops: Collection[str], guard: Callable[[Node, Node], Guard | None]
) -> tuple[Guard, ...]:
    """The guards ``guard(ancestor, child)`` gives from ``node`` up to the first ancestor of
    a type in ``stops`` (its function), outermost first."""
    found: list[Guard] = []
    child = node
    current = node.parent
    while current is not None and current.type not in stops:
        written = guard(current, child)
        if written is not None:
            found.append(written)
        child, current = current, current.parent
    return tuple(reversed(found))


def if_guard(node: Node, child: Node, condition: str) -> Guard | None:
    """The guard an ``if`` puts on its ``consequence`` (the condition) or its
    ``alternative`` (its negation); None for the condition itself."""
    line = node.start_point[0] + 1
    consequence = node.child_by_field_name("consequence")
    if consequence is not None and consequence.id == child.id:
        return Guard("if", condition, line)
    alternative = node.child_by_field_name("alternative")
    if alternative is not None and alternative.id == child.id:
        return Guard("else", f"!({condition})", line)
    return None
