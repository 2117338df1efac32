"""Exception-group layout: the ``| `` margins and ``+-+---- 1 ----`` member separators.

CPython prints a group at depth ``d`` with every line prefixed by ``2*d`` spaces and ``| ``,
its members at depth ``d + 1``, and separators that say where each member starts. Margins do
not nest (each depth has its own absolute prefix), so lines are first tokenised with their
depth, then regrouped into streams: the lines of one depth as plain text, and each run of
deeper lines as a :class:`Members` block standing where the members were printed.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from dataclasses import dataclass
from typing import NamedTuple

from errdex.match._paste_lines import CAP

_TOKEN = re.compile(
    r"(?P<sp>(?:  )*)(?:"
    r"\|(?: (?P<text>.*))?"
    r"|\+ (?P<head>Exception Group Traceback \(most recent call last\):?)\s*"
    r"|(?P<first>\+-)?\+-{16} (?:\d+|\.\.\.) -{16}\s*"
    r"|(?P<close>\+-{36})\s*"
    r")$"
)
GROUP_START = re.compile(r"(?:  )+\+ Exception Group Traceback \(most recent call last\)")
_HEADER_TEXT = "Exception Group Traceback (most recent call last):"
# CPython prints ten levels at most (``max_group_depth``); deeper margins are not groups, and
# the cap keeps the per-depth regrouping linear.
MAX_DEPTH = 32


class Token(NamedTuple):
    """One line of a group: ``kind`` is text, sep (a member starts) or close."""

    kind: str
    depth: int
    text: str


@dataclass(slots=True)
class Members:
    """The members of the group printed just before, each as its own list of tokens."""

    depth: int
    members: list[list[Token]]


Item = str | Members


def tokenize(line: str) -> Token | None:
    """A group line with its depth, or None when the line is not part of group output."""
    match = _TOKEN.match(line, 0, CAP)
    if match is None:
        return None
    depth = len(match["sp"]) // 2
    if depth > MAX_DEPTH:
        return None
    if match["head"] is not None:
        return Token("text", depth, _HEADER_TEXT)
    if match["close"] is not None:
        return Token("close", depth, "")
    if match.group().lstrip(" ").startswith("|"):
        return Token("text", depth, match["text"] or "")
    return Token("sep", depth + (1 if match["first"] else 0), "")


def collect(lines: Sequence[object], start: int) -> tuple[list[Token], int]:
    """The tokens of the group region starting at ``start`` and the index just after it."""
    line = lines[start]
    first = tokenize(line) if isinstance(line, str) else None
    if first is None:
        return [], start
    tokens = [first]
    end = start + 1
    while end < len(lines):
        line = lines[end]
        token = tokenize(line) if isinstance(line, str) else None
        if token is None or token.depth < first.depth:
            break
        tokens.append(token)
        end += 1
    return tokens, end


def build(tokens: list[Token], depth: int) -> list[Item]:
    """The stream of one depth: its text lines in order, members as :class:`Members`."""
    items: list[Item] = []
    at = 0
    while at < len(tokens):
        token = tokens[at]
        if token.kind == "sep" and token.depth == depth + 1:
            block, at = _members(tokens, at, depth + 1)
            items.append(block)
        else:
            if token.kind == "text" and token.depth == depth:
                items.append(token.text)
            at += 1
    return items


def _members(tokens: list[Token], at: int, depth: int) -> tuple[Members, int]:
    """Split the tokens after a group's exception line into its members."""
    members: list[list[Token]] = []
    while at < len(tokens):
        token = tokens[at]
        if token.depth < depth:
            break
        if token.depth == depth and token.kind == "sep":
            members.append([])
        elif token.depth == depth and token.kind == "close":
            at += 1
            break
        elif members:
            members[-1].append(token)
        at += 1
    return Members(depth, members), at
