"""The schema-2 error record: ids, slugs, the source window and the JSON envelope.

Field names, order and types are those of seed 000 (the ErrLookup schema), so our
records and URLs interoperate with that site's. Everything errdex knows beyond the
schema goes beside the record in ``evidence``, never inside it.
"""

from __future__ import annotations

import hashlib
import json
import re
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

__all__ = [
    "BACKGROUND_TAGS",
    "SCHEMA_VERSION",
    "WINDOW_RADIUS",
    "ErrorRecord",
    "ErrorType",
    "HandlingStrategy",
    "Severity",
    "envelope",
    "escape_surrogates",
    "escaped_item",
    "id_key",
    "iso_now",
    "record_id",
    "record_json_schema",
    "slugify",
    "source_window",
]

SCHEMA_VERSION = 2
#: Lines shown either side of the raise line (seed 000: raise at 1597 -> 1579..1615).
WINDOW_RADIUS = 18
SLUG_LENGTH = 50

ErrorType = Literal["exception", "error_code", "console", "http", "validation", "panic"]
Severity = Literal["critical", "error", "warning", "info"]
HandlingStrategy = Literal["try-catch", "type-guard", "validation", "retry", "fallback"]

#: The declared cause families (``backgroundTag``); free text is not allowed. The static
#: analyst's rules for choosing one are listed in ``docs/analysis.md``.
BACKGROUND_TAGS: tuple[str, ...] = (
    "missing-context",
    "shape-mismatch",
    "type-mismatch",
    "invalid-value",
    "out-of-range",
    "missing-key",
    "missing-attribute",
    "missing-dependency",
    "not-implemented",
    "invalid-state",
    "deprecated-usage",
    "io-failure",
    "network-failure",
    "permission-denied",
    "resource-exhausted",
    "timeout",
    "parse-error",
    "encoding-error",
    "concurrency",
    "configuration",
    "internal-assertion",
    "no-solution",
    "convergence-failure",
    "empty-input",
)

_HEX16 = r"^[0-9a-f]{16}$"
_HEX40 = r"^[0-9a-f]{40}$"
_KEBAB = r"^[a-z0-9]+(?:-[a-z0-9]+)*$"
_ISO_MS_Z = r"^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$"

NonEmpty = Field(min_length=1)


class ErrorRecord(BaseModel):
    """One error site as schema 2 describes it; key order is seed 000's."""

    model_config = ConfigDict(extra="forbid", frozen=True, strict=True)

    id: str = Field(pattern=_HEX16)
    repo: str = Field(pattern=r"^[^/\s]+(?:/[^/\s]+)+$")
    slug: str = Field(pattern=_KEBAB)
    errorCode: str | None
    errorMessage: str = Field(min_length=1)
    messagePattern: str = Field(min_length=1)
    errorType: ErrorType
    errorClass: str | None
    httpStatus: int | None = Field(ge=100, le=599)
    severity: Severity
    filePath: str = Field(min_length=1)
    lineNumber: int = Field(ge=1)
    sourceCode: str
    sourceCodeStart: int = Field(ge=1)
    sourceCodeEnd: int = Field(ge=1)
    githubUrl: str | None = Field(pattern=r"^https?://")
    documentation: str = Field(min_length=1)
    triggerScenarios: str = Field(min_length=1)
    commonSituations: str = Field(min_length=1)
    solutions: list[str] = Field(min_length=1)
    exampleFix: str | None
    handlingStrategy: HandlingStrategy | None
    validationCode: str | None
    typeGuard: str | None
    tryCatchPattern: str | None
    preventionTips: list[str]
    tags: list[str]
    backgroundTag: str | None = Field(pattern=_KEBAB)
    analyzedSha: str | None = Field(pattern=_HEX40)
    analyzedAt: str = Field(pattern=_ISO_MS_Z)
    schemaVersion: Literal[2]

    def to_json(self) -> dict[str, Any]:
        """The record as a dict in schema order (what ``/api/errors/{id}`` returns)."""
        return self.model_dump(mode="json")


_SURROGATE = re.compile("[\ud800-\udfff]")


def _escape_one(match: re.Match[str]) -> str:
    point = ord(match.group())
    if 0xDC80 <= point <= 0xDCFF:  # a byte that was not UTF-8 (os.fsdecode's surrogateescape)
        return f"\\x{point - 0xDC00:02x}"
    return f"\\u{point:04x}"


