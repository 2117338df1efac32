"""The mark on every code block of an error page: whether errdex ran it, when, and what
it showed (``evidence.verification``, written by ``errdex verify``; ``serve`` runs
nothing, it only reads what verify recorded)."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

__all__ = ["RunMark", "code_marks", "mark_of_test"]

_CODE_FIELDS = ("reproducer", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")


@dataclass(frozen=True, slots=True)
class RunMark:
    ran: bool
    text: str
    status: str  # passed, partial, failed, not-run


def _date(value: object) -> str:
    return str(value or "")[:10] or "at an unknown date"


def _mark(check: dict[str, Any] | None) -> RunMark:
    if not isinstance(check, dict):
        return RunMark(False, "not run", "not-run")
    status = str(check.get("status") or "not-run")
    reason = str(check.get("reason") or "")
    when = _date(check.get("ranAt"))
    if status == "passed":
        return RunMark(True, f"ran {when}, {reason}", status)
    if status == "partial":
        return RunMark(True, f"ran {when}: {reason}", status)
    if status == "failed":  # a failed field is dropped from the record; this is for its note
        return RunMark(True, f"ran {when} and failed: {reason}", status)
    return RunMark(False, f"not run: {reason}" if reason else "not run", "not-run")


def code_marks(evidence: dict[str, Any]) -> dict[str, RunMark]:
    """field -> its mark; a field that verify never saw is "not run"."""
    fields = ((evidence.get("verification") or {}).get("fields")) or {}
    return {name: _mark(fields.get(name)) for name in _CODE_FIELDS}


def mark_of_test(evidence: dict[str, Any], test: dict[str, Any]) -> RunMark:
    """A test's snippet is the test as written; errdex ran its cut-out reproducer at most."""
    reproducer = evidence.get("reproducer") or {}
    if reproducer.get("test") and reproducer.get("test") == test.get("name"):
        return RunMark(
            False,
            f"not run as shown; the reproducer above was cut from it and ran "
            f"{_date(reproducer.get('verifiedAt'))}",
            "not-run",
        )
    return RunMark(False, "not run: the test as written in the repository", "not-run")
