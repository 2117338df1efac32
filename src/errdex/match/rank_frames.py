"""Frames: how far each frame of a paste points at a catalogued site.

The innermost frame on a site's very line is the likeliest raise; an outer frame on a
site's line, or a frame a few lines from one, says less.

A *relay* is a site that raises an exception made elsewhere: the extractor stores
``raise exc``, ``raise self._exc``, ``raise err.with_traceback(tb)`` and ``raise
rewrite_traceback_stack(source=source)`` (a call it did not follow) with no class and a
message that is one value with no text of its own. A relay's line printed with frames
inside it (outer than the innermost frame) did not build the exception: a raise of an
exception made there has no traceback yet, so it is always printed innermost; frames inside
it came with the exception, raised before. jinja2 re-raises every template error at
``environment.py:942`` so, its traceback rewritten: a syntax error's parser frames dropped,
a frame of the template itself printed inside. Such a frame does not decide the site: it
lends its own site little (:data:`RELAY_FRAME`), and lends a little more to the sites of
the pasted class in the same repository whose message fits (:data:`RELAY_LIFT`), since the
error passed through that package; the message and the class decide among them. A relay
printed innermost stands as any raise does (``raise make_error(…)`` built it there), unless
its printed line raises a name and nothing more (``raise error``: the exception was made
before, jsonschema's ``validate`` raising what a keyword generator yielded, ``yield
ValidationError(f"…")``) and a site of the pasted class in its repository fits the message
with text of its own (:data:`OWN_TEXT`): then that site is lifted as past any relay, and
the relay lends only :data:`RELAY_FRAME`. Where no such site fits, the relay stays the
answer: the traceback's own line is all that is known.

A *whole* traceback (CPython's own, which prints every Python frame the error passed)
ends at the frame that raised. When its innermost frame is a line of a catalogued file
that raises nothing itself (``return binascii.a2b_base64(s)`` in ``base64.b64decode``),
the error was raised below it by code that prints no frame (C), and a Python site in
another function cannot have raised it: it would have printed its own frame, innermost.
Such a site keeps little of what its message lent it (:data:`RULED_OUT`), and says why.
A site in the innermost frame's own function is kept (its lines may have moved), and so
is one whose function that line calls (a frame a library hid from the traceback). The
same holds when the innermost line is itself a raise of the pasted error, made there
(``raise KeyError(key) from err``, ``raise type(err)(msg) from err``): a site elsewhere
whose message fits, a chained cause's, did not raise the error finally raised; but not
when that line raises an exception made before (a relay, ``raise error``), whose maker
may be such a site.

A *warning* prints one frame, where ``warn``'s ``stacklevel`` points: with
``stacklevel=2``, the line that called the function that warned, with that line's code
under it. That frame's own line is a ``stacklevel=1`` warn site's, if any is there; a site
a few lines from it is nothing to it (the caller's file is not the warn site's, or only by
chance), so it lends no credit by nearness. What it does say is which function warned: a
site in a function the printed line calls (:data:`CALLEE_FRAME`), or in the ``__init__``
of a class it constructs (:func:`credit_callees`).

A site at a call of a helper that raises what the call passes (``context._raise_error(
InvalidOperation, 'sqrt(-x), x > 0')``, :mod:`errdex.extract.python.caller_sites`) knows
the helper's raise line (``raisedAt``): a traceback whose innermost frame is that line
and whose next frame out is the site's line points at the site as an innermost frame on
its own line would; and then the helper's own site there, when its class is decided at
run time (``raise error(explanation)``), gives way to such a call site whose message fits:
it lends only :data:`RELAY_FRAME` (:func:`past_helper_raise`).
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Clue, Scored

__all__ = [
    "CALLEE_FRAME",
    "OWN_TEXT",
    "RELAY_FRAME",
    "RELAY_LIFT",
    "RULED_OUT",
    "credit_callees",
    "frame_place",
    "hands_over",
    "is_relay",
    "lift_past_relays",
    "past_helper_raise",
    "rule_out_by_innermost",
    "score_frames",
]

Frames = Iterable[tuple[str, int | None, str | None]]
#: What a frame on a relay's line, printed with frames inside it, lends the relay: less
#: than a frame near a site (it says the error passed here, not that it was raised here).
RELAY_FRAME = 0.2
#: What that frame lends each site of the pasted class in the relay's repository whose
#: message fits: about what a frame a few lines from a site in another function lends.
RELAY_LIFT = 0.35
#: A site whose class is this far from the pasted one is not lifted (a subclass is).
LIFT_CLASS_MIN = 0.6
#: What a Python site keeps of its message's weight when a whole traceback's innermost
#: frame, in another function, shows it did not raise the error (see the module's doc).
RULED_OUT = 0.2
#: Literal characters a site's template must fit of the message to take the answer from
#: an innermost relay that raises a name (less, and the message is its holes' doing).
OWN_TEXT = 8

#: What a warning's printed line lends a site in a function it calls: what an outer frame
#: on a site's line lends (it says the error passed here), less than the innermost frame.
CALLEE_FRAME = 0.6
#: Calls on a raise line that make a new exception of another's class (``type(err)(…)``).
_ANEW = frozenset({"type", "__class__"})
#: Methods a class's construction runs: ``Name(...)`` on the printed line calls them.
_CONSTRUCTORS = frozenset({"__init__", "__new__", "__post_init__"})

_RAISES_A_NAME = re.compile(r"raise\s+[A-Za-z_][\w.]*\s*(?:from\s+[\w.]+\s*)?")


_MAY_RAISE = re.compile(r"\b(?:raise|assert|yield)\b")


def raises_nothing(source: str | None) -> bool:
    """Whether a frame's printed line certainly raises nothing itself: printed, and with no
    ``raise``, ``assert`` or ``yield`` in it (``callable_obj(*args, **kwargs)``). A raise
    prints its own line (the first of the statement), so an error shown at such a line was
    raised below it, by code that prints no frame."""
    return bool(source and source.strip()) and _MAY_RAISE.search(source or "") is None


def hands_over(source: str | None) -> bool:
    """Whether a frame's printed line raises a name and calls nothing (``raise error``,
    ``raise self._exc from None``): the exception it raises was made before that line."""
    return source is not None and _RAISES_A_NAME.fullmatch(source.strip()) is not None


def is_relay(index: MatchIndex, i: int) -> bool:
    """Whether the entry raises an exception made elsewhere: no class, and a message that
    is one value and nothing else (how the extractor stores ``raise exc``)."""
    return index.entry(i).error_class is None and index.runs(i) == ("", "")


def line_strength(depth: int) -> float:
    """What a frame ``depth`` frames from the innermost lends the site on its very line."""
    return 0.97 if depth == 0 else max(0.5, 0.85 - 0.05 * (depth - 1))


def score_frames(
    frames: Frames,
    index: MatchIndex,
    get: Callable[[int], Scored],
    handed: bool = False,
    warning: bool = False,
) -> tuple[list[int], list[int]]:
    """Lend each site a frame points at what that frame says (``frames``: innermost last);
    the relays passed through, and the innermost relay when its line raises a name
    (``handed``, :func:`hands_over`), which :func:`lift_past_relays` reads once the
    message did. A ``warning``'s frame lends only a site on its very line (see the
    module's doc)."""
    relays: list[int] = []
    innermost: list[int] = []
    printed = list(reversed(list(frames)))
    raised = printed[0][:2] if printed else None  # the innermost frame's (path, line)
    for depth, (path, line, function) in enumerate(printed):
        for i, distance in index.by_frame(path, line):
            if warning and (distance or line is None):
                continue  # the caller's line: a site near it is there by chance
            entry = index.entry(i)
            s = get(i)
            if (
                depth == 1
                and distance == 0
                and raised is not None
                and raised[0] == path
                and raised[1] is not None
                and index.raised_at(i) == raised[1]
            ):
                s.innermost = True
                if s.frame < 0.97:
                    s.frame = 0.97
                    s.reasons.append(
                        f"the innermost frame is {frame_place(path, raised[1])}, the raise "
                        f"of the helper this site's line calls, {entry.file_path}:{entry.line}"
                    )
                continue
            if distance == 0 and line is not None and depth == 0 and handed and is_relay(index, i):
                innermost.append(i)
            if distance == 0 and line is not None and depth > 0 and is_relay(index, i):
                relays.append(i)
                strength = RELAY_FRAME
                reason = (
                    f"frame {depth} from the innermost is {entry.file_path}:{entry.line}, which "
                    "re-raises an exception made elsewhere: the frames printed inside it show "
                    "it was raised before, so this frame does not decide the site"
                )
            elif distance == 0 and line is not None:
                s.innermost = s.innermost or depth == 0
                strength = line_strength(depth)
                where = "the innermost frame" if depth == 0 else f"frame {depth} from the innermost"
                reason = f"{where} is {entry.file_path}:{entry.line}"
            else:
                same_function = function is not None and function == entry.function
                strength = (
                    (0.6 if same_function else 0.35)
                    * (1 - distance / 100)
                    * (1.0 if depth == 0 else 0.6)
                )
                reason = f"a frame is {distance} line(s) from {entry.file_path}:{entry.line}" + (
                    f" in {function}()" if same_function else ""
                )
            if strength > s.frame:
                s.frame = strength
                s.reasons.append(reason)
    return relays, innermost


