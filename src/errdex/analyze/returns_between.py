"""A ``return`` between a condition on the way and the raise it guards: the condition
alone does not make the call raise. ``inspect.getfile`` tests ``ismodule(object)``,
returns ``object.__file__`` when there is one and only then raises "is a built-in
module": "the call raises `TypeError` when `ismodule(object)`" is false for every module
with a file. The record's guards hold only the ``if`` tests, so a requirement over such a
condition is said as one way out among other conditions (``partial``), not whole. Read
from the record's source window; where the window does not hold the guard, nothing is
said (as before).
"""

from __future__ import annotations

import re

from .gathered import Gathered
from .guards import CONDITION_KINDS

__all__ = ["returns_before_raise"]

_RETURN = re.compile(r"return\b")


def returns_before_raise(g: Gathered) -> bool:
    """A line starting with ``return`` after the outermost condition on the way and
    before the raise."""
    lines = [int(x.get("line") or 0) for x in g.site.guards if x["kind"] in CONDITION_KINDS]
    window = g.site.window()
    if not lines or window is None or min(lines) <= 0:
        return False
    text, index = window
    start = index + min(lines) - g.site.line
    if start < 0:
        return False
    return any(_RETURN.match(line.strip()) for line in text[start + 1 : index])
