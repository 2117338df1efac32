"""The handling strategy of a record: checked before the call (``type-guard``,
``validation``) or caught after it (``try-catch``).

A caller checks before the call what it controls: the arguments it passes and the state
its own earlier calls left. It catches what it cannot know beforehand: I/O, data read
from outside, races. ``try-catch`` for a mistake of the calling code advises hiding it
(blind reviews 2026-12-06: ``re.compile(p, flags)`` with a compiled pattern,
``ZipFile.close()`` with a handle open, ``randrange`` with step 0).
"""

from __future__ import annotations

import ast
import re
from typing import Any

from .arg_decided import decided_by_arguments
from .chain_funcs import own_params, rebound_before
from .check_words import no_code_reason, words_tip
from .code_fields import programming_error
from .entrypoints import run_by_syntax
from .gathered import Gathered
from .guards import free_names, parse_guard
from .message_advice import FOLLOWED, RESTATED
from .misuse_state import misuse_kind
from .param_requirement import innermost_condition, param_requirement
from .pattern_fix import pattern_fix
from .stated_fixes import exit_fixes
from .unsupported import turned_away

__all__ = ["callable_by_name", "handling_strategy"]


def handling_strategy(
    g: Gathered, fields: dict[str, Any], *, has_scaffold: bool, has_check: bool
) -> tuple[str | None, list[str], str | None]:
    """(strategy, its basis, a prevention tip to add where the record has none)."""
    if fields["typeGuard"] and not turned_away(g.site):  # no type to pass: a setup
        return "type-guard", ["site.guards"], None
    if fields["validationCode"] or has_check:
        return "validation", ["site.guards", "entryPoints"], None
    if g.role is None and any(text in fields["solutions"] for text, _ in exit_fixes(g)):
        # a parameter the caller passes makes the function return a fallback instead (a
        # fix the solutions left out, naming a private class, is none)
        return "fallback", ["function.signature", "sourceCode"], None
    if g.role is None and _fixed_by_the_caller(g):
        # a wrong call or a failed check is fixed before the call, not caught after it
        return "validation", ["errorClass", "backgroundTag"], None
    if g.role is None and _a_wrong_call(g):
        # a bad argument or a call in the wrong order: checked before the call
        why = [f"the condition tests the {g.subject}", no_code_reason(g)]
        tip = words_tip(g) if not fields["preventionTips"] else None
        said = ["what to check: preventionTips"] if fields["preventionTips"] or tip else []
        return "validation", ["errorClass", "site.guards", *why, *said], tip
    if g.role is None and _argument_out_of_bounds(g, fields["solutions"]):
        # the caller's own argument against constants or the object's bounds
        return "validation", ["errorClass", "site.guards", "backgroundTag"], None
    if g.role is None and _stated_requirement(g, fields["solutions"]):
        # the message says what the argument must be: the caller checks it first
        return "validation", ["errorClass", "site.guards", "site.template"], None
    if g.role is None and _pattern_fixed(g, fields["solutions"]):
        # the caller's string does not match the function's regular expression: the
        # fix is the string's form, checked before the call
        return "validation", ["site.guards", "sourceCode", "entryPoints"], None
    if g.role is None and misuse_kind(g) is not None:
        # a use after close or in a state that forbids the call: a bug, not caught
        return "validation", ["site.template", "site.guards"], None
    if decided_by_arguments(g):
        # every condition on the way reads only what the caller passed (.arg_decided)
        return "validation", ["site.guards", "function.signature"], None
    if (fields["tryCatchPattern"] or has_scaffold) and g.site.kind != "warn":
        return "try-catch", ["errorClass"], None
    return None, [], None


def _pattern_fixed(g: Gathered, solutions: list[str]) -> bool:
    """The solutions give :mod:`.pattern_fix`'s form of the caller's string."""
    fix = pattern_fix(g)
    return fix is not None and fix[0] in solutions


def _fixed_by_the_caller(g: Gathered) -> bool:
    """A programming error the calling code fixes (a wrong call, an object in the wrong
    state): not a failed internal check (nothing for a caller to validate) nor
    ``__getattr__``'s ``AttributeError`` (how ``hasattr`` and ``getattr`` learn of no
    attribute)."""
    if g.site.kind not in ("raise", "yield") or g.background[0] == "internal-assertion":
        return False
    if g.site.error_class == "AssertionError":
        return False
    if g.func is not None and g.func.name in ("__getattr__", "__getattribute__"):
        return False
    return programming_error(g)


#: Builtin classes a check of the caller's arguments raises, and those a check of the
#: object's state (a call in the wrong order: ``ZipFile.write`` while a handle from
#: ``ZipFile.open(name, "w")`` is open) raises. A subclass is left alone: ``JSONDecodeError``
#: reports data from outside, which the caller catches rather than checks.
_ARGUMENT_CLASSES = frozenset({"builtins.ValueError", "builtins.TypeError"})
_STATE_CLASSES = frozenset({"builtins.ValueError", "builtins.RuntimeError"})


