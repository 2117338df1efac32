"""Ranking: turn what a paste says (class, message, frames) into scored candidates.

Every piece of evidence adds a reason a person can read. The confidence is the
candidate's own score shrunk by how many other candidates are as good: a message
raised verbatim at three sites, with no frame to tell them apart, gives each of them
about a third, not three answers at the same high confidence.
"""

from __future__ import annotations

import builtins
import re
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from errdex.match import index_groups, native
from errdex.match.classes import ClassResolver, foreign_subclass
from errdex.match.group import TIE_RATIO, order_group
from errdex.match.index import EDGE_BREAKS, MatchIndex
from errdex.match.index_required import may_fit, verify_known
from errdex.match.literal_match import match_prefix, match_runs
from errdex.match.prior import Prior
from errdex.match.rank_frames import (
    credit_callees,
    lift_past_relays,
    past_helper_raise,
    rule_out_by_innermost,
    score_frames,
)
from errdex.match.rank_fuzzy import FUZZY_MIN, fuzzy_matches, similar_cap
from errdex.match.rank_instances import follow_instances
from errdex.match.rank_keylike import with_lookups
from errdex.match.rank_lone import (
    LONE_CHARS,
    LONE_SCORE,
    MAX_LONE,
    ONE_WORD,
    lone_holes,
    undecided_group,
)
from errdex.match.rank_nested import class_sites, nested_literals, rival_wrappers, wrapper_reason
from errdex.match.rank_override import overridden
from errdex.match.rank_passed import passed_in
from errdex.match.rank_run_time import beside_own_sites
from errdex.match.rank_verify import verify, verify_once
from errdex.match.versions import align

__all__ = [
    "FUZZY_MIN",
    "LONE_CHARS",
    "LONE_SCORE",
    "MAX_LONE",
    "TIE_RATIO",
    "Candidate",
    "Clue",
    "Scored",
    "rank",
]

#: Messages longer than this are matched on their start only: beyond it lies nothing a
#: template could still pin, and a 50 MB paste must answer in bounded time.
MAX_MESSAGE = 20_000
#: Sites of a bare ``raise Class`` considered for one empty message.
MAX_BARE = 20
#: What a site of another class gets: such a site cannot have raised the pasted error.
CLASS_DIFFERS = 0.1
#: A match on part of the message (text appended after it, or a summary cut short)
#: counts this much of a full match of the same literal length.
PARTIAL_WEIGHT = 0.85
#: Fewer literal characters than this matched on part of a message say nothing.
PARTIAL_MIN = 8
#: Sites of its class tried for a message cut short, at most.
MAX_TRUNCATED = 20_000
#: Trailing lines of a message tried as notes (``add_note``), at most, and the sites tried.
MAX_NOTE_LINES = 16
MAX_NOTED = 200
#: A group of sites the paste cannot tell apart is returned whole up to this many.
MAX_GROUP = 20
#: Candidates below this confidence are folded away where people read them.
FOLD_BELOW = 0.05

_NO_HIERARCHY = ClassResolver({})  # builtins and aliases only


@dataclass(frozen=True, slots=True)
class Clue:
    """One error of a paste, reduced to what ranking uses."""

    error_class: str | None
    message: str
    frames: tuple[tuple[str, int | None, str | None], ...]  # (path, line, function), innermost last
    weight: float = 1.0  # the finally raised error counts fully, chained causes less
    truncated: bool = False  # the message was cut short (``FAILED … - Class: msg...``)
    final: bool = True  # the error finally raised (False: a cause or context printed before it)
    #: Names the innermost frame's source line calls (``ujson.dump([], 1)``: ``dump``).
    calls: tuple[str, ...] = ()
    #: The frames are every Python frame the error passed (CPython's own traceback, not one
    #: pytest, IPython or JAX filtered): a Python site that raised it is the innermost.
    whole: bool = False
    #: The innermost frame's source line raises a name (``raise error``): the exception was
    #: made before it (:func:`errdex.match.rank_frames.hands_over`).
    hands_over: bool = False
    #: The innermost frame's line is printed and raises nothing itself (no ``raise``,
    #: ``assert`` or ``yield`` in it): even a site of that very function, whose line may
    #: have moved, did not raise there (:func:`errdex.match.rank_frames.raises_nothing`).
    silent_line: bool = False
    #: A warning: its printed frame is where ``stacklevel`` points (the caller of the
    #: function that warned, for ``stacklevel=2``), not the ``warn`` call
    #: (:func:`errdex.match.rank_frames.credit_callees`).
    warning: bool = False
    #: Modules that line reads a name of (``click.core.BaseCommand``: ``click/core``): a
    #: module's ``__getattr__`` may warn (PEP 562 deprecations).
    modules_read: tuple[str, ...] = ()