def credit_callees(
    clue: Clue, index: MatchIndex, found: Mapping[int, Scored], get: Callable[[int], Scored]
) -> None:
    """A warning printed at a line that calls a function (``stacklevel=2``): the warn sites
    in that function, among those the message found and those of the printed file, gain
    :data:`CALLEE_FRAME` as a frame; a class the line constructs (``Name(...)``) calls its
    ``__init__``. The printed line's own site, if any, keeps the innermost frame's credit."""
    if not clue.warning or not clue.frames:
        return
    path, line, _ = clue.frames[-1]
    _credit_module_getattr(clue, index, found)
    if not clue.calls:
        return
    called = set(clue.calls)
    constructs = any(name[:1].isupper() for name in called)
    same_file = [i for i in index.file_entries(path) if index.entry(i).function in called]
    for i in dict.fromkeys([*found, *same_file]):
        entry = index.entry(i)
        function = entry.function
        if function is None or not (
            function in called or (constructs and function in _CONSTRUCTORS)
        ):
            continue
        s = get(i)
        if s.innermost or s.frame >= CALLEE_FRAME:
            continue
        s.frame = CALLEE_FRAME
        s.reasons.append(
            f"the warning is printed at {frame_place(path, line)}, whose line calls "
            f"{function}(): this site warns there with a stacklevel that points at its caller"
        )


