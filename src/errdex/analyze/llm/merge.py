"""Writing a model's answer into a record without losing what was there.

The new record is built from the old one, key by key, so key order stays seed 000's;
it is validated as a whole before it is returned. A field the model left null (or an
empty list) keeps its earlier value and the provenance that says who wrote it; a
field the model wrote gets ``evidence.provenance[field]`` naming the model, the
prompt version and the evidence keys the prompt carried. Tags are the extractor's
(kept across re-analyses in ``evidence.llm.baseTags``) followed by the model's.
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any

from errdex.record import ErrorRecord

from .schema import PROSE_FIELDS, LlmProse

__all__ = ["ANALYST", "MAX_TAGS", "AnswerMeta", "is_current", "merge_answer"]

ANALYST = "llm"
MAX_TAGS = 10


@dataclass(frozen=True, slots=True)
class AnswerMeta:
    """How an answer came about, recorded in ``evidence.llm``."""

    model: str
    prompt_version: str
    content_hash: str
    basis: Sequence[str]
    cached: bool
    analyzed_at: str
    unknown_identifiers: list[dict[str, str]] = field(default_factory=list)
    rejected_code: dict[str, str] = field(default_factory=dict)


def is_current(
    evidence: dict[str, Any], model: str, prompt_version: str, content_hash: str
) -> bool:
    """Whether the record already carries this model's answer for this very content."""
    llm = evidence.get("llm") or {}
    return (
        evidence.get("analysis") == ANALYST
        and llm.get("model") == model
        and llm.get("promptVersion") == prompt_version
        and llm.get("contentHash") == content_hash
    )


def _base_tags(record: dict[str, Any], evidence: dict[str, Any]) -> list[str]:
    """The tags before any model touched them."""
    previous = evidence.get("llm") or {}
    tags_by = (evidence.get("provenance") or {}).get("tags") or {}
    if tags_by.get("analyst") == ANALYST and isinstance(previous.get("baseTags"), list):
        return [str(t) for t in previous["baseTags"]]
    return [str(t) for t in record.get("tags", [])]


def _written_values(prose: LlmProse, meta: AnswerMeta, base_tags: list[str]) -> dict[str, Any]:
    values: dict[str, Any] = {}
    for name in PROSE_FIELDS:
        if name in meta.rejected_code:
            continue
        value = getattr(prose, name)
        if value is None or (isinstance(value, list) and not value):
            continue
        values[name] = value
    if "tags" in values:
        merged = list(dict.fromkeys([*base_tags, *values["tags"]]))
        values["tags"] = merged[: max(MAX_TAGS, len(base_tags))]
    return values


def merge_answer(
    envelope: dict[str, Any], prose: LlmProse, meta: AnswerMeta
) -> tuple[dict[str, Any], dict[str, Any]]:
    """(record, evidence) with the answer merged in; raises pydantic's ValidationError
    if the result is not a valid schema-2 record (nothing is written then)."""
    record: dict[str, Any] = envelope["record"]
    # A shallow copy is enough: only top-level keys are replaced below, nothing nested
    # is changed in place.
    evidence: dict[str, Any] = dict(envelope.get("evidence") or {})
    base_tags = _base_tags(record, evidence)
    values = _written_values(prose, meta, base_tags)
    values["analyzedAt"] = meta.analyzed_at
    merged = {key: values.get(key, old) for key, old in record.items()}
    ErrorRecord.model_validate(merged)

    provenance: dict[str, Any] = dict(evidence.get("provenance") or {})
    basis = list(meta.basis)
    for name in PROSE_FIELDS:
        if name in values:
            provenance[name] = {
                "analyst": ANALYST,
                "basis": [*basis, "tags"] if name == "tags" else basis,
                "model": meta.model,
                "promptVersion": meta.prompt_version,
            }
    evidence["provenance"] = provenance
    evidence["analysis"] = ANALYST
    evidence["llm"] = {
        "model": meta.model,
        "promptVersion": meta.prompt_version,
        "contentHash": meta.content_hash,
        "cached": meta.cached,
        "analyzedAt": meta.analyzed_at,
        "fields": [name for name in PROSE_FIELDS if name in values],
        "baseTags": base_tags,
        "unknownIdentifiers": meta.unknown_identifiers,
        "rejectedCode": meta.rejected_code,
    }
    return merged, evidence
