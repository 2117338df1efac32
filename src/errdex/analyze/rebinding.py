"""Guards that no longer hold at the raise: a name the condition read was bound again
between the test and the raise, or before the test.

``if size is None: size = default; if size < 0: raise`` does not fire "when `size is
None` and `size < 0`": the first test read a value the raise never sees. Stating such a
guard beside one that reads the new value is false, and errdex cannot say what the new
value is, so the guard is left out of the prose there rather than restated (the record's
evidence keeps it). Alone, it is what the raise needs and is kept: leaving it out said
"no enclosing condition" (``findall``'s ``if path[:1] == "/": path = "." + path``).

A guard tested after its name was bound again (``if bufsize is None: bufsize = -1``,
then ``if not isinstance(bufsize, int): raise TypeError``) still holds at the raise, but
it no longer tests what the caller passed: ``Popen(..., bufsize=None)`` does not raise.
Code written for the caller from it (a type guard, a validation check) would be false
for the values the rebinding replaces, so such code names none of :func:`rebound_before`.
"""

from __future__ import annotations

from errdex.evidence import GuardItem

from .facts import FuncFacts
from .guards import CONDITION_KINDS, free_names, has_private

__all__ = ["current_guards", "rebound_before"]


def current_guards(guards: list[GuardItem], func: FuncFacts | None, line: int) -> list[GuardItem]:
    """``guards`` without the conditions over a name ``func`` rebinds after the test and
    before ``line`` (the raise), on a path that may lead to it (:func:`_skipped`), where
    a later guard reads that name again or a loop lies between (:func:`_misread`), or
    where it names something private: such a condition is not said, and where none is,
    the record says the early exits before the raise instead (``platform``'s "the loop
    at line 1302 ends without `break`")."""
    if func is None or not func.bound_lines:
        return guards
    kept: list[GuardItem] = []
    for at, guard in enumerate(guards):
        if guard["kind"] in CONDITION_KINDS:
            skipped = _skipped(func, guards[at:])
            tested = int(guard.get("line") or 0)
            names = free_names(str(guard["text"])) or set()
            rebound = {
                name
                for name in names
                for bound in func.bound_lines.get(name, ())
                if tested < bound < line and not _within(bound, skipped)
            }
            if rebound and (has_private(str(guard["text"])) or _misread(rebound, guards[at + 1 :])):
                continue  # a private one is not said anyway: the early exits are instead
        kept.append(guard)
    return kept


def _misread(rebound: set[str], later: list[GuardItem]) -> bool:
    """Whether the guard, beside ``later`` ones, would read as a test of the new value:
    a later condition reads a name bound again (``if fd < 0: … fd = opener(…)`` then
    ``if not isinstance(fd, int): raise``), or a loop lies between, whose earlier rounds
    may bind it. Otherwise the guard is what the raise needs, tested on the value the
    function was given: ``findall``'s ``if path[:1] == "/": path = "." + path`` before
    its warning, ``skip_until``'s ``if not error_on.isdisjoint(src[pos:new_pos])`` before
    ``pos += 1`` in a loop (dropped, the record said "no enclosing condition": false in
    2 records of the stop 34 paired reviews)."""
    for guard in later:
        if guard["kind"] in ("for", "while"):
            return True
        if guard["kind"] in CONDITION_KINDS and (free_names(str(guard["text"])) or set()) & rebound:
            return True
    return False


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
