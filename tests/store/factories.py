"""Valid schema-2 records and scan summaries for the store tests."""

from __future__ import annotations

from typing import Any

from errdex.record import ErrorRecord, ErrorType, Severity, iso_now, record_id, slugify
from errdex.store import ScanSummary

SHA_A = "a" * 40
SHA_B = "b" * 40
SHA_C = "c" * 40


def make_record(
    repo: str = "acme/widgets",
    message: str = "widget {name} is broken",
    file_path: str = "widgets/core.py",
    line: int = 40,
    sha: str | None = SHA_A,
    error_class: str | None = "ValueError",
    error_type: ErrorType = "exception",
    severity: Severity = "error",
) -> dict[str, Any]:
    """A record that passes ErrorRecord validation, as the analyser would emit it."""
    start, end = max(1, line - 18), line + 18
    url = f"https://github.com/{repo}/blob/{sha}/{file_path}#L{start}-L{end}" if sha else None
    record = ErrorRecord(
        id=record_id(repo, message, file_path),
        repo=repo,
        slug=slugify(message),
        errorCode=None,
        errorMessage=message,
        messagePattern=message.replace("{name}", "(.*?)"),
        errorType=error_type,
        errorClass=error_class,
        httpStatus=None,
        severity=severity,
        filePath=file_path,
        lineNumber=line,
        sourceCode="\n".join(f"line {n} — ünïcode" for n in range(start, end + 1)),
        sourceCodeStart=start,
        sourceCodeEnd=end,
        githubUrl=url,
        documentation="Raised when a widget is broken.",
        triggerScenarios="Calling spin() on a broken widget.",
        commonSituations="After dropping the widget.",
        solutions=["Repair the widget"],
        exampleFix=None,
        handlingStrategy="try-catch",
        validationCode=None,
        typeGuard=None,
        tryCatchPattern=None,
        preventionTips=[],
        tags=["widgets"],
        backgroundTag="invalid-state",
        analyzedSha=sha,
        analyzedAt=iso_now(),
        schemaVersion=2,
    )
    return record.to_json()


def make_summary(
    repo: str = "acme/widgets",
    commit: str | None = SHA_A,
    records: int = 0,
    skipped: list[tuple[str, str]] | None = None,
) -> ScanSummary:
    """A plausible summary of a git scan of ``repo`` at ``commit``."""
    return ScanSummary(
        repo=repo,
        commit=commit,
        ref=commit,
        ref_kind="commit" if commit else "none",
        origin="git",
        version=None,
        started_at="2026-01-02T03:04:05.000Z",
        finished_at="2026-01-02T03:04:07.500Z",
        seconds=2.5,
        files_read=12,
        files_excluded=3,
        sites=records,
        records=records,
        skipped=skipped or [],
    )