def escape_surrogates(text: str, *, in_regex: bool = False) -> str:
    """``text`` with each surrogate written as an escape: a lone ``\\ud800`` in a literal as
    the six characters ``\\ud800``, an undecodable file-name byte as ``\\xe9``.

    Surrogates cannot be encoded as UTF-8, so neither hashed, stored nor served; the
    escaped text can, and reads as the source would write it. ``in_regex`` doubles the
    backslash, so that a pattern matches the escaped text.
    """
    if text.isascii() or not _SURROGATE.search(text):
        return text
    if in_regex:
        return _SURROGATE.sub(lambda m: "\\" + _escape_one(m), text)
    return _SURROGATE.sub(_escape_one, text)


def _needs_escape(value: Any) -> bool:
    if isinstance(value, str):
        return not value.isascii() and _SURROGATE.search(value) is not None
    if isinstance(value, dict):
        return any(_needs_escape(k) or _needs_escape(v) for k, v in value.items())
    if isinstance(value, (list, tuple)):
        return any(_needs_escape(v) for v in value)
    return False


def _escaped(value: Any) -> Any:
    if isinstance(value, str):
        return escape_surrogates(value)
    if isinstance(value, dict):
        return {_escaped(k): _escaped(v) for k, v in value.items()}
    if isinstance(value, list):
        return [_escaped(v) for v in value]
    if isinstance(value, tuple):
        return tuple(_escaped(v) for v in value)
    return value


def escaped_item(
    record: dict[str, Any], evidence: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any]]:
    """A record and its evidence with every string's surrogates escaped: copies where
    something needed it, the same objects where nothing did (nearly always)."""
    if _needs_escape(record):
        pattern = record.get("messagePattern")
        record = _escaped(record)
        if isinstance(pattern, str):
            record["messagePattern"] = escape_surrogates(pattern, in_regex=True)
    if _needs_escape(evidence):
        evidence = _escaped(evidence)
    return record, evidence


def id_key(error_code: str | None, message: str) -> str:
    """What an id hashes for a site: its error code where the ecosystem has one (Node's
    ``ERR_INVALID_ARG_TYPE``, stable while the message is reworded), else its message."""
    return error_code or message


def record_id(
    repo: str, message_or_code: str, file_path: str, disambiguator: str | None = None
) -> str:
    """``sha256(repo \\x01 (errorCode or errorMessage) \\x01 filePath)``, first 16 hex digits.

    No line number goes in, so the id survives code moving. Where one file raises the
    same message at several sites, the enclosing qualname (and, if still ambiguous, an
    ordinal) is appended as a fourth ``\\x01``-separated part; :func:`id_key` chooses the
    code or the message. Surrogates are hashed as
    :func:`escape_surrogates` writes them, so the id is that of the stored text.
    """
    text = f"{repo}\x01{message_or_code}\x01{file_path}"
    if disambiguator:
        text += f"\x01{disambiguator}"
    return hashlib.sha256(escape_surrogates(text).encode("utf-8")).hexdigest()[:16]


_NON_SLUG = re.compile(r"[^a-z0-9]+")


def slugify(text: str) -> str:
    """The first 50 characters, lower-cased, non-``[a-z0-9]`` runs to ``-``, ends trimmed."""
    slug = _NON_SLUG.sub("-", text[:SLUG_LENGTH].lower()).strip("-")
    return slug or "error"


def source_window(lines: Sequence[str], line_number: int) -> tuple[str, int, int]:
    """Lines ``line_number ± 18`` clipped to the file, joined by ``\\n``: (code, start, end)."""
    start = max(1, line_number - WINDOW_RADIUS)
    end = max(start, min(len(lines), line_number + WINDOW_RADIUS))
    return "\n".join(lines[start - 1 : end]), start, end


def iso_now(moment: datetime | None = None) -> str:
    """ISO-8601 UTC with milliseconds and ``Z``, as seed 000 writes ``analyzedAt``."""
    moment = (moment or datetime.now(UTC)).astimezone(UTC)
    return moment.strftime("%Y-%m-%dT%H:%M:%S.") + f"{moment.microsecond // 1000:03d}Z"


def envelope(
    record: ErrorRecord | dict[str, Any], evidence: dict[str, Any], dataset_version: str
) -> dict[str, Any]:
    """``{"record", "evidence", "datasetVersion"}``: schema-2 consumers read ``record`` unchanged."""
    data = record.to_json() if isinstance(record, ErrorRecord) else record
    return {"record": data, "evidence": evidence, "datasetVersion": dataset_version}


def record_json_schema() -> dict[str, Any]:
    """The JSON Schema of a record, as exported to ``schema/record-v2.json``."""
    schema = ErrorRecord.model_json_schema(mode="serialization")
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    schema["$id"] = "https://errdex.dev/schema/record-v2.json"
    schema["title"] = "errdex error record, schema version 2"
    schema["required"] = list(ErrorRecord.model_fields)
    return schema


def write_json_schema(path: Path) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(json.dumps(record_json_schema(), indent=2) + "\n", encoding="utf-8")
