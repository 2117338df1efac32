"""What a ``KeyError`` (or an ``AttributeError`` made from one) reports, read off its guard
and message rather than its class name alone.

The paired blind review of stop 38 judged ``missing-key`` false on ``Logger.makeRecord``'s
``KeyError("Attempt to overwrite %r in LogRecord")``, raised when ``key in rv.__dict__``:
the key is there already, a clash; misleading on ``Mailbox.popitem``'s ``KeyError('No
messages in mailbox')``: the mailbox is empty, no key was looked up; and
``missing-attribute`` misleading on ``sysconfig._subst_vars``'s ``AttributeError`` raised
where ``str.format`` raised ``KeyError``: a placeholder is missing from a mapping, no
attribute lookup failed.
"""

from __future__ import annotations

import ast
import re

from .guards import parse_guard
from .outside_data import innermost
from .sites import SiteView

__all__ = ["key_already_there", "key_caught_not_attribute", "says_empty"]

#: The message says the key is there already.
_PRESENT = re.compile(
    r"\boverwrit|\bduplicate\b|\balready (?:exists?|present|defined|registered|in use|set|in)\b",
    re.IGNORECASE,
)
#: The message says the container holds nothing: "dictionary is empty", "No messages in
#: mailbox", "pop from an empty set".
_EMPTY = re.compile(
    r"\bempty\b|\bno (?:more )?(?:messages|items|elements|entries|keys|values|members)\b",
    re.IGNORECASE,
)
#: Special methods where an ``AttributeError`` is the attribute protocol's own answer.
_ATTRIBUTE_METHODS = frozenset(
    {"__getattr__", "__getattribute__", "__delattr__", "__setattr__", "__get__", "__set__"}
    | {"__delete__"}
)
#: The message speaks of an attribute: ``enum.property.__get__``'s "%r has no attribute %r".
_ATTRIBUTE_WORD = re.compile(r"\battribute", re.IGNORECASE)


def _positive_membership(node: ast.expr) -> bool:
    """Every alternative of the condition is ``x in y``: it holds when the key is present."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_positive_membership(v) for v in node.values)
    return isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], ast.In)


def key_already_there(site: SiteView) -> bool:
    """The ``KeyError`` is raised because the key is present: the condition closest to the
    raise is ``key in mapping`` (each alternative of an ``or``), or the message says it
    would overwrite or duplicate one."""
    if any(_PRESENT.search(run) for run in site.template.literals):
        return True
    text = innermost(site)
    node = parse_guard(text) if text else None
    return node is not None and _positive_membership(node)


def says_empty(site: SiteView) -> bool:
    """The message says the container the call reads is empty."""
    return any(_EMPTY.search(run) for run in site.template.literals)


def key_caught_not_attribute(site: SiteView) -> bool:
    """An ``AttributeError`` raised in a handler of ``KeyError`` outside the attribute
    protocol's special methods (and descriptors'), whose message does not speak of an
    attribute: a lookup by key failed (``sysconfig._subst_vars``:
    ``s.format(**local_vars)``), whatever class the library chose to report it."""
    name = (site.function or "").rpartition(".")[2]
    if name in _ATTRIBUTE_METHODS or any(_ATTRIBUTE_WORD.search(r) for r in site.template.literals):
        return False  # the attribute protocol's own answer: an attribute is missing
    for guard in reversed(site.guards):
        if guard["kind"] == "except":
            caught = str(guard["text"]).partition(" was raised")[0].strip("()")
            return any(c.strip().rpartition(".")[2] == "KeyError" for c in caught.split(","))
    return False
