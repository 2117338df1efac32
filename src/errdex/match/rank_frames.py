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
"""

from __future__ import annotations

import re
from collections.abc import Callable, Iterable, Mapping
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from errdex.match.index import MatchIndex
    from errdex.match.rank import Scored

__all__ = [
    "OWN_TEXT",
    "RELAY_FRAME",
    "RELAY_LIFT",
    "hands_over",
    "is_relay",
    "lift_past_relays",
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
#: Literal characters a site's template must fit of the message to take the answer from
#: an innermost relay that raises a name (less, and the message is its holes' doing).
OWN_TEXT = 8

_RAISES_A_NAME = re.compile(r"raise\s+[A-Za-z_][\w.]*\s*(?:from\s+[\w.]+\s*)?")


def hands_over(source: str | None) -> bool:
    """Whether a frame's printed line raises a name and calls nothing (``raise error``,
    ``raise self._exc from None``): the exception it raises was made before that line."""
    return source is not None and _RAISES_A_NAME.fullmatch(source.strip()) is not None


def is_relay(index: MatchIndex, i: int) -> bool:
    """Whether the entry raises an exception made elsewhere: no class, and a message that
    is one value and nothing else (how the extractor stores ``raise exc``)."""
    return index.entry(i).error_class is None and index.runs(i) == ("", "")


def score_frames(
    frames: Frames, index: MatchIndex, get: Callable[[int], Scored], handed: bool = False
) -> tuple[list[int], list[int]]:
    """Lend each site a frame points at what that frame says (``frames``: innermost last);
    the relays passed through, and the innermost relay when its line raises a name
    (``handed``, :func:`hands_over`), which :func:`lift_past_relays` reads once the
    message did."""
    relays: list[int] = []
    innermost: list[int] = []
    for depth, (path, line, function) in enumerate(reversed(list(frames))):
        for i, distance in index.by_frame(path, line):
            entry = index.entry(i)
            s = get(i)
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
                strength = 0.97 if depth == 0 else max(0.5, 0.85 - 0.05 * (depth - 1))
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
