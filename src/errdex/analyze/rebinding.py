"""Guards that no longer hold at the raise: a name the condition read was bound again
between the test and the raise.

``if size is None: size = default; if size < 0: raise`` does not fire "when `size is
None` and `size < 0`": the first test read a value the raise never sees. Stating such a
guard as the trigger is false, and errdex cannot say what the new value is, so the guard
is left out of the prose rather than restated (the record's evidence keeps it).
"""

from __future__ import annotations

from errdex.evidence import GuardItem

from .facts import FuncFacts
from .guards import CONDITION_KINDS, free_names

__all__ = ["current_guards"]


def current_guards(guards: list[GuardItem], func: FuncFacts | None, line: int) -> list[GuardItem]:
    """``guards`` without the conditions over a name ``func`` rebinds after the test and
    before ``line`` (the raise)."""
    if func is None or not func.bound_lines:
        return guards
    kept: list[GuardItem] = []
    for guard in guards:
        if guard["kind"] in CONDITION_KINDS:
            tested = int(guard.get("line") or 0)
            names = free_names(str(guard["text"])) or set()
            if any(
                tested < bound < line for name in names for bound in func.bound_lines.get(name, ())
            ):
                continue
        kept.append(guard)
    return kept
