"""Whether a run did what a snippet claims, one rule per kind of snippet.

- a **reproducer** raises this record's class (or a subclass), with a message its
  ``messagePattern`` matches whole, and the innermost frame inside the repository is
  this record's file and line;
- a **try/except pattern** ran the reproducer inside its ``try`` and its handler caught
  the error: nothing escaped and the handler's mark was set;
- a **check** (``validationCode``, ``typeGuard``) is true on the failing input; whether
  it is false on a good one needs a good input, which the verifier rarely knows.
"""

from __future__ import annotations

import re
from dataclasses import dataclass
from functools import lru_cache
from typing import Any

import re2

from .sandbox import RunResult
from .sites import RepoSites, site_of

__all__ = ["Verdict", "check_reproducer", "class_agrees", "message_fits", "raised_at"]


@dataclass(frozen=True)
class Verdict:
    passed: bool
    reason: str  # why it failed, or what it showed when it passed


@lru_cache(maxsize=4096)
def _matcher(pattern: str) -> Any:
    try:
        return re2.compile(pattern)
    except re2.error:
        try:
            return re.compile(pattern, re.DOTALL)
        except re.error:
            return None


def message_fits(pattern: str, result: RunResult) -> bool:
    """The pattern matches ``str()`` of the error whole, or its one string argument
    (``KeyError`` quotes its message in ``str()``)."""
    compiled = _matcher(pattern)
    if compiled is None:
        return False
    for text in (result.message, result.arg):
        if text is not None and compiled.fullmatch(text) is not None:
            return True
    return False


def class_agrees(envelope: dict[str, Any], result: RunResult) -> bool:
    """The raised class is the record's class or below it."""
    record = envelope["record"]
    evidence = envelope.get("evidence") or {}
    wanted = (evidence.get("site") or {}).get("qualifiedClass")
    shown = record.get("errorClass")
    if not shown and not wanted:
        return False
    raised = result.classes or ((result.error_class,) if result.error_class else ())
    if wanted:
        if wanted in raised:
            return True
        if "." in wanted and not wanted.startswith("builtins."):
            # a class re-exported elsewhere: the same name, under the same top package
            top, name = wanted.split(".", 1)[0], wanted.rsplit(".", 1)[-1]
            return any(c.rsplit(".", 1)[-1] == name and c.split(".", 1)[0] == top for c in raised)
        if "." in wanted:
            return False
    bare = str(shown or wanted).rsplit(".", 1)[-1]
    return any(c.rsplit(".", 1)[-1] == bare for c in raised)


def raised_at(result: RunResult, sites: RepoSites) -> tuple[str, int] | None:
    return sites.innermost(result.frames)


def check_reproducer(envelope: dict[str, Any], result: RunResult, sites: RepoSites) -> Verdict:
    """The three conditions of a verified reproducer, the first failing one named."""
    if result.status != "raised":
        return Verdict(False, f"it did not raise ({result.status}{_detail(result)})")
    where = raised_at(result, sites)
    site = site_of(envelope)
    if where is None:
        return Verdict(False, f"raised {result.error_class} outside the repository")
    if where[0] != site.file_path or not site.holds(where[1]):
        return Verdict(False, f"raised {result.error_class} at {where[0]}:{where[1]}")
    if not class_agrees(envelope, result):
        return Verdict(
            False, f"raised {result.error_class}, not {envelope['record'].get('errorClass')}"
        )
    if not message_fits(str(envelope["record"].get("messagePattern") or ""), result):
        return Verdict(False, f"the message {result.message!r} does not match the pattern")
    return Verdict(True, f"raised {_short(result.error_class)} at {where[0]}:{where[1]}")


def _short(name: str | None) -> str:
    return (name or "?").rsplit(".", 1)[-1]


def _detail(result: RunResult) -> str:
    return f": {result.detail}" if result.detail else ""
