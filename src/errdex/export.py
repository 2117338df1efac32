"""Which exported records a strict schema-2 consumer accepts, and why the others are left out.

errdex keeps records it read from a release without knowing the commit
(``analyzedSha`` null, the reason in ``evidence.source``), which errdex's own
schema allows; schema 2 as published requires a 40-hex commit and a permalink.
``errdex export --schema2-strict`` sends only records that pass it.
"""

from __future__ import annotations

import re
from collections import Counter
from collections.abc import Iterable, Iterator
from dataclasses import dataclass, field
from typing import Any

from pydantic import ValidationError

from errdex.record import ErrorRecord

__all__ = ["StrictFilter", "strict_problem"]

_HEX40 = re.compile(r"[0-9a-f]{40}")


def strict_problem(envelope: dict[str, Any]) -> str | None:
    """Why ``envelope``'s record fails strict schema 2, None when it passes."""
    record = envelope.get("record")
    if not isinstance(record, dict):
        return "no record object"
    sha = record.get("analyzedSha")
    if not isinstance(sha, str) or not _HEX40.fullmatch(sha):
        source = (envelope.get("evidence") or {}).get("source") or {}
        note = source.get("commitNote") if isinstance(source, dict) else None
        return f"analyzedSha is not a commit ({note or 'no commit recorded'})"
    if not record.get("githubUrl"):
        return "githubUrl is null (no permalink could be built)"
    try:
        ErrorRecord.model_validate(record)
    except ValidationError as exc:
        first = exc.errors()[0]
        where = ".".join(str(p) for p in first.get("loc", ())) or "record"
        return f"fails schema 2 at {where}: {first.get('msg', 'invalid')}"
    return None


@dataclass
class StrictFilter:
    """Pass through envelopes whose record is valid strict schema 2; count the rest by reason."""

    left_out: Counter[str] = field(default_factory=Counter)  # "repo: reason" -> records

    def __call__(self, envelopes: Iterable[dict[str, Any]]) -> Iterator[dict[str, Any]]:
        for envelope in envelopes:
            problem = strict_problem(envelope)
            if problem is None:
                yield envelope
                continue
            record = envelope.get("record")
            repo = record.get("repo") if isinstance(record, dict) else None
            self.left_out[f"{repo}: {problem}" if repo else problem] += 1

    @property
    def total(self) -> int:
        return sum(self.left_out.values())

    def summary(self, limit: int = 10) -> list[str]:
        """Lines for the user: how many were left out, then the commonest reasons."""
        if not self.total:
            return []
        lines = [f"left out {self.total:,} record(s) that strict schema 2 rejects:"]
        for reason, count in self.left_out.most_common(limit):
            lines.append(f"  {count:,} × {reason}")
        rest = len(self.left_out) - limit
        if rest > 0:
            lines.append(f"  … and {rest} other reason(s)")
        return lines
