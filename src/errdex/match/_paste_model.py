"""The parsed form of a paste: frames and errors, re-exported by :mod:`errdex.match.paste`."""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Literal

Relation = Literal["cause", "context"]

TRACEBACK = "traceback"
BARE = "bare"
PYTEST = "pytest"
IPYTHON = "ipython"
WARNING = "warning"
LOGGING = "logging"
EXCEPTION_GROUP = "exception-group"
SYNTAX_ERROR = "syntax-error"


@dataclass(frozen=True, slots=True)
class Frame:
    """One stack frame as the paste printed it (paths are not resolved or normalised)."""

    path: str
    line: int | None
    function: str | None
    source: str | None


@dataclass(slots=True)
class PastedError:
    """One error found in a paste; ``relation`` says how it leads to the next one printed."""

    error_class: str | None
    message: str
    frames: list[Frame] = field(default_factory=list)
    relation: Relation | None = None
    source_format: str = TRACEBACK
    notes: list[str] = field(default_factory=list)
    truncated: bool = False  # pytest cut the message short with ``...`` (a summary line)