@dataclass
class Scored:
    index: int
    message: float = 0.0
    frame: float = 0.0
    class_factor: float = 1.0
    holes: dict[str, str] = field(default_factory=dict)
    reasons: list[str] = field(default_factory=list)
    full_match: bool = False
    score: float = 0.0  # how well the evidence fits: orders the candidates
    confidence: float = 0.0  # the score shared among equally good rivals
    observed: int = 0  # times this exact message was seen at this site
    innermost: bool = False  # the clue's innermost frame is this site's line
    answers_final: bool = False  # the final error's own message or innermost frame points here
    group_size: int = 1  # sites in this candidate's group: those the evidence cannot tell apart
    #: The final error's innermost frame is this site's very line, and the class fits:
    #: the traceback itself says the exception was raised here.
    pinned: bool = False
    literal: int = -1  # the message's characters the template fixes (-1: it does not fit)
    twins: tuple[int, ...] = ()  # entries this one stands for, scored alike (.index_groups)
    #: A whole traceback's innermost frame shows this site did not raise the error
    #: (:func:`.rank_frames.rule_out_by_innermost`).
    ruled_out: bool = False
    #: How similar the message is to this site's literal text (``fuzz.ratio`` / 100) when
    #: no template of the site fits it and the fuzzy pass found it (:mod:`.rank_fuzzy`).
    similar: float = 0.0
    #: One of a builtin class's one-value sites answering a frameless one-value message
    #: the interpreter's own lookups print too: the text cannot decide (:mod:`.rank_lone`).
    undecided: bool = False


@dataclass
class Candidate:
    """One ranked answer, as ``errdex match --json`` and ``POST /api/match`` give it."""

    id: str
    repo: str
    filePath: str
    lineNumber: int
    errorClass: str | None
    errorMessage: str
    confidence: float
    holes: dict[str, str]
    reasons: list[str]
    error: int = 0  # which error of the paste this answers (0: the first; see api.answers)
    pasted: str = ""  # that error as pasted: ``Class: first line of the message``
    group: int | None = None  # 0: one of the best answer's sites the paste cannot tell apart
    groupSize: int = 1  # how many sites that group holds (some may be past ``top``)
    ruledOut: bool = False  # the paste's traceback shows this site did not raise it
    #: Why the group cannot be decided beyond the catalogue (``None``: it can, or no group):
    #: the interpreter raises the same text (:func:`.rank_lone.undecided_reason`).
    groupReason: str | None = None

    @property
    def folded(self) -> bool:
        """Too unlikely to show unless asked (``--all``; the page folds it away)."""
        return self.confidence < FOLD_BELOW

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "repo": self.repo,
            "filePath": self.filePath,
            "lineNumber": self.lineNumber,
            "errorClass": self.errorClass,
            "errorMessage": self.errorMessage,
            "confidence": self.confidence,
            "holes": self.holes,
            "reasons": self.reasons,
            "error": self.error,
            "pasted": self.pasted,
            "group": self.group,
            "groupSize": self.groupSize,
            "ruledOut": self.ruledOut,
            "groupReason": self.groupReason,
        }


def _short(name: str | None) -> str | None:
    return name.rsplit(".", 1)[-1] if name else None


