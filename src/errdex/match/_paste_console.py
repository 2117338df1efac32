"""Errors that were printed rather than raised: ``warnings`` output and logging records."""

from __future__ import annotations

import re
from typing import NamedTuple

from errdex.match._paste_lines import CAP

_PLAIN = re.compile(
    r"(?P<level>CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG):(?:(?P<name>[^\s:]+):)?"
)
_STAMP = re.compile(r"\[?\d{4}-\d\d-\d\d[ T]\d\d:\d\d(?::\d\d)?\S*")
_LEVEL = re.compile(
    r"(?<!\w)(?P<level>CRITICAL|FATAL|ERROR|WARNING|WARN|INFO|DEBUG)(?!\w)\]?(?: - | \| |: |:|\s+)?"
)
_REPORTED = frozenset({"CRITICAL", "FATAL", "ERROR", "WARNING", "WARN"})


class LogRecord(NamedTuple):
    """A logging line's level and its message (the text after the level and logger name)."""

    level: str
    message: str

    @property
    def reported(self) -> bool:
        """Warnings and worse are errors worth matching; INFO and DEBUG are not."""
        return self.level in _REPORTED


def parse_log(line: str) -> LogRecord | None:
    """``ERROR:name:message`` (basicConfig) or a timestamped line with a level in it."""
    head = line[:CAP]
    match = _PLAIN.match(head)
    if match is not None:
        message = line[match.end() :]
        return LogRecord(match["level"], message if match["name"] else message.lstrip())
    stamp = _STAMP.match(head)
    if stamp is None:
        return None
    level = _LEVEL.search(head, stamp.end())
    if level is None:
        return None
    return LogRecord(level["level"], line[level.end() :])
