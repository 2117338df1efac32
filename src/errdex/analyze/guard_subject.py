"""What a raise's condition tests: the caller's arguments, the object's own state, or
the environment (the file system, the process, the platform).

The cause family (:mod:`errdex.analyze.background`) follows from it before the class
name does: ``multiprocessing``'s ``Process.close()`` takes no argument and raises
``ValueError`` when ``self._popen.poll() is None`` (the child still runs): a call on an
object in the wrong state, not a bad value. ``netrc`` raises ``NetrcParseError`` when
``prop.st_mode & (stat.S_IRWXG | stat.S_IRWXO)``, with ``prop = os.fstat(...)``: the
file's permissions, not its syntax (blind review 2026-12-04, records 44 and 27).

Each name a condition reads is classed by where its value comes from; a name whose
origin is not known (a local bound twice, a module global) leaves the subject unknown:
a family is never guessed.
"""

from __future__ import annotations

import ast
import builtins
from collections.abc import Iterable, Mapping, Sequence
from typing import Literal

from errdex.evidence import GuardItem
from errdex.template import MessageTemplate

from .facts import CallRef, FuncFacts
from .guards import CONDITION_KINDS, free_names, parse_guard

__all__ = ["ENVIRONMENT_MODULES", "Subject", "guard_subject", "guards_subject"]

Subject = Literal["argument", "state", "environment"]
_Kind = Literal["argument", "state", "environment", "neutral"]

#: Modules whose functions and attributes answer from the running system: its files and
#: their modes, its users, its platform, its environment variables, the interpreter.
ENVIRONMENT_MODULES = frozenset(
    {"os", "os.path", "posixpath", "ntpath", "sys", "pwd", "grp", "platform", "resource"}
)
#: Methods that build the object from their arguments: ``self.x`` read there is what the
#: call passed, not state the object had before.
_BUILDERS = frozenset(
    {"__init__", "__new__", "__post_init__", "__setstate__", "__init_subclass__", "__set_name__"}
)
_BUILTINS = frozenset(dir(builtins))


def _receiver(func: FuncFacts) -> str | None:
    """The name a method's object (or class) is bound to: ``self``, ``cls``."""
    if func.cls is None or not func.params or func.params[0].startswith("*"):
        return None
    if ("staticmethod",) in func.decorators:
        return None
    return func.params[0]


def _ref_kind(
    ref: CallRef, func: FuncFacts, imports: Mapping[str, str], seen: frozenset[str]
) -> _Kind | None:
    """Where a dotted name's value comes from: its head's origin, a module's by the
    module (``os.fstat`` -> environment, ``stat.S_IRWXG`` -> neutral)."""
    if not ref or not ref[0] or ref[0] in seen:
        return None  # ``x = x.parent()``: no origin found
    return _name_kind(ref[0], func, imports, seen)


def _name_kind(
    name: str, func: FuncFacts, imports: Mapping[str, str], seen: frozenset[str] = frozenset()
) -> _Kind | None:
    seen = seen | {name}
    receiver = _receiver(func)
    if name == receiver:
        return None if func.name in _BUILDERS else "state"
    if name in {p.lstrip("*") for p in func.params}:
        return "argument"
    if name in func.local_calls:  # ``prop = os.fstat(fp.fileno())``
        if func.local_calls[name][0] == receiver:
            return None  # ``n = self.getNamedItem(name)``: what it gives depends on its arguments
        return _ref_kind(func.local_calls[name], func, imports, seen)
    if name in func.local_binds:  # ``popen = self._popen``
        how, ref = func.local_binds[name]
        return _ref_kind(ref, func, imports, seen) if how == "alias" else None
    if name in func.bound_lines:
        return None  # a local whose value is not known
    if name in imports:
        target = imports[name]
        return "environment" if target in ENVIRONMENT_MODULES else "neutral"
    if name in _BUILTINS or (name.isupper() and name.strip("_")):
        return "neutral"  # a builtin, a module's CONSTANT
    return None


def _names(text: str, func: FuncFacts) -> set[str] | None:
    """The names ``text`` reads, with a parameter or local named like a builtin
    (``Popen.communicate``'s ``input``), which :func:`free_names` leaves out."""
    names = free_names(text)
    node = parse_guard(text)
    if names is None or node is None:
        return None
    own = {p.lstrip("*") for p in func.params} | set(func.bound_lines)
    return names | {n.id for n in ast.walk(node) if isinstance(n, ast.Name) and n.id in own}


def _subject(kinds: Iterable[_Kind | None]) -> Subject | None:
    found = set(kinds)
    if None in found:
        return None
    found.discard("neutral")
    if "argument" in found:
        return "argument"
    if found == {"state"}:
        return "state"
    if found == {"environment"}:
        return "environment"
    return None  # nothing read, or the object's state beside the system's


def guard_subject(
    condition: str, func: FuncFacts | None, imports: Mapping[str, str]
) -> Subject | None:
    """What ``condition`` (a guard's text, in ``func``) reads: ``argument`` when any of
    its names is a parameter (or comes from one), else ``state`` when it reads only the
    object's own attributes, ``environment`` when only the running system's; None when a
    name's origin is unknown or the condition does not parse. ``imports`` are the names
    the module and the function import."""
    if func is None:
        return None
    names = _names(condition, func)
    if names is None:
        return None
    return _subject(_name_kind(name, func, imports) for name in names)


def _hole_expression(text: str) -> str:
    """``{self._name!r}`` -> ``self._name``; ``{x=}`` -> ``x``; other text as it is."""
    if text.startswith("{") and text.endswith("}"):
        text = text[1:-1]
        for mark in ("!", ":"):
            text = text.partition(mark)[0]
        text = text.rstrip("=")
    return text


def reads_argument(texts: Iterable[str], func: FuncFacts, imports: Mapping[str, str]) -> bool:
    """Whether any of ``texts`` (conditions, message holes) reads a parameter."""
    for text in texts:
        for name in _names(text, func) or ():
            if _name_kind(name, func, imports) == "argument":
                return True
    return False


def guards_subject(
    guards: Sequence[GuardItem],
    template: MessageTemplate,
    func: FuncFacts | None,
    imports: Mapping[str, str],
) -> Subject | None:
    """The subject of the condition closest to the raise; None inside a handler (the
    raise then reports what was caught). ``state`` only when no value in the message
    reads a parameter either, and every other condition on the way reads the object's
    state too (``if key not in self._map: if self._strict: raise`` is about the key;
    ``if conflicts: if handler == "error": raise``, with ``conflicts`` a local list of
    what clashes with the option passed, is about that option)."""
    if func is None or any(guard["kind"] == "except" for guard in guards):
        return None
    conditions = [str(g["text"]) for g in guards if g["kind"] in CONDITION_KINDS]
    if not conditions:
        return None
    subject = guard_subject(conditions[-1], func, imports)
    if subject == "state":
        holes = [_hole_expression(h.filled or h.text) for h in template.holes]
        if reads_argument([*conditions[:-1], *holes], func, imports):
            return "argument"
        if any(guard_subject(c, func, imports) not in ("state", None) for c in conditions[:-1]):
            return None
        if any(_unknown(c, func, imports) for c in conditions[:-1]):
            return None
    return subject


def _unknown(condition: str, func: FuncFacts, imports: Mapping[str, str]) -> bool:
    """Whether ``condition`` reads a name of unknown origin (a local list, a global)."""
    names = _names(condition, func)
    return names is None or any(_name_kind(n, func, imports) is None for n in names)