def class_agreement(
    pasted: str | None,
    recorded: str | None,
    qualified: str | None = None,
    classes: ClassResolver | None = None,
    site_path: str | None = None,
) -> tuple[float, str]:
    """How far the pasted class agrees with the record's, and why: through public
    aliases, module qualification and the repository's own hierarchy (``classes``); a
    subclass from another package than the site's (``site_path``) is not the site's."""
    pasted_short = _short(pasted)
    if pasted is None or pasted_short is None:
        return 0.9, "the paste names no class"
    if recorded is None:
        return 0.85, f"{pasted_short}: the site's class is decided at run time"
    relation = (classes or _NO_HIERARCHY).relation(pasted, recorded, qualified)
    if relation == "same":
        return 1.0, f"class {recorded} agrees"
    if (
        relation == "superclass"
        and site_path is not None
        and foreign_subclass(pasted, recorded, qualified, site_path)
    ):
        return CLASS_DIFFERS, f"class {pasted} is defined outside the package of {site_path}"
    if relation in ("subclass", "superclass"):
        return 0.6, f"class {pasted_short} is related to the site's {recorded}"
    if relation == "namesake":
        return 0.3, f"class {pasted} is not the site's {qualified or recorded}, only its namesake"
    return CLASS_DIFFERS, f"class {pasted_short} differs from the site's {recorded}"


def _message_score(literal_length: int, empty: bool) -> float:
    if empty:
        return 0.5
    if literal_length == 0:
        return LONE_SCORE
    # calibrated on networkx's real errors: a unique full match with the class agreeing
    # was right every time from about 20 literal characters on
    return 0.7 + 0.29 * min(1.0, literal_length / 30)


#: Below this share of the pasted message in the template's literal text, a full match
#: says less: the holes made most of the message (``invalid {0} {1}: {2}``).
MIN_COVERAGE = 1 / 3


def _coverage(literal_length: int, message: str) -> float:
    """1 when the literals make at least :data:`MIN_COVERAGE` of the message, down to 0.6
    when they make none of it."""
    if not message or literal_length == 0:
        return 1.0  # an empty message, or a bare hole: scored as such already
    share = literal_length / len(message)
    return 1.0 if share >= MIN_COVERAGE else 0.6 + 0.4 * share / MIN_COVERAGE


def rank(
    clues: Sequence[Clue], index: MatchIndex, top: int = 5, prior: Prior | None = None
) -> list[Scored]:
    """Score every candidate any clue points to; best first, at most ``top``; the best
    answer's group (:mod:`.group`) first, in the order of ``prior`` (:mod:`.prior`)."""
    # the message as every paste reads it: no whitespace around it (templates are trimmed
    # alike, .index.trim_edges): a message printed with a trailing newline still fits
    clues = [
        c
        if c.message == c.message.strip(EDGE_BREAKS)
        else replace(c, message=c.message.strip(EDGE_BREAKS))
        for c in clues
    ]
    clues = align(clues, index)  # frames read in the release they come from (.versions)
    best: dict[int, Scored] = {}
    for clue in clues:
        found = _score_clue(clue, index)
        for scored in index_groups.with_copies(found) if len(clues) > 1 else found:
            scored.score = clue.weight * _ranking_score(scored)
            scored.confidence = clue.weight * _combine(scored)
            scored.answers_final = clue.final and (scored.message > 0 or scored.innermost)
            scored.pinned = clue.final and scored.innermost and scored.class_factor >= 0.85
            if not clue.final:
                scored.reasons.append("found for a chained cause, not the error finally raised")
            current = best.get(scored.index)
            if current is None or _tier(scored) > _tier(current):
                best[scored.index] = scored
    index_groups.copy_out_shadowed(index, best)  # prefer_live reads each Python twin
    native.prefer_live(index, best)  # a Python twin its compiled module replaces (.native)
    # the error asked about is the last one printed: what its own message or innermost
    # frame points to comes first; causes and contexts inform, they do not outrank it; and
    # a site on the very line of the innermost frame outranks one that only the message
    # and an outer frame fit
    ranked = sorted(
        best.values(), key=lambda s: (not s.answers_final, not s.pinned, -s.score, s.index)
    )
    ranked, group = order_group(ranked, index, prior, lambda group: max(top, min(group, MAX_GROUP)))
    ranked = ranked[: max(top, min(group, MAX_GROUP))]  # a group is shown whole
    # the order is the evidence's; no candidate is shown likelier than one above it, and
    # the sites are alternatives: together they cannot be likelier than certain
    left = previous = 1.0
    for s in ranked:
        s.confidence = min(s.confidence, previous, left)
        previous = s.confidence
        left -= s.confidence
    return ranked


