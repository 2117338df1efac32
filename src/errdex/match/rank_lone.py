"""One-value sites: a class raised with a message that is one value and nothing else.

``raise ParseError(str(e))`` and ``raise KeyError(key)`` fit any message of their class in
full, and say nothing of it. Two passes of ranking read them:

* :func:`lone_holes`: a library's class (or a builtin one whose message is one bare name)
  whose message no template with text fits; its one-value sites are the answer, as a group.
* :func:`undecided_group`: a builtin class pasted with one value and no frame
  (``KeyError: 'foo'``, ``IndexError: 3``). For a ``KeyError`` the interpreter's own
  lookups raise the very same text (``dict[key]``); for any class the value names none of
  the catalogued one-value sites, so the message alone cannot decide between them. Those
  sites are answered as a group marked *undecided* (:func:`undecided_reason`), confidence
  shared among them
  and never above :data:`LONE_SCORE`: the interpreter is one more possibility the text
  leaves open. A traceback's frames decide instead: this pass reads frameless pastes only.
"""

from __future__ import annotations

import ast
import re
from collections.abc import Callable, Collection, Sequence
from typing import TYPE_CHECKING
from weakref import WeakKeyDictionary

from errdex.match.index import ONE_VALUE_CHARS, MatchIndex
from errdex.match.object_repr import bare_key, one_repr
from errdex.match.rank_verify import verify_once

if TYPE_CHECKING:
    from errdex.match.rank import Clue, Scored

__all__ = [
    "LONE_CHARS",
    "LONE_SCORE",
    "MAX_LONE",
    "MAX_UNDECIDED",
    "ONE_VALUE_REASON",
    "ONE_WORD",
    "UNDECIDED_REASON",
    "lone_holes",
    "one_value",
    "undecided_group",
    "undecided_reason",
]

#: Sites of one class whose template is one hole and nothing else, answered together for
#: a message nothing else fits; a class raised so at more sites than this is not answered.
MAX_LONE = 40
LONE_SCORE = 0.3  # the message score of a fit with no literal text (a one-value site)
#: Literal characters of such a one-value template, at most less one (``{`` and ``}``).
LONE_CHARS = 3
#: A builtin class's message that is one name and nothing else (``AttributeError: name``):
#: a value Python code passed, answered by the one-value sites like a library's class.
ONE_WORD = re.compile(r"[^\W\d]\w{0,99}")
#: One-value sites of a builtin class read for an undecided group, at most (a catalogue of
#: a million records holds thousands of ``raise KeyError(key)``; past this, no answer).
MAX_UNDECIDED = 2000
#: What an undecided group's answer says, in ``match --json`` (``groupReason``), the API
#: and ``explain``.
UNDECIDED_REASON = (
    "also raised by the interpreter's own lookups (dict[key], del d[key], set.remove…) "
    "with this very text: the message alone cannot decide between them and these sites"
)
#: The same for another builtin class: no lookup prints ``IndexError: 3`` (a list says
#: "list index out of range"), but the value alone still names none of the sites.
ONE_VALUE_REASON = (
    "one value and nothing else, which these sites (and code outside the catalogue) "
    "print alike: the message alone cannot decide between them"
)


def undecided_reason(error_class: str | None) -> str:
    """Why a class's one-value message is undecided: the interpreter's lookups for a
    ``KeyError``, the bare value for any other builtin class."""
    return UNDECIDED_REASON if _short(error_class) == "KeyError" else ONE_VALUE_REASON


#: Builtin classes no lookup of the interpreter raises with a bare value, whose one-value
#: sites are other kinds of record: ``assert`` statements, and warnings (``warn``).
_NOT_LOOKUPS = ("AssertionError",)
#: Longest message read as one value (a repr of a large object is no lookup's key).
MAX_VALUE_CHARS = 1000


def _short(name: str | None) -> str:
    return name.rsplit(".", 1)[-1] if name else ""


def one_value(message: str, error_class: str | None) -> bool:
    """Whether a builtin class's message is one value as ``str(exc)`` prints it: a
    literal (``'foo'``, ``3``, ``b'x'``, ``None``), an object's repr, or for a ``KeyError``
    (which prints its key's repr) a bare word (``nan``, ``NaT``). A tuple is one
    value only for ``KeyError`` (its key; another class prints its several arguments so,
    which a template of several holes renders)."""
    if not message or len(message) > MAX_VALUE_CHARS or "\n" in message:
        return False
    try:
        value = ast.literal_eval(message)
    except (ValueError, TypeError, SyntaxError, MemoryError, RecursionError):
        return one_repr(message) or (_short(error_class) == "KeyError" and bare_key(message))
    return not isinstance(value, tuple) or _short(error_class) == "KeyError"


