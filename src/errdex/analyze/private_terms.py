"""What the prose says instead of a condition over private names.

A developer who hit an error cannot read or change ``self._eof``, so a condition over
private names is never restated as code. Instead the prose says the case from what a
caller can read: the message, when its fixed text states something ("I/O operation on
closed file"); else the raised class's own docstring, when it says when the class is
raised ("Raised when a section is repeated in an input source"); else nothing, and the
record's provenance names the conditions left out and why (:func:`omitted_note`).
"""

from __future__ import annotations

import re
from dataclasses import dataclass

from errdex.evidence import PrivateConditions
from errdex.template import MessageTemplate

from .docstrings import summary
from .gathered import Gathered, short_name
from .guards import code, split_conditions
from .quoting import quote, stated_cause

__all__ = ["PrivateCase", "module_aliases", "omitted_note", "private_case", "said_from"]

#: A class docstring that says when the class is raised (not what it is a base of).
_WHEN_RAISED = re.compile(
    r"\b(?:raised|thrown|issued|signall?ed)\b[^.]*?\b(?:when|if|whenever|by|on|for)\b"
    r"|^(?:when|if)\b",
    re.IGNORECASE,
)
#: Why a condition is left out, for provenance.
OMITTED = "reads private names, and neither the message nor the class docstring states the case"


@dataclass(frozen=True, slots=True)
class PrivateCase:
    """The conditions over private names on the way, and what is said instead."""

    conditions: tuple[str, ...]
    #: "in the case the message states: “…”", or None: left out.
    words: str | None
    #: "message", "classDocstring" or "omitted".
    said_as: str
    basis: tuple[str, ...] = ()


def module_aliases(import_lines: dict[str, str]) -> dict[str, str]:
    """``{"_os": "os"}`` from ``{"_os": "import os as _os"}`` (analyze.static's import lines)."""
    out = {}
    for alias, line in import_lines.items():
        parts = line.split()
        if len(parts) >= 2 and parts[0] == "import":
            out[alias] = parts[1]
    return out


def said_from(
    template: MessageTemplate,
    class_name: str | None = None,
    class_doc: str | None = None,
    kind: str = "raise",
) -> tuple[str | None, str, tuple[str, ...]]:
    """(the words, which evidence says them, its keys): the message's stated case, else
    the class docstring's "raised when", else nothing. An assert's message is as often
    what must hold ("whole minute") as what went wrong, so it is only quoted."""
    cause = stated_cause(template)
    if cause is not None:
        if kind == "assert":
            return f"where the assert's message says: {quote(cause)}", "message", ("site.template",)
        return f"in the case the message states: {quote(cause)}", "message", ("site.template",)
    about = summary(class_doc) if class_doc else None
    if about and class_name:
        first = re.split(r"(?<=[.!?])\s+", " ".join(about.split()))[0]
        if _WHEN_RAISED.search(first):
            words = f"in the case the docstring of {code(class_name)} gives: {quote(first)}"
            return words, "classDocstring", ("classInfo",)
    return None, "omitted", ()


def private_case(
    g: Gathered, modules: dict[str, str], constants: dict[str, str]
) -> PrivateCase | None:
    """What the prose says for ``g``'s private conditions; None when it has none."""
    split = split_conditions(g.site.guards, modules, constants)
    if not split.private:
        return None
    info = g.class_info or {}
    name = short_name(str(info.get("qualified") or g.site.error_class or "")) or None
    words, said_as, basis = said_from(g.site.template, name, info.get("docstring"), g.site.kind)
    return PrivateCase(split.private, words, said_as, basis)


def omitted_note(case: PrivateCase) -> PrivateConditions:
    """The provenance of a field whose private conditions were not restated."""
    why = {
        "message": "reads private names; said as the message's own statement",
        "classDocstring": "reads private names; said from the raised class's docstring",
    }.get(case.said_as, OMITTED)
    return PrivateConditions(conditions=list(case.conditions), saidAs=case.said_as, reason=why)
