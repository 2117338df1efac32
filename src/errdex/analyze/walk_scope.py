"""What one entry-point walk (:mod:`errdex.analyze.chains`) judges callers by: the site's
conditions, the raising function's ``*args`` and ``**kwargs`` names, the module objects the conditions
compare with, and the literals a parameter may be bound to again before the test; and
whether two definitions of a function ever exist on the same platform; and the early
exits before the raise as conditions it needs (:mod:`.early_exits`).
"""

from __future__ import annotations

from collections.abc import Collection, Mapping, Sequence
from dataclasses import dataclass, field
from itertools import product

from .facts import FuncFacts
from .guard_eval import guard_value
from .platforms import OTHER_THAN
from .value_sets import MAX_COMBOS, each_choice

__all__ = ["MAX_COMBOS", "Scope", "apart", "name_roles", "packed_of", "with_exits"]


@dataclass(frozen=True, slots=True)
class Scope:
    """The site's conditions over the raising function's parameters, its packed ones,
    and the module objects the conditions compare with (``MISSING``)."""

    guards: tuple[str, ...]
    #: The raising function's ``*args`` and ``**kwargs`` names, as a direct caller fills
    #: them (``add_option('-o', '--out')``).
    packed: tuple[str, ...]
    objects: dict[str, object]
    #: Packed names the body removes items from: known only when the call leaves them
    #: empty.
    drained: frozenset[str] = frozenset()
    #: Parameters the conditions read that the body binds again, before the raise, only
    #: to literals (``if bufsize is None: bufsize = -1``): the literals. A direct
    #: caller's constant for one is tested beside each of them. No literal: every
    #: binding keeps a ``None`` (:mod:`.none_kept`), and a caller's ``None`` alone is known.
    alternatives: dict[str, tuple[object, ...]] = field(default_factory=dict)
    #: The raising function's parameters: a caller that raised already where a condition
    #: over them holds is no way to the raise (:mod:`.early_raises`).
    params: frozenset[str] = frozenset()
    #: Parameters that still hold the caller's untouched object at the test; and those
    #: the function never changes (:mod:`.param_changes`): a caller's filled list is
    #: trusted there (:mod:`.filled_locals`).
    kept: tuple[frozenset[str], frozenset[str]] = (frozenset(), frozenset())

    def ruled_out(self, known: dict[str, object]) -> bool:
        """Whether the known values make a condition false whichever value each
        parameter bound again holds at the test, and whichever constant each value
        known as one of a few (:class:`~errdex.analyze.guard_eval.OneOf`) is."""
        choices = each_choice(known)
        return choices is not None and all(self._ruled_out(each) for each in choices)

    def _ruled_out(self, known: dict[str, object]) -> bool:
        values = {**self.objects, **known}
        for p, alts in self.alternatives.items():
            if not alts and values.get(p) is not None:
                del values[p]  # bound again to something not known (:mod:`.none_kept`)
        choices = [(p, (values[p], *alts)) for p, alts in self.alternatives.items() if p in values]
        combos = 1
        for _, options in choices:
            combos *= len(options)
        if combos > MAX_COMBOS:
            return False
        for picked in product(*(options for _, options in choices)):
            values.update(zip((p for p, _ in choices), picked, strict=True))
            if not any(guard_value(g, values) is False for g in self.guards):
                return False
        return True


def name_roles(
    params: Collection[str], alternatives: Mapping[str, tuple[object, ...]], packed: Sequence[str]
) -> tuple[object, ...]:
    """What each name a walk judges is, for its cache key: passed on unchanged, bound
    again (with the literals it may hold; none: only a caller's ``None`` kept,
    :mod:`.none_kept`), or packed. Two sites of one function with the same condition
    text may read ``p`` before the body binds it again and after: the names alone
    were one key, and the second site got the first's walk (re-review of a44, s2.py)."""
    return (
        tuple(sorted(params)),
        tuple(sorted((p, repr(alts)) for p, alts in alternatives.items())),
        tuple(packed),
    )


def apart(one: str | None, other: str | None) -> bool:
    """Two definitions' platforms exclude each other: "on Windows" and "on platforms other
    than Windows" (``Popen.terminate`` on POSIX calls the POSIX ``send_signal``)."""
    if one is None or other is None:
        return False
    return (
        OTHER_THAN + one.removeprefix("on ") == other
        or OTHER_THAN + other.removeprefix("on ") == one
    )


def packed_of(func: FuncFacts) -> tuple[str, ...]:
    """The names of a function's ``*args`` and ``**kwargs``, those it has; less a
    ``**kwargs`` that may gain keys unseen (:mod:`.kwargs_escape`): not known."""
    return tuple(
        name
        for p in func.params
        if p.startswith("*") and (name := p.lstrip("*")) not in func.escaped
    )


def with_exits(
    func: FuncFacts, guards: Sequence[str], guard_lines: Sequence[int], at: int | None
) -> tuple[Sequence[str], Sequence[int]]:
    """``guards`` and ``guard_lines`` with ``not (COND)`` of each early exit
    (:mod:`.early_exits`) before the raise in a block around it (the raise's statement
    starts at ``at``), tested at the ``if``'s line: a caller's constants may make it false.
    Unchanged where the lines do not go with the guards one to one."""
    if at is None or len(guards) != len(guard_lines):
        return guards, guard_lines
    exits = [(line, cond) for line, cond, first, last in func.early_exits if first <= at <= last]
    if not exits:
        return guards, guard_lines
    return (
        [*guards, *(f"not ({cond})" for _, cond in exits)],
        [*guard_lines, *(line for line, _ in exits)],
    )
