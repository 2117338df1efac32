"""Messages that hold another error's message: a re-raise that wraps what it caught.

``raise AddressValueError("%s in %r" % (exc, ip_str))`` and packaging's
``PylockValidationError(e, context=…)`` print the caught error's message inside their
own: ``Only decimal digits permitted in '04a' in '1.2.3.04a'``. The wrapper's template
fixes few characters (`` in ``, two quotes), the inner site's fixes many, and the inner
one also fits the whole text, its last hole taking the wrapper's tail. Counting the
wrapper's literals alone ranks the inner site first, though the error was raised by the
wrapper. A hole whose value another catalogued template renders (in full, or its start:
``e.message`` is the text before the context) fixes those characters as well, so they
count for the wrapper: its template plus the inner one explain more of the message than
the inner one alone.

The text cannot say which of the two raised it, though, when the inner site's template
renders the whole message too (packaging's ``Unexpected type int (expected str) in
'lock-version'`` is ``_get``'s own message, or ``_get_as`` wrapping one without a
context): both fit, each with literals in the other's holes. Then the wrapper leads by
at most :data:`~errdex.match.group.LITERAL_SLACK` characters, so the two are one group
sharing the confidence, the wrapper first; and where it fixes no more characters than the
inner site alone (tomlkit's ``parse_error(exc, msg)`` around a message that
``Invalid key "{key}" at line …`` renders whole), it is credited nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import TYPE_CHECKING

from errdex.match.group import LITERAL_SLACK
from errdex.match.index import EDGE_BREAKS
from errdex.match.literal_match import match_prefix, pattern_literals

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["NESTED_MIN", "class_sites", "nested_literals", "rival_wrappers", "wrapper_reason"]

#: A hole value shorter than this, or an inner template fixing fewer of its characters,
#: says nothing of another error (a name, a number).
NESTED_MIN = 8
#: The wrapper's own literal characters, at least: a template that is one hole and
#: nothing else (``raise E(str(e))``) would take any message's inner fit as its own.
OWN_MIN = 3
#: Inner candidates checked per hole value, at most.
MAX_INNER = 64
#: A library class raised at more sites than this is not searched site by site.
MAX_CLASS_SITES = 200
#: Patterns whose literal characters :func:`_bounds` keeps, at most (then it starts afresh).
KEPT = 1 << 17
#: No bound: a pattern Python's parser cannot read (verify counts what its holes leave).
NO_BOUND = 1 << 62

_pattern_fixed: dict[str, int] = {}

Verify = Callable[["MatchIndex", int, str], tuple[bool, list[str], int]]


def nested_literals(
    index: MatchIndex,
    entry: int,
    message: str,
    values: list[str],
    own: int,
    verify: Verify,
    memo: dict[str, tuple[int, int] | None],
) -> tuple[int, int] | None:
    """(literal characters an inner template fixes in the best hole, the inner entry) for
    a fitted template with ``own`` literal characters of its own; None if no hole holds
    another error's message. ``memo``: each hole value's inner fit, kept across the
    candidates of one message."""
    if own < OWN_MIN:
        return None
    best: tuple[int, int] | None = None
    for value in values:
        if len(value) < NESTED_MIN or len(value) >= len(message):
            continue
        if value not in memo:
            memo[value] = _inner_fit(index, value, verify)
        found = memo[value]
        if found is not None and found[1] != entry and (best is None or found[0] > best[0]):
            best = found
    return best


def _inner_fit(index: MatchIndex, value: str, verify: Verify) -> tuple[int, int] | None:
    """The most literal characters a catalogued template fixes of ``value``, rendering it
    whole or its start, and that template's entry (the first of them in ``by_message``'s
    order). Tried longest literal text first: one that cannot fix more than the best
    so far is not tried (pydantic's long messages: dozens of kin under one anchor)."""
    # a template whose literal start the value lacks neither renders it nor starts it
    # (match_prefix, too, starts with the first run): most of a crowded anchor's entries
    candidates = index.may_start(index.by_message(value, most=MAX_INNER), value.lstrip(EDGE_BREAKS))
    bounds = _bounds(index, candidates, len(value))
    best, at = 0, -1  # the most literal characters fixed, and where in ``candidates``
    fixed: dict[tuple[str | None, str], int] = {}  # per template: copies of one fit alike
    # stable, ties in order; a bound under NESTED_MIN would stop the loop at once
    tried = [k for k, bound in enumerate(bounds) if bound >= NESTED_MIN]
    for k in sorted(tried, key=bounds.__getitem__, reverse=True):
        if bounds[k] < best:
            break
        if bounds[k] == best and k > at:
            continue  # at most a tie, with a later entry: the first one stays
        i = candidates[k]
        template = (index.runs_text(i), index.pattern(i))
        literal = fixed.get(template, -1)
        if literal < 0:
            literal = fixed[template] = _fixed(index, i, value, verify)
        if literal >= NESTED_MIN and (literal > best or (literal == best and k < at)):
            best, at = literal, k
    return (best, candidates[at]) if at >= 0 else None


def _bounds(index: MatchIndex, candidates: Sequence[int], most: int) -> list[int]:
    """:meth:`.MatchIndex.literal_bounds`, and for an entry RE2 verifies the literal
    characters its pattern fixes (what :func:`.rank_verify.verify` counts where it fits),
    not ``most``: such entries were all tried first, however few characters they could
    fix, and are now tried only where they could fix more than the best so far."""
    bounds = index.literal_bounds(candidates, most)
    pattern_of, kept = index.pattern, _pattern_fixed
    for k, i in enumerate(candidates):
        pattern = pattern_of(i)
        if pattern:
            fixed = kept.get(pattern)
            if fixed is None:
                if len(kept) >= KEPT:
                    kept.clear()
                literal = pattern_literals(pattern)
                fixed = kept[pattern] = NO_BOUND if literal is None else literal
            if fixed < bounds[k]:
                bounds[k] = fixed
    return bounds


def _fixed(index: MatchIndex, entry: int, value: str, verify: Verify) -> int:
    """The literal characters ``entry``'s template fixes of ``value``, rendering it whole or
    its start (0: neither); its runs or pattern alone decide it. An entry of literal runs
    is read by ``match_prefix`` alone: where the runs render the value whole, its last
    hole takes the rest and the last run ends the value, so it counts every run, as the
    full match would (most inner candidates fit neither: one pass, not two)."""
    runs = index.runs(entry)
    if runs is not None:
        found = match_prefix(runs, value)
        return found[1] if found is not None else 0
    ok, _, literal = verify(index, entry, value)
    return literal if ok else 0


def wrapper_reason(index: MatchIndex, inner: tuple[int, int]) -> str:
    """What a reader is told of a wrapper's credit."""
    wrapped = index.entry(inner[1])
    return (
        f"a hole holds a message {wrapped.file_path}:{wrapped.line} raises "
        f"({inner[0]} literal characters more): this site wraps that error"
    )


def rival_wrappers(
    index: MatchIndex, found: Mapping[int, Scored], wrappers: Sequence[tuple[int, int, int]]
) -> dict[int, int]:
    """The literal characters each wrapper ``(entry, own literals, inner entry)`` keeps
    where a site of the pasted class that wraps nothing fits the whole message as well
    (see the module docstring)."""
    wrapping = {i for i, _, _ in wrappers}
    alone = max(
        (
            s.literal
            for i, s in found.items()
            if s.full_match and s.class_factor >= 1.0 and i not in wrapping
        ),
        default=None,
    )
    out: dict[int, int] = {}
    if alone is None:
        return out
    for i, own, _ in wrappers:
        total = found[i].literal
        kept = own if total <= alone else min(total, alone + LITERAL_SLACK)
        if kept != total:
            out[i] = kept
            found[i].reasons.append(
                f"a site that wraps nothing fits the whole message too "
                f"({alone} literal characters): counted {kept}, not {total}"
            )
    return out


def class_sites(index: MatchIndex, error_class: str, known: set[int]) -> list[int]:
    """A library class's sites whose template no anchor finds, with literals of their own
    (``"%s in %r"``: no word long enough to anchor on), when the class has few sites: a
    wrapper's template is often all holes and short words around another message."""
    sites = index.by_class(error_class)
    if len(sites) > MAX_CLASS_SITES:
        return []
    out = []
    for i in sites:
        if i in known:
            continue
        entry = index.entry(i)
        runs = entry.runs
        literal = sum(map(len, runs)) if runs is not None else pattern_literals(entry.pattern)
        if literal is not None and literal >= OWN_MIN:
            out.append(i)
    return out