def _set_apart(
    index: MatchIndex,
    candidates: list[int],
    head: int,
    values: list[str],
    nested: dict[str, tuple[int, int] | None],
    known: set[int],
    more: list[int],
) -> list[int]:
    """The twins of ``head`` that a hole's value sets apart, to score on their own: a twin
    whose template renders that value gets no credit for wrapping it (nested_literals), the
    others do (:func:`.index_groups.split_off`)."""
    group = index.twin_group(head)
    apart = {fit[1] for v in values if (fit := nested.get(v)) and index.twin_group(fit[1]) == group}
    if not apart:
        return []
    split = index_groups.split_off(candidates, head, apart)
    known.update(split)
    return [i for i in split if i not in more]  # those are scored on their own already


def _fits_with_text(clue: Clue, found: dict[int, Scored]) -> bool:
    """Whether a template with literal text of its own fits the whole message, at a site
    whose class may be the pasted one."""
    named = clue.error_class is not None
    return any(
        s.full_match and s.literal != 0 and not (named and s.class_factor <= CLASS_DIFFERS)
        for s in found.values()
    )


def _tier(s: Scored) -> tuple[bool, float]:
    return s.answers_final, s.score


def _ranking_score(s: Scored) -> float:
    """Orders candidates: each kind of evidence adds, so a frame that points at one of
    several sites raising the same message lifts it clear of the others."""
    return s.class_factor * (s.message + s.frame) / 2


def _combine(s: Scored) -> float:
    """The probability-like confidence before sharing with rivals (calibrated on real errors)."""
    base = 1.0 - (1.0 - s.message) * (1.0 - s.frame)
    return min(1.0, s.class_factor * base, similar_cap(s.similar, s.full_match))


