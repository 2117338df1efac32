"""A package's class chosen at run time, beside the class's own sites that print the same.

werkzeug's ``abort(404)`` raises ``self.mapping[code](*args, **kwargs)``: with no argument
the ``NotFound`` it builds prints the class's own ``404 Not Found: <its description>``,
exactly what ``raise NotFound()`` prints at the package's own sites. Those sites' template
is the class's ``__str__`` (``{code} {self.name}: {self.description}``), holes and a
separator or two: it fits the paste through the holes, and the text cannot tell them from
the site choosing the class at run time. :mod:`.rank_passed` answers such a site only when
nothing else does; here it joins the class's sites as one more member of their group, at
their score and sharing the confidence, and after them (its own template fixes no
character).
Where the class's own template fixes text of its own (a message of words), the run-time
site stays out: that text is evidence it does not share. So it does where one of the
class's fits is a one-value site (``raise InvalidRequirement(str(e))``, jinja2's
``raise self._undefined_exception(msg)``): that fit says nothing of the text, and a
run-time site beside it (``raise rewrite_traceback_stack(...)``) was put before the true
site in the group's order (jinja2's message top-1 91% -> 86%, packaging's 82.6% -> 69%).
"""

from __future__ import annotations

from collections.abc import Callable, Iterable
from typing import TYPE_CHECKING

from errdex.match.group import LITERAL_SLACK
from errdex.match.rank_lone import LONE_SCORE
from errdex.match.rank_passed import MAX_PASSED, own_package_sites
from errdex.match.rank_verify import verify_once

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = ["THIN_CHARS", "THIN_SHARE", "beside_own_sites"]

#: A template whose literal characters make less than this share of the message fits it
#: through its holes: the separators and code of an exception class's ``__str__`` (``' '``
#: and ``': '`` in werkzeug's, 3 of ``404 Not Found: …``'s 150). The share below which a
#: full match says less (:data:`.rank.MIN_COVERAGE`).
THIN_SHARE = 1 / 3
#: And at most this many: a code and the separators (``404 `` and ``: ``). jinja2's
#: ``Encountered unknown tag {name!r}.`` fixes 25 characters of a long message, words the
#: run-time site does not print of itself (its re-raise at ``environment.py:942`` joined
#: 12 of jinja2's 100 groups, message top-1 the same, order-at-random 89.8% -> 81.8%).
THIN_CHARS = 6


def beside_own_sites(
    error_class: str,
    message: str,
    index: MatchIndex,
    scored: Iterable[Scored],
    get: Callable[[int], Scored],
) -> None:
    """Score the pasted class's package's run-time-class sites whose template fits
    ``message`` as well as the best fit of the class's own sites, when that fit is thin
    (its literal characters under :data:`THIN_SHARE` of the message and at most
    :data:`THIN_CHARS`): they print the same text."""
    scored = list(scored)
    fits = [s for s in scored if s.full_match and s.class_factor >= 1.0]
    if not fits:
        _beside_overrides(error_class, message, index, scored, get)
        return
    most = max((s.literal for s in fits), default=THIN_CHARS + 1)
    if most > THIN_CHARS or most >= THIN_SHARE * len(message):
        return
    if min(s.literal for s in fits) <= 0:
        return  # a one-value site fits too: it ties with anything (.rank_override's case)
    best = max(fits, key=lambda s: s.message)
    # it prints the characters the class's template fixes (``404 ``, ``: ``), which the
    # class, not the site, writes: counted as fixed within the group's slack, so it joins
    # the group, after the sites whose template shows them
    for s in _run_time_fits(error_class, message, index, get):
        s.literal = max(0, best.literal - LITERAL_SLACK)
        s.message = min(1.0, best.message * best.class_factor / s.class_factor)
        s.reasons.append(
            "its class is chosen at run time, by a call or lookup; built with no message "
            "it prints the class's own text, as the class's own sites do, whose template "
            "fits only through its values: the text cannot tell them apart"
        )


def _beside_overrides(
    error_class: str,
    message: str,
    index: MatchIndex,
    scored: list[Scored],
    get: Callable[[int], Scored],
) -> None:
    """The class's sites answer only as overrides (no template of it fits): the run-time
    sites that fit join their group at their score, first (literal 0 against their -1):
    a run-time site's template fits the pasted text, an override's does not. At most
    :data:`.rank_passed.MAX_PASSED` of them join, so a crowd of them cannot lead."""
    overrides = [s for s in scored if s.message > 0 and s.class_factor >= 1.0]
    if not overrides or any(s.literal >= 0 or s.message > LONE_SCORE for s in overrides):
        return  # none, or a partial or resembling fit of the class's text: not overrides
    best = max(overrides, key=lambda s: s.message * s.class_factor)
    for s in _run_time_fits(error_class, message, index, get):
        s.literal = 0
        s.message = min(1.0, best.message * best.class_factor / s.class_factor)
        s.reasons.append(
            "its class is chosen at run time, by a call or lookup, and its template fits "
            "the message through its values, where no template of the class's own sites "
            "fits it (they answer only as a caller's replaced text)"
        )


def _run_time_fits(
    error_class: str, message: str, index: MatchIndex, get: Callable[[int], Scored]
) -> list[Scored]:
    """The class's package's run-time-class sites whose template fits ``message`` through
    its values alone, not scored yet and of no known class: marked a full match. None
    when more than :data:`.rank_passed.MAX_PASSED` fit (a group that large says nothing)."""
    found: list[tuple[Scored, list[str]]] = []
    check = verify_once(index, message)
    for i in own_package_sites(error_class, index, index.run_time_sites()):
        ok, values, literal = check(i)
        if not ok or literal > 0:
            continue
        s = get(i)
        if s.full_match or s.class_factor <= 0 or s.class_factor >= 1.0:
            continue  # scored already, or of a known class
        found.append((s, list(values)))
        if len(found) > MAX_PASSED:
            return []
    for s, values in found:
        s.full_match = True
        s.holes = {str(k): v for k, v in enumerate(values)}
    return [s for s, _ in found]
