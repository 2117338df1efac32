"""Guards that no longer hold at the raise: a name the condition read was bound again
between the test and the raise, or before the test.

``if size is None: size = default; if size < 0: raise`` does not fire "when `size is
None` and `size < 0`": the first test read a value the raise never sees. Stating such a
guard as the trigger is false, and errdex cannot say what the new value is, so the guard
is left out of the prose rather than restated (the record's evidence keeps it).

A guard tested after its name was bound again (``if bufsize is None: bufsize = -1``,
then ``if not isinstance(bufsize, int): raise TypeError``) still holds at the raise, but
it no longer tests what the caller passed: ``Popen(..., bufsize=None)`` does not raise.
Code written for the caller from it (a type guard, a validation check) would be false
for the values the rebinding replaces, so such code names none of :func:`rebound_before`.
"""

from __future__ import annotations

from errdex.evidence import GuardItem

from .facts import FuncFacts
from .guards import CONDITION_KINDS, free_names

__all__ = ["current_guards", "rebound_before"]


def current_guards(guards: list[GuardItem], func: FuncFacts | None, line: int) -> list[GuardItem]:
    """``guards`` without the conditions over a name ``func`` rebinds after the test and
    before ``line`` (the raise), on a path that may lead to it (:func:`_skipped`)."""
    if func is None or not func.bound_lines:
        return guards
    kept: list[GuardItem] = []
    for at, guard in enumerate(guards):
        if guard["kind"] in CONDITION_KINDS:
            skipped = _skipped(func, guards[at:])
            tested = int(guard.get("line") or 0)
            names = free_names(str(guard["text"])) or set()
            if any(
                tested < bound < line and not _within(bound, skipped)
                for name in names
                for bound in func.bound_lines.get(name, ())
            ):
                continue
        kept.append(guard)
    return kept


def rebound_before(func: FuncFacts | None, line: int, guards: list[GuardItem]) -> frozenset[str]:
    """The names ``func``'s body binds on a line before ``line`` (the raise), on a path
    that may lead to it (:func:`_skipped`): a parameter among them may hold the body's
    value at the raise, not the caller's."""
    if func is None:
        return frozenset()
    skipped = _skipped(func, guards)
    return frozenset(
        name
        for name, lines in func.bound_lines.items()
        if any(at < line and not _within(at, skipped) for at in lines)
    )


def _skipped(func: FuncFacts, guards: list[GuardItem]) -> list[tuple[int, int]]:
    """The line spans of the ``if`` bodies whose ``else`` the raise sits in (``guards``,
    from the test in question on): a binding there is on no path to it
    (``random.Random.seed`` binds ``a`` only in the branches before its ``elif not
    isinstance(a, ...): raise TypeError``). Not past a loop: an earlier round may have
    run that body (``for ...: if c: x = None / else: raise``)."""
    spans: list[tuple[int, int]] = []
    for guard in guards:
        if guard["kind"] in ("for", "while"):
            break  # the bodies skipped inside it may have run in an earlier round
        if guard["kind"] == "else" and (at := int(guard.get("line") or 0)) in func.else_skips:
            spans.append(func.else_skips[at])
    return spans


def _within(line: int, spans: list[tuple[int, int]]) -> bool:
    return any(first <= line <= last for first, last in spans)