def _a_wrong_call(g: Gathered) -> bool:
    """A raise whose condition tests what the caller passed (a ``ValueError`` or
    ``TypeError``) or the state its earlier calls left (a ``ValueError`` or
    ``RuntimeError``): a programming error, avoided before the call rather than caught
    (blind review 2026-12-06: "try-catch" for ``re.compile(p, flags)`` with a compiled
    pattern, ``ZipFile.close()`` with a handle open)."""
    if g.site.kind != "raise":
        return False
    canonical = g.site.canonical_class or (
        f"builtins.{g.site.error_class}" if g.site.error_class else ""
    )
    # a private helper's argument is often derived from data the caller read
    # (``ipaddress._BaseV4._parse_octet``): only where the caller passes it, to the
    # raising function itself or unchanged through a public one
    called = g.func is not None and callable_by_name(g.func.qualname)
    if g.subject == "argument":
        return canonical in _ARGUMENT_CLASSES and (called or param_requirement(g) is not None)
    return g.subject == "state" and canonical in _STATE_CLASSES and called


def callable_by_name(qualname: str) -> bool:
    """A public function or method, special methods (``__init__``) counted public."""
    return not any(
        part.startswith("<") or (part.startswith("_") and not part.endswith("__"))
        for part in qualname.split(".")
    )


#: Families of a failure outside the call (data read, the system, a missing piece): the
#: caller catches it, whatever the message says must hold.
_OUTSIDE = frozenset(
    {
        "parse-error",
        "io-failure",
        "encoding-error",
        "timeout",
        "network-failure",
        "permission-denied",
        "missing-dependency",
        "missing-key",
        "not-implemented",
    }
)
#: "should not get here": a branch the library does not expect, no requirement.
_UNREACHED = re.compile(
    r"\bshould(?:n't| not) (?:have )?(?:get|got|reach|happen|be reached)", re.IGNORECASE
)


def _stated_requirement(g: Gathered, solutions: list[str]) -> bool:
    """The condition tests what the caller passed to a function it calls by name, and the
    message states what must hold ("mode must be 'r', 'rb', 'w', or 'wb'", "cannot
    rename nodes from other documents; expected …"): the caller checks it before the
    call (blind review 2026-12-06: "try-catch" for ``Document.renameNode`` judged
    misleading, the owner document being known before the call)."""
    if g.site.kind != "raise" or g.subject != "argument" or g.func is None:
        return False
    if not callable_by_name(g.func.qualname) or run_by_syntax(g.func.qualname):
        return False  # ``obj.attr`` runs ``__getattr__``: no call the caller checks
    if g.background[0] in _OUTSIDE:
        return False
    first = solutions[0] if solutions else ""
    return first.startswith((RESTATED, FOLLOWED)) and not _UNREACHED.search(first)


#: Families of a value out of what the call accepts.
_VALUE_FAMILIES = frozenset({"out-of-range", "invalid-value", "shape-mismatch", "empty-input"})
#: Catch advice among the solutions: then the record does not withhold it.
_CATCH = re.compile(r"\bcatch\b", re.IGNORECASE)
#: The catch said where no fix is known (:mod:`.public_catch`, in place of "errdex found
#: no fix"): it withholds nothing, so a bound the caller checks first stays validation.
_LAST_RESORT = re.compile(r"Catch `[^`]+` around .* where the program must go on after it\.$")


def _argument_out_of_bounds(g: Gathered, solutions: list[str]) -> bool:
    """A value out of what the call accepts, where the record withholds catch advice
    (the family is a mistake of the calling code: its solutions say no fix, or what the
    type guard or the docstring requires, and no catch) and the innermost condition reads only
    the raising function's own parameters as the caller passed them, the object itself
    and constants: ``Text.splitText(offset)`` when ``offset < 0 or offset >
    len(self.data)``, ``Wave_read.setpos(pos)``: each parameter read whole, not looked
    into (:func:`_looked_into`). A local the body computed (``ftplib.parse229``'s ``left = resp.find('(')``: the server's
    reply) or the object's own counters (``Queue.put``'s ``self._qsize()``) are none."""
    func = g.func
    if g.site.kind != "raise" or g.subject != "argument" or func is None:
        return False
    if not callable_by_name(func.qualname) or run_by_syntax(func.qualname):
        return False
    if g.background[0] not in _VALUE_FAMILIES or any(
        _CATCH.search(s) and not _LAST_RESORT.match(s) for s in solutions
    ):
        return False
    guard = innermost_condition(g)
    text = str(guard["text"]) if guard is not None else ""
    names = free_names(text) if text else None
    if not names:
        return False
    params = set(own_params(func))
    receiver = {p for p in func.params[:1] if p in ("self", "cls")}
    read = {n for n in names if n not in receiver and not n.isupper()}
    if not read or not read <= params or read & _looked_into(text):
        return False
    return not any(rebound_before(func, p, g.site.line) for p in read)


def _looked_into(text: str) -> set[str]:
    """Names whose attributes or items the condition reads: what ``resp.history`` holds
    came from the server (``requests``' ``resolve_redirects``: "Exceeded 30 redirects"),
    not from what the caller wrote."""
    node = parse_guard(text)
    if node is None:
        return set()
    return {
        sub.value.id
        for sub in ast.walk(node)
        if isinstance(sub, (ast.Attribute, ast.Subscript)) and isinstance(sub.value, ast.Name)
    }
