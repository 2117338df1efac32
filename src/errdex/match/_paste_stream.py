"""The line stream a paste parser walks, and the errors it emits, for :mod:`.paste`.

:class:`Stream` knows where the parser is (``at``), reads a message up to the next line
that starts something else, and keeps the output in chain order; the handlers that
recognise tracebacks, pytest reports, warnings and logs live in :mod:`.paste`.
"""

from __future__ import annotations

import re
from collections.abc import Sequence
from typing import cast

from errdex.match._paste_frames import Trace, parse_frame
from errdex.match._paste_groups import Item
from errdex.match._paste_lines import (
    CAP,
    is_boundary,
    is_syntax_class,
    parse_exception_line,
    split_notes,
    trim_trailing_blank,
)
from errdex.match._paste_model import (
    BARE,
    EXCEPTION_GROUP,
    IPYTHON,
    SYNTAX_ERROR,
    TRACEBACK,
    PastedError,
)
from errdex.match._paste_pytest import is_not_raised
from errdex.match._paste_screen import Screen, may_end

__all__ = ["Stream"]

_SYNTAX_HEAD = re.compile(r"\s*(?:File |Cell In|Input In)")
_QUOTE_LOOKAHEAD = 10_000


class Stream:
    """One stream of lines, the position in it and the errors found so far."""

    def __init__(self, items: Sequence[Item], screen: Screen, *, in_group: bool) -> None:
        self.items = items
        self.screen = screen
        self.in_group = in_group
        self.at = 0
        self.out: list[PastedError] = []
        self.chain_start = 0

    # -- output -------------------------------------------------------------------------

    def _linked(self) -> bool:
        """Whether the last error waits for the next one of its chain."""
        return bool(self.out) and self.out[-1].relation is not None

    def _unlink(self) -> None:
        """A chain separator with no error after it links to nothing."""
        if self._linked():
            self.out[-1].relation = None

    def _emit(self, error: PastedError) -> None:
        """Append an error, noting where its chain starts (group members go before it)."""
        if is_not_raised(error):
            self._unlink()
            return
        if not self._linked():
            self.chain_start = len(self.out)
        self.out.append(error)

    def _hoist(self, members: list[PastedError]) -> None:
        """Put a group's members before the chain that ends in the group."""
        self.out[self.chain_start : self.chain_start] = members
        self.chain_start += len(members)

    def _format(self, cls: str | None, trace: Trace | None) -> str:
        """The source format: syntax errors and groups first, then the traceback's flavour."""
        if is_syntax_class(cls):
            return SYNTAX_ERROR
        if self.in_group:
            return EXCEPTION_GROUP
        if trace is None:
            return BARE
        return IPYTHON if trace.ipython else TRACEBACK

    # -- reading lines --------------------------------------------------------------------

    def _text(self, at: int, base: int = 0) -> str | None:
        """The line at ``at`` with ``base`` spaces of indentation removed, if it is a line."""
        if at >= len(self.items):
            return None
        item = self.items[at]
        if not isinstance(item, str):
            return None
        if base and item[:base].isspace():
            return item[base:]
        return item

    def _ends_here(self, at: int, line: str) -> bool:
        """Whether the line at ``at`` begins something new."""
        if not may_end(line[:CAP]):
            return False
        if _SYNTAX_HEAD.match(line, 0, CAP) is not None and self._syntax_block(at, line):
            return True
        return is_boundary(line, self._text(at + 1))

    def _syntax_block(self, at: int, line: str) -> bool:
        """``File "x", line 3``, indented code and carets, then a SyntaxError: a new error.

        Messages may contain frame-like lines, so only this full shape ends a message.
        """
        parsed = parse_frame(line, ipython=False)
        if parsed is None or parsed.function is not None:
            return False
        for k in range(at + 1, at + 5):
            following = self._text(k)
            if following is None:
                return False
            if following[:1] not in (" ", "\t"):
                exception = parse_exception_line(following, strict=False)
                return exception is not None and is_syntax_class(exception.cls)
        return False

    def _read_message(self, first: str, base: int) -> tuple[str, list[str]]:
        """The message from its first line to the next boundary, notes split off."""
        parts = [first]
        self.at += 1
        if not first.strip() and self._text(self.at, base) == '"""':
            parts.extend(self._quoted_block(base))
        end = len(self.items)
        at = self.at
        while at < end:
            # The screen looked at lines as printed: dedented lines are checked one by one.
            stop = at if base else self.screen.next_end(at, end)
            parts.extend(self._plain_lines(at, stop))
            at = stop
            line = self._text(at, base)
            if line is None or self._ends_here(at, line):
                break
            parts.append(line)
            at += 1
        self.at = at
        return split_notes("\n".join(trim_trailing_blank(parts)))

    def _plain_lines(self, start: int, stop: int) -> Sequence[str]:
        """Lines the screen cleared as ordinary message text."""
        # The screen stops at every item that is not a line, so this slice holds only lines.
        return cast(Sequence[str], self.items[start:stop])

    def _quoted_block(self, base: int) -> list[str]:
        """``RemoteTraceback`` quotes a whole traceback in ``\"\"\"``: keep it in the message."""
        limit = min(len(self.items), self.at + _QUOTE_LOOKAHEAD)
        for end in range(self.at + 1, limit):
            if self._text(end, base) == '"""':
                block = [self._text(k, base) or "" for k in range(self.at, end + 1)]
                self.at = end + 1
                return block
        return []
