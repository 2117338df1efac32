"""The test of an early exit, said as written where the walk would name only its line.

"Triggered when `isinstance(other, timedelta)` and the `return` at line 2190 is not
taken" (``datetime.__add__``) hid the condition that matters, ``0 < delta.days <=
_MAXORDINAL``: the result's ordinal in range returns it, any other raises (stop-39
paired blind review: misleading). :mod:`.fall_through` does not restate a test over a
local or a private name as a condition on the caller's values; past an ``if TEST: …
return`` it now says ``not (TEST)`` instead of the line, where that stays exact: the
test fits on one short line and no name it reads is bound again between the ``if`` and
the raise (``if n: return`` / ``n = f()`` / ``raise`` says nothing of the new ``n``).
"""

from __future__ import annotations

import ast
from collections.abc import Collection, Sequence

from .guards import code
from .local_binding import binds, sole_assignment
from .try_body import SHOWN_LENGTH

__all__ = ["exact_test", "made_as"]


def exact_test(text: str, stmt: ast.If, target: int, body: Sequence[ast.stmt] = ()) -> str | None:
    """``stmt``'s test as ``text`` writes it, or None where it spans lines, is longer
    than :data:`.try_body.SHOWN_LENGTH`, or reads a name that a statement of ``body``
    binds in any way (``else: n = 10``, ``except … as n``, ``import n``, a ``match``
    capture, ``global n``) after the test and before line ``target`` (the raise's, in
    ``text``): only the exit's own branch, left by its ``return``, is not asked."""
    segment = ast.get_source_segment(text, stmt.test)
    if segment is None or "\n" in segment or len(segment) > SHOWN_LENGTH:
        return None
    read = {n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name)}
    after = stmt.test.end_lineno or stmt.lineno
    exit_arm = {id(n) for s in stmt.body for n in ast.walk(s)}
    for node in (n for s in body for n in ast.walk(s)):
        line = getattr(node, "lineno", 0)
        if not after < line <= target or id(node) in exit_arm:
            continue
        if any(binds(node, name) for name in read):
            return None
    return segment


def made_as(
    func: ast.FunctionDef | ast.AsyncFunctionDef | None, stmt: ast.If, hidden: Collection[str]
) -> str | None:
    """ "`ans = self._check_nans(other, context)`": the one assignment before the ``if``
    of each local its test reads, where that is the local's sole binding in the function,
    short, and a statement of the function's own body (one inside a loop or any other
    block, ``for i in range(3): n = g(i)``, may not have run, or run with another ``i``);
    None where a local has none such (the test is then said alone)."""
    if func is None:
        return None
    names = sorted(
        {n.id for n in ast.walk(stmt.test) if isinstance(n, ast.Name) and n.id in hidden}
    )
    said: list[str] = []
    for name in names:
        found = sole_assignment(func, name)
        if found is None or found.lineno >= stmt.lineno or found not in func.body:
            return None
        text = ast.unparse(found)
        if "\n" in text or len(text) > SHOWN_LENGTH:
            return None
        said.append(code(text))
    return " and ".join(said) or None