def _is_warning(error_class: str) -> bool:
    import builtins

    found = getattr(builtins, _short(error_class), None)
    return isinstance(found, type) and issubclass(found, Warning)


def lone_holes(clue: Clue, message: str, index: MatchIndex, get: Callable[[int], Scored]) -> None:
    """A library's own class whose message no template with text fits: the sites raising it
    with a message that is one value and nothing else (``raise ParseError(str(e))``, or a
    dict's ``{…}``, too little text to be indexed) are its answer, as a group, when they
    are few; those whose few characters fit (a dict's braces) come first. ``message``:
    the clue's, as far as ranking reads it."""
    sites = index.one_value_sites(_short(clue.error_class))
    if len(sites) > MAX_LONE and LONE_CHARS >= ONE_VALUE_CHARS:
        return  # every one of them is such a site (as below): too many to answer
    lone = _pure(index, sites, MAX_LONE)
    if lone is None:
        return
    for i in _fitting(index, lone, message, get):
        get(i).reasons.append(
            f"the site's message is one value, and no template with text fits: "
            f"one of {len(lone)} sites that raise {_short(clue.error_class)} so"
        )


def undecided_group(
    clue: Clue,
    index: MatchIndex,
    get: Callable[[int], Scored],
    scored: Collection[int] = (),
    frameless: Callable[[str], bool] | None = None,
) -> None:
    """A frameless paste of a builtin class whose message is one value and that nothing
    else answers: the class's one-value sites, as a group the text cannot decide (see the
    module's docstring). Warnings and ``AssertionError`` (``warn`` and ``assert`` records)
    are not raised by lookups: they are left unanswered, as before. Sites alike are scored
    once, as twins (:func:`_alike`); ``scored``: the entries scored so far. ``frameless``:
    for a traceback ending in a Python line that calls into compiled code
    (:func:`.native.undecided_below`), which of the sites' files print no frame: only
    those are left open, as the line's own lookups are."""
    cls = _short(clue.error_class)
    if (clue.frames and frameless is None) or cls in _NOT_LOOKUPS or _is_warning(cls):
        return
    if not one_value(clue.message, clue.error_class):
        return
    sites = index.one_value_sites(cls)
    if frameless is not None:
        sites = _frameless_sites(index, cls, sites, frameless)
    lone = _pure(index, sites, MAX_UNDECIDED)
    if not lone:
        return
    if frameless is None:
        twins = _alike(index, cls, lone, clue.error_class, scored)
    else:  # compiled sites each stand alone (:func:`_fold`): nothing to fold
        twins = {i: [] for i in lone}
    for i in _fitting(index, sorted(twins), clue.message, get):
        s = get(i)
        s.undecided = True
        s.reasons.append(
            f"the site's message is one value: one of {len(lone)} catalogued sites that "
            f"raise {cls} so; {undecided_reason(cls)}"
        )
        if twins[i]:
            s.twins = tuple(twins[i])


def _frameless_sites(
    index: MatchIndex, cls: str, sites: Sequence[int], frameless: Callable[[str], bool]
) -> list[int]:
    """Those of ``sites`` (the one-value sites of ``cls``) in files that print no frame,
    read through all of them (the compiled ones may come last), up to one more than
    :data:`MAX_UNDECIDED`: past it the group is not answered. Read once per index and
    class; the list is the cache's."""
    per_index = _FRAMELESS.setdefault(index, {})
    kept = per_index.get((cls, frameless))
    if kept is None:
        kept = per_index[cls, frameless] = []
        for i in sites:
            if frameless(index.file_path(i)):
                kept.append(i)
                if len(kept) > MAX_UNDECIDED:
                    break
    return kept


#: Per index: a class's frameless one-value sites, read once (a builtin class's thousands
#: cost 15 ms a query to read again).
_FRAMELESS: WeakKeyDictionary[MatchIndex, dict[tuple[str, Callable[[str], bool]], list[int]]]
_FRAMELESS = WeakKeyDictionary()


