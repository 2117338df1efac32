"""A lookup's key printed alone, which a constant template fits too: still undecided.

``KeyError: 'NaT'`` is what ``{}['NaT']`` prints, and what ``raise KeyError(key)`` prints
for that key. :func:`.rank_lone.undecided_group` answers such a frameless paste with the
class's one-value sites as a group the text cannot decide, but only when nothing else
answers. A template that is itself such a key fits it with literal characters of its own
(``raise KeyError('NaT')``; a one-value site the extractor folded to a constant, as
``email.contentmanager``'s ``raise KeyError(full_path_for_error)`` to ``'None'``): it
then answered alone, near-certain (0.76 for ``KeyError: 'None'``), and the one-value
sites, which print the very same text, were no candidates at all. The characters such a
template fixes are the key's, which any lookup prints too: they decide nothing. So the
paste's group is those fits and the one-value sites together, undecided, sharing the
confidence of a one-value fit (:data:`.rank_lone.LONE_SCORE`), the constant fits first.

Only a constant template, and only a key: a value that is no ``str``, or a ``str``
without whitespace. A template with values fixes text of its own around them
(``Fraction({numerator}, 0)`` for ``ZeroDivisionError: Fraction(1, 0)``). A repr'd
sentence (zipfile's ``KeyError: "There is no item named 'b.txt' in the archive"``) is
one value too, but its words are the template's, which no lookup of a key prints.
"""

from __future__ import annotations

import ast
from collections.abc import Callable
from typing import TYPE_CHECKING

from errdex.match.group import LITERAL_SLACK
from errdex.match.rank_lone import LONE_SCORE, one_value, undecided_group

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue, Scored

__all__ = ["key_like", "with_lookups"]


def key_like(message: str, error_class: str | None) -> bool:
    """Whether ``message`` is one value as a lookup's key prints (see the module)."""
    if not one_value(message, error_class):
        return False
    try:
        value = ast.literal_eval(message)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return True  # an object's repr (``Timestamp('2020-01-01 00:00:00')``)
    return not isinstance(value, str) or not any(c.isspace() for c in value)


def with_lookups(
    clue: Clue, index: MatchIndex, found: dict[int, Scored], get: Callable[[int], Scored]
) -> None:
    """For a frameless paste of a builtin class whose message is a key and whose every fit
    is a full match of the class (``found``'s answers, ``_answers`` in :mod:`.rank`): the
    fits and the class's one-value sites as one undecided group (see the module)."""
    if clue.frames or not key_like(clue.message, clue.error_class):
        return
    fits = [s for s in found.values() if s.full_match and s.class_factor >= 1.0]
    if not fits or any(s.undecided or s.observed or s.holes for s in fits):
        return  # a template with values (``Fraction({n}, 0)``) fixes words of its own
    before = set(found)
    undecided_group(clue, index, get, found)
    if not any(found[i].undecided for i in set(found) - before):
        return  # no one-value site of the class: the fits stand as they are
    for s in fits:
        s.undecided = True
        s.message = min(s.message, LONE_SCORE)
        # first in the group, by the slack the group forgives (:data:`.group.LITERAL_SLACK`)
        s.literal = min(s.literal, LITERAL_SLACK)
        s.reasons.append(
            "the template is a key and nothing else, which any lookup prints alike: "
            "it fits no better than the sites raising one value"
        )