def _credit_module_getattr(clue: Clue, index: MatchIndex, found: Mapping[int, Scored]) -> None:
    """A warning printed at a line that reads a name of a module (``click.core.BaseCommand``,
    ``from click.core import BaseCommand``): that module's ``__getattr__`` (PEP 562) runs,
    and its warn sites, among those the message found, gain :data:`CALLEE_FRAME`."""
    if not clue.modules_read:
        return
    path, line, _ = clue.frames[-1]
    for i in list(found):
        entry = index.entry(i)
        if entry.function != "__getattr__":
            continue
        module = entry.file_path.removesuffix(".py").removesuffix("/__init__")
        read = next((m for m in clue.modules_read if ("/" + module).endswith("/" + m)), None)
        s = found[i]
        if read is None or s.innermost or s.frame >= CALLEE_FRAME:
            continue
        s.frame = CALLEE_FRAME
        s.reasons.append(
            f"the warning is printed at {frame_place(path, line)}, whose line reads a name of "
            f"{read.replace('/', '.')}: this site warns in that module's __getattr__"
        )


def frame_place(path: str, line: int | None) -> str:
    """A frame's file name and line as a reason says it (``base64.py:88``), from a POSIX or
    a Windows path."""
    return f"{path.replace(chr(92), '/').rsplit('/', 1)[-1]}:{line}"


def rule_out_by_innermost(clue: Clue, index: MatchIndex, found: Mapping[int, Scored]) -> None:
    """Python sites a whole traceback's innermost frame shows did not raise the error keep
    :data:`RULED_OUT` of their message's weight (see the module's doc)."""
    if not clue.whole or not clue.frames:
        return
    path, line, function = clue.frames[-1]
    if line is None or not function:
        return
    entries = index.file_entries(path)
    nearest = index.by_frame(path, line)[:1]  # from the index's columns: no entry made
    raises = bool(nearest) and nearest[0][1] == 0
    if not entries or (raises and not _raises_anew(clue, index, found)):
        return  # not catalogued (its raises unknown), or a relay raises there
    if raises:
        why = (
            "a raise of this error there: this site, in {}(), did not raise it (it would "
            "be the innermost frame); a cause or context printed above may come from it"
        )
    else:
        why = (
            "a line that raises nothing itself: the error came from code below it that "
            "prints no frame, and this site, in {}(), would have printed its own"
        )
    frame_file = index.file_path(entries[0])
    for i, s in found.items():
        entry = index.entry(i)
        if (
            s.innermost
            or s.twins  # stands for other sites too, one of which may be that function's
            or entry.function is None
            or not entry.file_path.endswith(".py")
            or entry.function in clue.calls
            or (
                entry.function == function
                and entry.file_path == frame_file
                and not clue.silent_line  # the line may have moved: it could be this site
            )
        ):
            continue
        s.message *= RULED_OUT
        s.ruled_out = True
        s.reasons.append(
            f"the traceback ends at {frame_place(path, line)} in {function}(), "
            + why.format(entry.function)
        )


