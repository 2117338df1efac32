"""A record and its evidence seen as a site: what every evidence finder reads.

Analysts work from the stored ``(record, evidence)`` pairs, not from extractor objects,
so that ``errdex analyze`` can re-run them over a catalogue long after the scan.
"""

from __future__ import annotations

from dataclasses import dataclass, field
from typing import Any

from errdex.evidence import GuardItem
from errdex.extract.python import module_name_for
from errdex.extract.source_lines import source_lines
from errdex.template import MessageTemplate

__all__ = ["SiteView", "site_views"]


@dataclass(slots=True)
class SiteView:
    index: int
    record: dict[str, Any]
    evidence: dict[str, Any]
    rel: str  # path relative to the checkout root
    module: str
    kind: str  # raise, warn, assert
    error_class: str | None
    qualified_class: str | None
    canonical_class: str | None = None
    function: str | None = None  # the enclosing function's qualname
    template: MessageTemplate = field(default_factory=MessageTemplate)
    guards: list[GuardItem] = field(default_factory=list)

    @property
    def path(self) -> str:
        return str(self.record["filePath"])

    @property
    def line(self) -> int:
        return int(self.record["lineNumber"])

    def window(self) -> tuple[list[str], int] | None:
        """The record's pinned source window as lines, and the index of the site's own
        line in them; None when the record holds no window around that line."""
        source, start = self.record.get("sourceCode"), self.record.get("sourceCodeStart")
        if not isinstance(source, str) or not isinstance(start, int):
            return None
        lines = source_lines(source)
        at = self.line - start
        return (lines, at) if 0 <= at < len(lines) else None

    @property
    def raised_at(self) -> int | None:
        """For a call of a helper that raises what the call passes: the helper's raise
        line (``evidence.site.raisedAt``, :mod:`errdex.extract.python.caller_sites`)."""
        line = self.evidence.get("site", {}).get("raisedAt")
        return line if isinstance(line, int) else None

    @property
    def qualname(self) -> str:
        return str(self.evidence.get("site", {}).get("qualname") or self.module)


def site_views(
    items: list[tuple[dict[str, Any], dict[str, Any]]], path_prefix: str
) -> list[SiteView]:
    """One view per item, in item order."""
    views: list[SiteView] = []
    for i, (record, evidence) in enumerate(items):
        site = evidence.get("site", {})
        path = str(record["filePath"])
        rel = path[len(path_prefix) :] if path_prefix and path.startswith(path_prefix) else path
        views.append(
            SiteView(
                index=i,
                record=record,
                evidence=evidence,
                rel=rel,
                module=module_name_for(rel),
                kind=str(site.get("kind") or "raise"),
                error_class=record.get("errorClass"),
                qualified_class=site.get("qualifiedClass"),
                function=site.get("qualname") if site.get("function") else None,
                template=MessageTemplate.from_json(site.get("template") or []),
                guards=list(site.get("guards") or []),
            )
        )
    return views
