"""Sites raising an exception a caller passed in: the answer when nothing else is.

more-itertools' ``one(iterable, too_short=None, too_long=None)`` ends in ``raise
too_long``; ``unittest.mock`` raises a mock's ``side_effect`` (``raise effect``). Such a
site's class is decided at run time and its message is the value's own, so it may have
raised any error, of a class the catalogue never saw (a test's ``FalsyError``) or with a
message no template holds, and a traceback's innermost frame is that very line. When no
site answers a pasted error at all, these sites are the honest answer: of the pasted
class's own package, those whose class a call or lookup decides too (werkzeug's
``abort(401)`` raises ``self.mapping[code](*args)``); else, when the class is Python's
own or one the catalogue never raises (a library's own class is raised at its own sites,
whose text a caller may have replaced: :mod:`.rank_override`), those raising what a
caller passed, as one group
sharing the confidence, when they are few enough (:data:`MAX_PASSED`) for a group to say
something. Their class is unknown (:func:`errdex.match.rank.class_agreement` gives it
0.85), which is why any other answer, of the pasted class, outranks them.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING

from errdex.match.rank_lone import LONE_SCORE, MAX_LONE
from errdex.match.rank_verify import verify_once

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue, Scored

__all__ = ["MAX_PASSED", "own_package_sites", "passed_in"]

#: Sites of a passed-in exception answered together, at most: past this, no answer (as
#: for a class's one-value sites, :data:`.rank_lone.MAX_LONE`).
MAX_PASSED = MAX_LONE


def passed_in(clue: Clue, index: MatchIndex, get: Callable[[int], Scored], builtin: bool) -> None:
    """Score the catalogue's sites raising a passed-in exception as one-value fits of the
    clue's message (call it only when nothing else answers the clue); ``builtin``: its
    class is Python's own."""
    sites = _chosen(clue.error_class or "", index, builtin)
    count = index.count_sites(sites, MAX_PASSED)
    if not count or count > MAX_PASSED:
        return
    fits = verify_once(index, clue.message)
    for i in sites:
        ok, values, _ = fits(i)
        if not ok:
            continue
        s = get(i)
        s.full_match, s.literal = True, 0
        s.message = LONE_SCORE
        s.holes = {str(k): v for k, v in enumerate(values)}
        s.reasons.append(
            f"no other site answers: this one raises an exception whose class is decided "
            f"at run time (any class, any message), one of {count} such sites"
        )


def _chosen(error_class: str, index: MatchIndex, builtin: bool) -> Sequence[int]:
    """The sites that may have raised ``error_class``: those of its own package whose class
    is decided at run time (werkzeug's ``raise self.mapping[code](*args)`` for a
    ``werkzeug.exceptions.Unauthorized``), else, for a builtin class or one the catalogue
    never raises, every site raising what its caller passed."""
    name = error_class.rpartition(".")[2]
    own = own_package_sites(error_class, index, (*index.passed_in_sites(), *index.run_time_sites()))
    if own:
        return own
    if not builtin and index.by_class(name):
        return ()  # the library's own class: its sites and their overrides decide
    return index.passed_in_sites()


def own_package_sites(error_class: str, index: MatchIndex, sites: Sequence[int]) -> list[int]:
    """Those of ``sites`` in the top-level package of the module-qualified ``error_class``
    (``werkzeug.exceptions.NotFound``: werkzeug's); none for an unqualified class."""
    top = error_class.rpartition(".")[0].split(".", 1)[0]
    if not top:
        return []
    mark = f"/{top}/"
    return [i for i in sites if mark in f"/{index.file_path(i)}"]
