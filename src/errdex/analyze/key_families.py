"""What a ``KeyError`` (or an ``AttributeError`` made from one) reports, read off its guard
and message rather than its class name alone.

The paired blind review of stop 38 judged ``missing-key`` false on ``Logger.makeRecord``'s
``KeyError("Attempt to overwrite %r in LogRecord")``, raised when ``key in rv.__dict__``:
the key is there already, a clash; misleading on ``Mailbox.popitem``'s ``KeyError('No
messages in mailbox')``: the mailbox is empty, no key was looked up; and
``missing-attribute`` misleading on ``sysconfig._subst_vars``'s ``AttributeError`` raised
where ``str.format`` raised ``KeyError``: a placeholder is missing from a mapping, no
attribute lookup failed.

Review rr6 found c46's reading too loose, and each now needs more than one sign: a key
"already there" needs the message (or the raising function's name) to say already /
overwrite / duplicate, not negated, and no ``not in`` guard (``if name in removed: raise
KeyError(name)``: the key is gone); an empty container needs an emptiness guard (``not
self``, ``len(x) == 0``) or a ``pop``/``popitem`` besides the words ("no items named %r"
under ``cat not in (…)`` is a lookup; "non-empty" is no "empty"); and a ``KeyError`` made
an ``AttributeError`` stays a missing attribute where a public way in reads an attribute
(``__getattr__`` calling a ``_lookup`` helper, a property).
"""

from __future__ import annotations

import ast
import re
from typing import TYPE_CHECKING

from .guards import parse_guard
from .outside_data import innermost
from .sites import SiteView

if TYPE_CHECKING:
    from .gathered import Gathered

__all__ = ["key_already_there", "key_caught_not_attribute", "read_as_attribute", "says_empty"]

#: The message says the key is there already.
_PRESENT = re.compile(
    r"\boverwrit|\bduplicate\b|\balready (?:exists?|present|defined|registered|in use|set|in)\b",
    re.IGNORECASE,
)
#: The words just before say the opposite: "%r is not already registered".
_NEGATED = re.compile(r"(?:\b(?:not|never|no)\b|n't)\W+(?:\w+\W+)?$", re.IGNORECASE)
#: A function named for a clash: ``_check_duplicate``, ``no_overwrite``.
_CLASH_NAME = re.compile(r"duplicat|overwrit|already", re.IGNORECASE)
#: The message says the container holds nothing: "dictionary is empty", "No messages in
#: mailbox", "pop from an empty set"; not "non-empty".
_EMPTY = re.compile(
    r"(?<![-\w])empty\b|\bno (?:more )?(?:messages|items|elements|entries|keys|values|members)\b",
    re.IGNORECASE,
)
#: Methods that take an item out of a container: raised there, the container is empty.
_POPS = frozenset({"pop", "popitem", "popleft", "popfirst", "poplast"})
#: Decorators that make a method an attribute read.
_PROPERTIES = frozenset({"property", "cached_property", "getter"})
#: Special methods where an ``AttributeError`` is the attribute protocol's own answer.
_ATTRIBUTE_METHODS = frozenset(
    {"__getattr__", "__getattribute__", "__delattr__", "__setattr__", "__get__", "__set__"}
    | {"__delete__"}
)
#: The message speaks of an attribute: ``enum.property.__get__``'s "%r has no attribute %r".
_ATTRIBUTE_WORD = re.compile(r"\battribute", re.IGNORECASE)


def _membership(node: ast.expr, op: type[ast.cmpop]) -> bool:
    """Every alternative of the condition (an ``or``) is ``x in y`` (``op``: ``ast.In``)
    or ``x not in y`` (``ast.NotIn``)."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_membership(v, op) for v in node.values)
    return isinstance(node, ast.Compare) and len(node.ops) == 1 and isinstance(node.ops[0], op)


def _says_present(run: str) -> bool:
    """The text says a key is there already, not that it is not."""
    return any(
        m.group().lower().startswith("overwrit") or not _NEGATED.search(run[: m.start()])
        for m in _PRESENT.finditer(run)
    )


def key_already_there(site: SiteView) -> bool:
    """The ``KeyError`` is raised because the key is present: the message says it would
    overwrite or duplicate one, or that it is there already (not "not already"), or the
    condition closest to the raise is ``key in mapping`` in a function named for a clash.
    Never under ``key not in mapping``: there the key is missing. ``x in y`` alone is not
    enough (``if name in removed: raise KeyError(name)``: the key is gone)."""
    text = innermost(site)
    node = parse_guard(text) if text else None
    if node is not None and _membership(node, ast.NotIn):
        return False
    if any(_says_present(run) for run in site.template.literals):
        return True
    name = (site.function or "").rpartition(".")[2]
    return node is not None and _membership(node, ast.In) and bool(_CLASH_NAME.search(name))


def _len_of(node: ast.expr) -> bool:
    return (
        isinstance(node, ast.Call)
        and isinstance(node.func, ast.Name)
        and node.func.id == "len"
        and len(node.args) == 1
    )


def _empty_test(node: ast.expr) -> bool:
    """``not x`` (``x`` a name or attribute), ``not len(x)``, ``len(x) == 0`` or ``< 1``,
    ``x == {}`` / ``[]`` / ``()``, each alternative of an ``or``."""
    if isinstance(node, ast.BoolOp) and isinstance(node.op, ast.Or):
        return all(_empty_test(v) for v in node.values)
    if isinstance(node, ast.UnaryOp) and isinstance(node.op, ast.Not):
        inner = node.operand
        return isinstance(inner, (ast.Name, ast.Attribute)) or _len_of(inner)
    if not isinstance(node, ast.Compare) or len(node.ops) != 1:
        return False
    left, op, right = node.left, node.ops[0], node.comparators[0]
    if _len_of(left) and isinstance(right, ast.Constant):
        return (isinstance(op, ast.Eq) and right.value == 0) or (
            isinstance(op, ast.Lt) and right.value == 1
        )
    empty = isinstance(right, (ast.Dict, ast.List, ast.Tuple)) and not (
        getattr(right, "keys", None) or getattr(right, "elts", None)
    )
    return isinstance(op, ast.Eq) and empty


def says_empty(site: SiteView) -> bool:
    """The message says the container the call reads is empty, and the code shows it: the
    condition closest to the raise tests emptiness, or the raising method pops an item."""
    if not any(_EMPTY.search(run) for run in site.template.literals):
        return False
    if (site.function or "").rpartition(".")[2] in _POPS:
        return True
    text = innermost(site)
    node = parse_guard(text) if text else None
    return node is not None and _empty_test(node)


def read_as_attribute(g: Gathered) -> bool:
    """A public way in to the raise is an attribute read: an entry point, or a call on
    its way, is ``__getattr__`` or its kin, or a property (the raising function's own
    decorators too). ``Obj.__getattr__`` calling ``self._lookup(name)``: the user reads
    ``obj.name`` and meets a missing attribute, whatever dictionary held it."""
    funcs = [g.func, *g.entry_funcs.values()]
    if any(
        f is not None and any(d[-1:] and d[-1] in _PROPERTIES for d in f.decorators) for f in funcs
    ):
        return True
    return any(
        hop.rpartition(".")[2] in _ATTRIBUTE_METHODS
        for entry in g.entry_points
        for hop in [entry["qualname"], *entry.get("via", ())]
    )


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