def _score_clue(clue: Clue, index: MatchIndex) -> list[Scored]:
    message = clue.message[:MAX_MESSAGE]
    found: dict[int, Scored] = {}

    def get(i: int) -> Scored:
        s = found.get(i)
        if s is None:
            entry = index.entry(i)
            s = found[i] = Scored(index=i)
            s.class_factor, why = class_agreement(
                clue.error_class,
                entry.error_class,
                index.qualified_class(i),
                index.classes,
                entry.file_path,
            )
            s.reasons.append(why)
        return s

    # frames: innermost last, and the innermost is the likeliest raise site (.rank_frames)
    relays, handed = score_frames(clue.frames, index, get, clue.hands_over, clue.warning)
    follow_instances(clue, message, index, get)  # a Cython frame naming another instance

    # the message: anchors, then a linear-time full match
    candidates = index.message_candidates(message, clue.error_class, found) if message else []
    if not message and clue.error_class:
        # a bare ``raise Class`` may stand at thousands of sites: they are alike, so a
        # bounded sample stands for them (sharing confidence among them all)
        bare = index.by_empty_message(_short(clue.error_class) or "")
        candidates = list(bare[:MAX_BARE])
        if len(bare) > MAX_BARE:
            note = f"one of {len(bare)} sites that raise {_short(clue.error_class)} with no message"
            for i in candidates:
                get(i).reasons.append(note)
    if clue.frames:  # frames weigh each site's own file and repository (.rank_frames)
        index_groups.unfold_head(candidates, found)
    known = set(candidates)
    twins = getattr(candidates, "twins", {})  # stand-in -> its twins (.index_groups)
    builtin = _is_builtin(clue.error_class)
    framed = set(found)  # a frame points at these: their message is weighed, however thin
    nested: dict[str, tuple[int, int] | None] = {}  # hole values' inner fits (.rank_nested)
    wrappers: list[tuple[int, int, int]] = []  # (entry, its own literals, the inner entry)
    more = [i for i in found if i not in known]
    if message and clue.error_class and not builtin:  # anchorless wrappers (.rank_nested)
        more += class_sites(index, _short(clue.error_class) or "", known | set(more))
    fits_once = verify_once(index, message)
    pending = may_fit(index, index.may_match([*candidates, *more], message), message)
    for i in pending:  # twins a hole's value sets apart are appended (_set_apart)
        ok, values, literal_length = fits_once(i)
        if not ok or (
            builtin and i not in framed and _says_too_little(index, i, message, literal_length)
        ):
            continue
        s = get(i)
        empty = literal_length == 0 and not values
        inner = nested_literals(index, i, message, values, literal_length, verify_known, nested)
        if i in twins:
            pending += _set_apart(index, candidates, i, values, nested, known, more)
        own, literal_length = literal_length, literal_length + (inner[0] if inner else 0)
        s.full_match, s.literal = True, literal_length
        s.message = _message_score(literal_length, empty) * _coverage(literal_length, message)
        s.holes = {str(k): v for k, v in enumerate(values)}
        s.reasons.append(
            "the message is empty, as this site raises it"
            if empty
            else f"the message matches the template ({own} literal characters)"
        )
        if inner:
            wrappers.append((i, own, inner[1]))
            s.reasons.append(wrapper_reason(index, inner))
    for i, literal_length in rival_wrappers(index, found, wrappers).items():
        s = found[i]
        s.literal = literal_length
        s.message = _message_score(literal_length, False) * _coverage(literal_length, message)

    # runtime evidence: how often this exact message was seen at each site
    if message:
        for i in index.by_observed(message):
            seen = found.get(i)
            if seen is not None and seen.full_match:
                seen.observed += 1
        for s in found.values():
            if s.observed:
                s.reasons.append(
                    f"this exact message was observed here {s.observed} time(s) when the tests ran"
                )

    # notes (``add_note``) print after the message, each on lines of its own; a template
    # that is one value and nothing else (``raise error``) fits any message, and does not
    # stand in the way of a template whose text fits its first lines
    if "\n" in message and not clue.truncated and not _fits_with_text(clue, found):
        index_groups.unfold_head(candidates, found)  # the first ones read one by one
        known.update(candidates)
        _noted_matches(
            message, index, [*candidates[:MAX_NOTED], *(i for i in found if i not in known)], get
        )

    # part of the message: text appended after it, or a summary line cut short (whose
    # anchor may be in the part cut off: the sites of its class are tried, a bounded few)
    if message and not _fits_with_text(clue, found):
        more = [i for i in found if i not in known]
        if clue.truncated and clue.error_class:
            more += index.by_class(_short(clue.error_class) or "")[:MAX_TRUNCATED]
        _partial_matches(clue, index, list(dict.fromkeys([*candidates, *more])), get, framed)

    # a library's class raised as one value: its sites fit exactly, before any fuzzy guess;
    # a builtin class too when the message is one word (C prints sentences, not a bare name)
    lone = not builtin or ONE_WORD.fullmatch(message) is not None
    if message and clue.error_class and lone and not _fits(clue, found):
        lone_holes(clue, message, index, get)

    # fuzzy: the message drifted between versions (.rank_fuzzy)
    if message and not _fits(clue, found):
        index_groups.unfold_head(candidates, found)  # the first ones read one by one
        fuzzy_matches(message, index, candidates[:200], get)
    if builtin and not any(_answers(clue, s) for s in found.values()):  # (.rank_lone)
        undecided_group(clue, index, get, found)  # ``KeyError: 'foo'``, which C prints too
        native.undecided_below(clue, index, found, get)  # the same below a Python line
    elif builtin:  # ``KeyError: 'NaT'`` fitted by a constant key as well (.rank_keylike)
        with_lookups(clue, index, found, get)
    native.below_python(
        clue, index, found, candidates, lambda c: _partial_matches(clue, index, c, get, framed)
    )
    native.lift_compiled(clue, index, found)
    if message and clue.error_class and not builtin:  # the caller's text, last (.rank_override)
        overridden(index, _short(clue.error_class) or "", found.values(), get, LONE_SCORE)
    lift_past_relays(relays, index, found, handed)  # a re-raise's frame informs (.rank_frames)
    past_helper_raise(clue.frames, index, found)  # a helper raising what its caller passes
    credit_callees(clue, index, found, get)  # a warning printed at its caller (.rank_frames)
    index.expand(candidates, found)  # twins stood for by one candidate (.index_groups)
    if clue.error_class and not any(_answers(clue, s) for s in found.values()):
        passed_in(clue, index, get, builtin)  # a caller's exception raised as is (.rank_passed)
    elif message and clue.error_class and not builtin:  # ``abort(404)`` (.rank_run_time)
        beside_own_sites(clue.error_class, message, index, found.values(), get)
    rule_out_by_innermost(clue, index, found)  # a whole traceback ends where it raised
    # a site of another class did not raise this error, whatever else points at it
    return [s for s in found.values() if _answers(clue, s)]


