"""What the prose says instead of a condition over private names.

A condition over private names is said from what a caller can read: the raised class's
own docstring, when it says when the class is raised ("Raised when a section is repeated
in an input source"); else the condition itself, when it is short and its private names
are only attributes (``newChild.nodeType not in self._child_node_types``, ``self._writing``:
a reader learns which state decides); else nothing, and the record's provenance names the
conditions left out and why (:func:`omitted_note`). The message is not quoted as "the
case": it is in the record already, and "in the case the message states: 'handle is
closed'" says nothing more (blind review 2026-12-06, 8 misleading statements).
"""

from __future__ import annotations

import ast
import re
from collections.abc import Collection
from dataclasses import dataclass

from errdex.evidence import PrivateConditions
from errdex.template import MessageTemplate

from .docstrings import summary
from .flag_words import flag_words
from .gathered import Gathered, short_name
from .guards import code, split_conditions
from .quoting import quote

__all__ = [
    "PrivateCase",
    "module_aliases",
    "omitted_note",
    "private_case",
    "private_only_as_attributes",
    "readable",
    "said_from",
]

#: A class docstring that says when the class is raised (not what it is a base of).
_WHEN_RAISED = re.compile(
    r"\b(?:raised|thrown|issued|signall?ed)\b[^.]*?\b(?:when|if|whenever|by|on|for)\b"
    r"|^(?:when|if)\b",
    re.IGNORECASE,
)
#: Why a condition is left out, for provenance.
OMITTED = (
    "reads private names, too long or too private to read as code, and the class docstring "
    "does not state the case"
)
#: A private condition restated as code, at most this long.
READABLE_LENGTH = 60


@dataclass(frozen=True, slots=True)
class PrivateCase:
    """The conditions over private names on the way, and what is said instead."""

    conditions: tuple[str, ...]
    #: "when `self._writing`", "in the case the docstring of `X` gives: “…”", or None:
    #: left out.
    words: str | None
    #: "guard", "classDocstring" or "omitted".
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
    """(the words, which evidence says them, its keys): the class docstring's "raised
    when", else nothing. The message's own words are not restated as the case (``template``
    and ``kind`` are kept for callers): the record carries the message already."""
    del template, kind
    about = summary(class_doc) if class_doc else None
    if about and class_name:
        first = re.split(r"(?<=[.!?])\s+", " ".join(about.split()))[0]
        if _WHEN_RAISED.search(first):
            words = f"in the case the docstring of {code(class_name)} gives: {quote(first)}"
            return words, "classDocstring", ("classInfo",)
    return None, "omitted", ()


def readable(condition: str, modules: Collection[str] = ()) -> bool:
    """Whether a condition over private names reads as code: short, one test (no ``and``
    or ``or``), no private function called, and each private name an attribute
    (``self._writing``, ``_tkinter.TCL_VERSION`` with ``_tkinter`` among the imported
    ``modules``) or text in a string literal: ``_relpath.startswith('..')`` reads a
    local the reader cannot see."""
    if len(condition) > READABLE_LENGTH:
        return False
    try:
        node = ast.parse(condition.strip(), mode="eval").body
    except (SyntaxError, ValueError, RecursionError):
        return False
    return not isinstance(node, ast.BoolOp) and private_only_as_attributes(node, modules)


def private_only_as_attributes(node: ast.AST, modules: Collection[str] = ()) -> bool:
    """Whether code calls no private function and names private things only as
    attributes (``self._sock.recv(n)``, not ``_read(n)`` nor ``self._fill()``) of public
    names or of imported ``modules`` (``_winapi.ERROR_BROKEN_PIPE``)."""
    bases: set[int] = set()
    for sub in ast.walk(node):
        if isinstance(sub, ast.Call):
            func = sub.func
            name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
            if _private(name):
                return False
        if (
            isinstance(sub, ast.Attribute)
            and isinstance(sub.value, ast.Name)
            and sub.value.id in modules
        ):
            bases.add(id(sub.value))
    for sub in ast.walk(node):
        if isinstance(sub, ast.Name) and _private(sub.id) and id(sub) not in bases:
            return False  # a private local or global: nothing a caller sees
    return True


def _private(name: str) -> bool:
    return name.startswith("_") and not (name.startswith("__") and name.endswith("__"))


def private_case(
    g: Gathered, modules: dict[str, str], constants: dict[str, str]
) -> PrivateCase | None:
    """What the prose says for ``g``'s private conditions; None when it has none."""
    flags = flag_words(g.site.guards, g.import_flags, g.site.module)
    split = split_conditions(g.site.guards, modules, constants, flags)
    if not split.private:
        return None
    info = g.class_info or {}
    name = short_name(str(info.get("qualified") or g.site.error_class or "")) or None
    words, said_as, basis = said_from(g.site.template, name, info.get("docstring"), g.site.kind)
    if words is None and all(readable(c, modules) for c in split.private):
        words = "when " + " and ".join(code(c) for c in split.private)
        said_as, basis = "guard", ("site.guards",)
    return PrivateCase(split.private, words, said_as, basis)


def omitted_note(case: PrivateCase) -> PrivateConditions:
    """The provenance of a field whose private conditions were not restated."""
    why = {
        "guard": "reads private names; short enough to say as code",
        "classDocstring": "reads private names; said from the raised class's docstring",
        "initCause": "reads an attribute only __init__ stores: said as an __init__ that did not run",
    }.get(case.said_as, OMITTED)
    return PrivateConditions(conditions=list(case.conditions), saidAs=case.said_as, reason=why)
