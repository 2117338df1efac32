"""A failed regular-expression match said through what the local holds.

``platform._sys_version`` raises "when ... `match is None`": ``match`` is a local the
reader never sees (blind review stop 35, record 18; ``not mo`` in lib2to3's ``conv.py``,
record 31). Where the tested local certainly holds ``P.match(x)`` (``fullmatch``,
``search``, ``re.match(p, x)``) at the test (:mod:`.local_values`), the condition is said
with that expression: ``not self.version_re.match(vstring)`` names what did not match
what. A private pattern (``_sys_version_parser``) would take the condition out of the
prose altogether (:mod:`.private_terms`), which hid the deciding condition before
(:mod:`.local_terms`): the local is then kept.
"""

from __future__ import annotations

import ast
from collections.abc import Mapping

from errdex.evidence import GuardItem

from .chain_funcs import rebound_before
from .facts import FuncFacts
from .guards import CONDITION_KINDS, has_private, parse_guard
from .pattern_fix import match_call, tested_local

__all__ = ["match_guards"]


def match_guards(
    func: FuncFacts | None, guards: list[GuardItem], patterns: Mapping[str, str]
) -> list[GuardItem]:
    """``guards`` with each ``m is None`` / ``not m`` over a local that holds a match
    call said with the call (a compiled pattern's: ``patterns``, the module's)."""
    if func is None or not func.local_values:
        return guards
    out: list[GuardItem] = []
    for guard in guards:
        text = str(guard["text"])
        local = tested_local(text) if guard["kind"] in CONDITION_KINDS else None
        line = int(guard.get("line") or 0)
        spans = [
            expr
            for first, last, expr in func.local_values.get(local or "", ())
            if first < line <= last
        ]
        if (
            local is None
            or len(spans) != 1
            or (found := match_call(spans[0], patterns, func)) is None
            or _rebound_param(func, found[0], line)  # ``text = text.strip().lower()`` first
            or (has_private(spans[0]) and not has_private(text))
            or _long_literal(spans[0], patterns, func)
        ):  # a private pattern's name is left out of the prose with its condition: kept
            out.append(guard)
            continue
        node = parse_guard(text)
        negated = isinstance(node, ast.UnaryOp)
        said = f"not {spans[0]}" if negated else f"{spans[0]} is None"
        out.append({**guard, "text": said})
    return out


def _rebound_param(func: FuncFacts, name: str, line: int) -> bool:
    """A parameter the body binds again before ``line``: the match reads the body's
    value, not the caller's (``word("ABC")`` passes ``WORD.fullmatch(text.lower())``)."""
    params = {p.lstrip("*") for p in func.params}
    return name in params and rebound_before(func, name, line)


#: A literal pattern longer than this is no condition a reader follows in a sentence
#: (``zoneinfo``'s ``re.fullmatch('(?P<sign>[+-])?(?P<h>\\d{1,3})(:(?P<m>...', tstr)``).
_PATTERN_CHARS = 30


def _long_literal(expr: str, patterns: Mapping[str, str], func: FuncFacts) -> bool:
    """The match call's pattern is a string literal longer than :data:`_PATTERN_CHARS`."""
    found = match_call(expr, patterns, func)
    pattern = found[1] if found is not None else ""
    return pattern[:1] in ("'", '"') and len(pattern) > _PATTERN_CHARS
