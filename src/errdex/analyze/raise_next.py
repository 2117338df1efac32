"""Whether turning a switch off only leads into the next ``raise``: ``if not all_errors:
raise exceptions[0]`` is followed by ``raise ExceptionGroup(...)`` in
``socket.create_connection``, so "pass all_errors as a true value" changes the error's
form and never avoids it (blind review stop 37, record 41: judged false; run).
Asked of flags only (:func:`.remedies.accepted_requirement`): another parameter's other
values may leave earlier (``Decimal(value)`` returns for an ``int`` before the ``float``
test that a ``raise TypeError`` follows).
"""

from __future__ import annotations

import re
from collections.abc import Mapping
from typing import Any

from .gathered import Gathered
from .guards import free_names
from .param_requirement import ParamRequirement

__all__ = ["falls_into_raise"]

_RAISE = re.compile(r"raise\b")


def falls_into_raise(g: Gathered, req: ParamRequirement) -> bool:
    """An ``if`` over the requirement's parameters whose block is followed, at its own
    indentation, by a ``raise`` (no ``else``/``elif`` between): not taking the branch
    reaches that raise. Read from the record's source window."""
    window = g.site.window()
    if window is None:
        return False
    lines, index = window
    passes = req.entry.get("passes") or {}
    names = set(req.params) | {k for k, v in passes.items() if v in req.params}
    for guard in g.site.guards:
        if not (free_names(str(guard["text"])) or set()) & names:
            continue
        if _into_raise(lines, index, g.site.line, guard):
            return True
    return False


def _into_raise(lines: list[str], index: int, line: int, guard: Mapping[str, Any]) -> bool:
    if guard.get("kind") != "if":
        return False
    at = index + int(guard.get("line") or 0) - line
    return 0 <= at < len(lines) and _next_raises(lines, at)


def _next_raises(lines: list[str], at: int) -> bool:
    """The first statement after the ``if`` block at ``lines[at]`` is a ``raise``."""
    header = lines[at]
    indent = len(header) - len(header.lstrip())
    if not header.lstrip().startswith("if "):
        return False
    for text in lines[at + 1 :]:
        stripped = text.strip()
        if not stripped or stripped.startswith("#"):
            continue
        depth = len(text) - len(text.lstrip())
        if depth > indent:
            continue  # the block (or the header's continuation)
        return depth == indent and bool(_RAISE.match(stripped))
    return False