def _alike(
    index: MatchIndex,
    cls: str,
    lone: list[int],
    pasted: str | None,
    scored: Collection[int],
) -> dict[int, list[int]]:
    """``lone`` (the one-value sites of ``cls``) folded into twins (:mod:`.index_groups`):
    each stand-in -> the sites it stands for, scored alike and copied out where answers are
    shown. A builtin class has hundreds of one-value sites at a million templates (``raise
    NotImplementedError(x)``): scoring and grouping each in turn set the slowest queries'
    time, and so did reading each to fold them, which is done once per index and class
    (:func:`_fold`). Of this paste: a site scored already stands alone, and so does each of
    a class the pasted one is a superclass of (its file decides,
    :func:`~.classes.foreign_subclass`)."""
    cached, head_of = _fold(index, cls, lone)
    heads = dict(cached)  # the lists are the cache's: replaced, never changed
    alone = {i for i in scored if i in head_of} if scored else set()
    for head in {head_of[i] for i in alone}:
        group = [head, *cached[head]]
        del heads[head]
        rest = [i for i in group if i not in alone]
        heads.update((i, []) for i in group if i in alone)
        if rest:
            heads[rest[0]] = rest[1:]
    for head, twins in list(heads.items()):
        if twins and pasted:
            recorded = index.entry(head).error_class
            qualified = index.qualified_class(head)
            if recorded and index.classes.relation(pasted, recorded, qualified) == "superclass":
                heads.update((i, []) for i in [head, *twins])
    return heads


#: Per index and class, its one-value sites folded (:func:`_fold`).
_FOLDED: WeakKeyDictionary[MatchIndex, dict[str, tuple[dict[int, list[int]], dict[int, int]]]]
_FOLDED = WeakKeyDictionary()


def _fold(
    index: MatchIndex, cls: str, lone: list[int]
) -> tuple[dict[int, list[int]], dict[int, int]]:
    """``(stand-in -> the sites it stands for, site -> its stand-in)`` of ``lone``: sites
    alike in what a frameless message's score reads (:meth:`~.index.MatchIndex.alike`);
    one a compiled module replaces or not in a ``.py`` file (the compiled passes read those
    one by one) stands alone. Made once per index and class, and kept: ``lone`` is always
    the class's whole list (:func:`undecided_group` folds no frameless subset of it)."""
    per_index = _FOLDED.setdefault(index, {})
    if cls in per_index:
        return per_index[cls]
    heads: dict[int, list[int]] = {}
    head_of: dict[int, int] = {}
    first: dict[tuple[int, int, str, str], int] = {}
    for i in lone:
        if index.shadowed_by(i) is not None or not index.file_path(i).endswith(".py"):
            head = i
        else:
            head = first.setdefault(index.alike(i), i)
        head_of[i] = head
        if head == i:
            heads[i] = []
        else:
            heads[head].append(i)
    per_index[cls] = heads, head_of
    return heads, head_of


def _pure(index: MatchIndex, sites: Sequence[int], most: int) -> list[int] | None:
    """The sites whose template is one value with fewer than :data:`LONE_CHARS` literal
    characters (or one RE2 verifies); None when they are more than ``most``. Of
    :meth:`~.index.MatchIndex.one_value_sites`, that is every one when ``LONE_CHARS`` is
    no less than the index's ``ONE_VALUE_CHARS``: they are not read one by one (a builtin
    class's thousands at a million templates were most of the slowest queries' time)."""
    if LONE_CHARS >= ONE_VALUE_CHARS:
        return list(sites) if len(sites) <= most else None
    lone: list[int] = []
    for i in sites:
        runs = index.runs(i)  # None: a template RE2 verifies (a dict with int keys)
        if runs is None or (len(runs) == 2 and len(runs[0]) + len(runs[1]) < LONE_CHARS):
            lone.append(i)
            if len(lone) > most:
                return None
    return lone


def _fitting(
    index: MatchIndex, lone: list[int], message: str, get: Callable[[int], Scored]
) -> list[int]:
    """Score each of ``lone`` whose template fits ``message`` as a one-value fit (each
    template matched once: most of a class's one-value sites share ``{}``)."""
    fitting = []
    fits = verify_once(index, message)
    for i in lone:
        ok, values, _ = fits(i)
        if not ok:
            continue
        # what the holes leave: the braces, where RE2 verified (``{<int>…}``) as elsewhere
        literal_length = len(message) - sum(len(v) for v in values)
        s = get(i)
        s.full_match, s.literal = True, literal_length
        s.message = LONE_SCORE * (1 + literal_length / LONE_CHARS / 2)
        s.holes = {str(k): v for k, v in enumerate(values)}
        fitting.append(i)
    return fitting
