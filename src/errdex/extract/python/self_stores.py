"""Which top-level class each plain ``self.name = …`` line of a module is in.

A store of ``self.error`` in ``Email.__init__`` says nothing of a ``URL`` instance: the
count of stores by name (:mod:`.text_facts`) may leave out those of classes unrelated to
the one read (:func:`.settled.settled_name`). Read as text like that count, and only
where certain: a line of a top-level class's body, outside the bodies of classes nested
in it, whose whole target is ``self.name`` (annotated or augmented); any other store stays
counted.
"""

from __future__ import annotations

import re
from collections import Counter

__all__ = ["self_stores_by_class"]

_TOP_CLASS = re.compile(r"class[ \t]+([A-Za-z_]\w*)")
_NESTED_CLASS = re.compile(r"[ \t]+class[ \t]")
_SELF_STORE = re.compile(
    r"[ \t]+self\.([A-Za-z_]\w*)[ \t]*(?::[^=\n]*)?(?:[-+*/%&|^@]|<<|>>|//|\*\*)?=(?!=)"
)


def self_stores_by_class(text: str) -> dict[str, Counter[str]]:
    """Each top-level class's ``self.name`` stores by name, for the lines read surely."""
    out: dict[str, Counter[str]] = {}
    current: str | None = None
    nested: int | None = None  # the indentation of a nested class being passed over
    for line in text.splitlines():
        if not line or line[0] in " \t":
            if current is None or not line.strip():
                continue
            indent = len(line) - len(line.lstrip(" \t"))
            if nested is not None and indent > nested:
                continue  # a nested class's ``self`` is another object
            nested = None
            if _NESTED_CLASS.match(line):
                nested = indent
                continue
            found = _SELF_STORE.match(line)
            if found is not None:
                out.setdefault(current, Counter())[found.group(1)] += 1
            continue
        nested = None
        if line.startswith(("#", "@", ")", "]", "}")):
            continue
        top = _TOP_CLASS.match(line)
        current = top.group(1) if top is not None else None
    return out