def _answers(clue: Clue, s: Scored) -> bool:
    """Whether ``s`` is an answer: something points at it, and its class may be the pasted one."""
    named = clue.error_class is not None
    return (s.message > 0 or s.frame > 0) and not (named and s.class_factor <= CLASS_DIFFERS)


#: A builtin class's message fitted by a template holding fewer words than this, which
#: make under :data:`MIN_COVERAGE` of the message, is not an answer (see _says_too_little).
MIN_WORDS = 2
_WORD = re.compile(r"[^\W\d_]{3,}")


def _is_builtin(error_class: str | None) -> bool:
    """Whether the pasted class is Python's own (``ValueError``, ``builtins.KeyError``)."""
    if not error_class:
        return False
    module, _, name = error_class.rpartition(".")
    found = getattr(builtins, name, None)
    return (
        module in ("", "builtins") and isinstance(found, type) and issubclass(found, BaseException)
    )


def _says_too_little(
    index: MatchIndex, entry_index: int, message: str, literal_length: int
) -> bool:
    """A builtin class's message is raised from C as often as from Python: a template whose
    literals are a word or so of a longer message (``invalid {0} {1}: {2}`` fitting
    ``invalid literal for int() with base 10: 'abc'``) fits it by its holes, not its text,
    and is no answer."""
    if not message or literal_length == 0 or len(message) * MIN_COVERAGE <= literal_length:
        return False
    runs = index.runs(entry_index)
    return runs is not None and sum(len(_WORD.findall(r)) for r in runs) < MIN_WORDS


def _fits(clue: Clue, found: dict[int, Scored]) -> bool:
    """Whether a site whose class may be the pasted one fits the message in full."""
    named = clue.error_class is not None
    return any(
        s.full_match and not (named and s.class_factor <= CLASS_DIFFERS) for s in found.values()
    )


def _noted_matches(
    message: str, index: MatchIndex, candidates: Sequence[int], get: Callable[[int], Scored]
) -> None:
    """Templates the message matches once its last lines are read as notes: Python prints
    ``add_note()`` notes under the message with nothing to tell them apart from it."""
    cut = len(message)
    for dropped in range(1, MAX_NOTE_LINES + 1):
        cut = message.rfind("\n", 0, cut)
        if cut <= 0:
            return
        head = message[:cut]
        matched = False
        for i in candidates:
            ok, values, literal_length = verify(index, i, head)
            if not ok or literal_length < PARTIAL_MIN:
                continue
            s = get(i)
            s.full_match = matched = True
            s.literal = literal_length
            s.message = _message_score(literal_length, False)
            s.holes = {str(k): v for k, v in enumerate(values)}
            s.reasons.append(
                f"the message matches the template ({literal_length} literal characters); "
                f"the {dropped} line(s) printed under it read as notes"
            )
        if matched:
            return


def _partial_matches(
    clue: Clue,
    index: MatchIndex,
    candidates: Sequence[int],
    get: Callable[[int], Scored],
    framed: set[int],
) -> None:
    """Templates that match the start of the message (something printed after it) or, for a
    message cut short, whose rendering the message starts. ``framed``: the sites a frame
    points at, whose message counts however thin (see :func:`_says_too_little`)."""
    message = clue.message[:MAX_MESSAGE]
    builtin = _is_builtin(clue.error_class)
    stem = message.removesuffix("...").removesuffix("…") if clue.truncated else message
    for i in candidates if clue.truncated else index.may_start(candidates, message):
        runs = index.runs(i)
        if runs is None:
            continue
        if clue.truncated:
            found = match_prefix(runs, stem)
            why = "the message, cut short, is the start of the template ({} literal characters)"
        else:
            values = match_runs((*runs, ""), message)
            found = (values[:-1], sum(len(r) for r in runs)) if values else None
            why = "the message starts with the template ({} literal characters), then more text"
        if found is None or found[1] < PARTIAL_MIN:
            continue
        values, literal_length = found
        if builtin and i not in framed and _says_too_little(index, i, message, literal_length):
            continue
        s = get(i)
        s.full_match, s.literal = True, literal_length
        s.message = PARTIAL_WEIGHT * _message_score(literal_length, False)
        s.holes = {str(k): v for k, v in enumerate(values)}
        s.reasons.append(why.format(literal_length))