def _raises_anew(clue: Clue, index: MatchIndex, found: Mapping[int, Scored]) -> bool:
    """Whether the innermost frame's line raises the pasted error, made on that very line:
    a site there of a class that may be the pasted one, which neither raises a name
    (``raise error``: made before) nor re-raises an exception made elsewhere (a relay:
    ``raise err.with_traceback(tb)``), unless its line makes one anew from the class of
    another (``raise type(err)(message) from err``)."""
    if clue.hands_over:
        return False
    anew = not _ANEW.isdisjoint(clue.calls)
    return any(
        s.innermost and s.class_factor >= LIFT_CLASS_MIN and (anew or not is_relay(index, i))
        for i, s in found.items()
    )


def lift_past_relays(
    relays: Iterable[int],
    index: MatchIndex,
    found: Mapping[int, Scored],
    innermost: Iterable[int] = (),
) -> None:
    """The sites of the pasted class whose message fits, in a repository a relay frame of the
    paste is in, gain :data:`RELAY_LIFT` as a frame: the error passed through their package.
    An ``innermost`` relay (its line raises a name) gives way to such sites of its
    repository that fit the message with :data:`OWN_TEXT` characters of their own."""
    handed = {index.entry(r).repo: r for r in innermost}
    for repo, r in handed.items():
        fitting = [
            i
            for i in _fitting(index, found, repo)
            if i not in handed.values() and found[i].literal >= OWN_TEXT
        ]
        if not fitting:
            continue
        relay = found[r]
        entry = index.entry(r)
        relay.frame, relay.innermost = RELAY_FRAME, False
        relay.reasons.append(
            f"the innermost frame, {entry.file_path}:{entry.line}, raises a name: an exception "
            "made before that line; sites of the pasted class in its repository fit the message"
        )
        _lift(fitting, found, f"{entry.file_path}:{entry.line}")
    by_repo: dict[str, str] = {}
    for r in relays:
        entry = index.entry(r)
        by_repo.setdefault(entry.repo, f"{entry.file_path}:{entry.line}")
    for repo, relay_at in by_repo.items():
        _lift(_fitting(index, found, repo), found, relay_at)


def _fitting(index: MatchIndex, found: Mapping[int, Scored], repo: str) -> list[int]:
    """The sites of ``repo`` whose message fits and whose class is the pasted one's."""
    return [
        i
        for i, s in found.items()
        if index.entry(i).repo == repo
        and s.message > 0
        and index.entry(i).error_class is not None
        and s.class_factor >= LIFT_CLASS_MIN
    ]


def _lift(sites: Iterable[int], found: Mapping[int, Scored], relay: str) -> None:
    for i in sites:
        s = found[i]
        if s.frame >= RELAY_LIFT:
            continue
        s.frame = RELAY_LIFT
        s.reasons.append(
            f"a frame re-raises the error at {relay}, in this site's repository: "
            "the message and class decide among that repository's sites"
        )


def past_helper_raise(frames: Frames, index: MatchIndex, found: Mapping[int, Scored]) -> None:
    """A site at a call of a helper, pointed at through the helper's raise (its
    ``raisedAt`` is the innermost frame's line), whose message fits, takes the answer from
    the helper's own site on that line when that one's class is decided at run time."""
    printed = list(frames)
    if len(printed) < 2:
        return
    path, line, _ = printed[-1]
    if line is None:
        return
    calls = [
        i
        for i, s in found.items()
        if s.innermost and s.full_match and index.raised_at(i) == line and s.class_factor > 0
    ]
    if not calls:
        return
    called = index.entry(calls[0])
    for i, distance in index.by_frame(path, line):
        s = found.get(i)
        if distance or s is None or i in calls or index.entry(i).error_class is not None:
            continue
        s.frame, s.innermost = min(s.frame, RELAY_FRAME), False
        s.reasons.append(
            f"the innermost frame is this helper's raise; the line that called it, "
            f"{called.file_path}:{called.line}, is a site of its own whose message fits"
        )
