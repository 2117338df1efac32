"""Matching: from what a user pastes (message, traceback, pytest or notebook output) to records.

Names are imported on first use, so ``errdex.match.index`` can be used (and the CLI
can start) without loading the paste parser and the ranking code.

The package is itself callable: ``errdex.match(text, db="errdex.db")`` is
:func:`errdex.match.api.match`. A plain function named ``match`` in ``errdex`` would be
replaced by this subpackage as soon as anything imported ``errdex.match.<module>``.
"""

from __future__ import annotations

import importlib
import sys
import types
from pathlib import Path
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from errdex.match.api import Answer, answers, index_for, match, match_errors
    from errdex.match.index import MatchIndex
    from errdex.match.paste import Frame, PastedError, parse_paste
    from errdex.match.rank import Candidate
    from errdex.store import SqliteStore

__all__ = [
    "Answer",
    "Candidate",
    "Frame",
    "MatchIndex",
    "PastedError",
    "answers",
    "index_for",
    "match",
    "match_errors",
    "parse_paste",
]

_WHERE = {
    "Answer": "errdex.match.api",
    "Candidate": "errdex.match.rank",
    "Frame": "errdex.match.paste",
    "MatchIndex": "errdex.match.index",
    "PastedError": "errdex.match.paste",
    "answers": "errdex.match.api",
    "index_for": "errdex.match.api",
    "match": "errdex.match.api",
    "match_errors": "errdex.match.api",
    "parse_paste": "errdex.match.paste",
}


def __getattr__(name: str) -> Any:
    module = _WHERE.get(name)
    if module is None:
        raise AttributeError(f"module 'errdex.match' has no attribute {name!r}")
    return getattr(importlib.import_module(module), name)


class _CallableModule(types.ModuleType):
    """``errdex.match`` the package, callable as ``errdex.match.api.match``."""

    def __call__(
        self, text: str | bytes, db: str | Path | SqliteStore = "errdex.db", top: int = 5
    ) -> list[Candidate]:
        from errdex.match.api import match

        return match(text, db=db, top=top)


sys.modules[__name__].__class__ = _CallableModule
