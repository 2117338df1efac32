"""Stack traces of languages other than Python: the one place their parsers are registered.

Each entry is a module with ``parse(text: str) -> list[PastedError]`` that returns the
errors of a paste printed by its runtime (a Node/V8 stack, a Go panic, a Rust panic, a
Java stack trace), outermost frame first as Python's are, or ``[]`` when the text is not
one of its traces. They run before Python's parser and must be as strict as its: a
parser answers only for text that carries its runtime's own frame lines. The frames'
paths are left as printed; a parser may cut a prefix that no repository keeps (a Go
module cache's ``…/pkg/mod/host/owner/name@v1.2.3/``) so that the catalogue's keys
(:mod:`errdex.match.layouts`) find them.
"""

from __future__ import annotations

import importlib
from collections.abc import Callable
from functools import cache

from errdex.match._paste_model import PastedError

__all__ = ["TRACE_PARSERS", "foreign_errors"]

TraceParser = Callable[[str], list[PastedError]]

#: Modules with ``parse(text) -> list[PastedError]``, tried in this order.
TRACE_PARSERS: tuple[str, ...] = (
    "errdex.match.traces.java",
    "errdex.match.traces.node",
    "errdex.match.traces.go",
    "errdex.match.traces.rust",
)


@cache
def _load(module: str) -> TraceParser:
    fn: TraceParser = importlib.import_module(module).parse
    return fn


def foreign_errors(text: str) -> list[PastedError]:
    """The errors of the first registered parser that recognises ``text``, or ``[]``."""
    for module in TRACE_PARSERS:
        errors = _load(module)(text)
        if errors:
            return errors
    return []
