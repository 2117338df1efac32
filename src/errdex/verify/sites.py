"""From a run's frames to the catalogue's sites: which record's file and line raised.

A frame names the file where the interpreter found it (``…/site-packages/networkx/x.py``,
``…/lib/python3.11/json/decoder.py``); a record names it as the repository keeps it
(``networkx/x.py``, ``Lib/json/decoder.py``). Both are turned into the matcher's keys
(:mod:`errdex.match.layouts`) and compared there, so the verifier and ``errdex match``
agree on what "this file" means.
"""

from __future__ import annotations

from collections import defaultdict
from collections.abc import Iterable
from dataclasses import dataclass, field
from typing import Any

from errdex.match.layouts import frame_keys, record_keys

__all__ = ["RepoSites", "Site", "site_of"]


@dataclass(frozen=True)
class Site:
    """A raise site as the catalogue has it: file, first line and last line."""

    file_path: str
    line: int
    end_line: int

    def holds(self, line: int) -> bool:
        return self.line <= line <= self.end_line

    def label(self) -> str:
        return f"{self.file_path}:{self.line}"


def site_of(envelope: dict[str, Any]) -> Site:
    record = envelope["record"]
    line = int(record["lineNumber"])
    end = (envelope.get("evidence") or {}).get("site", {}).get("endLine") or line
    return Site(str(record["filePath"]), line, max(line, int(end)))


@dataclass
class RepoSites:
    """One repository's records, by the keys of their files: frames find them here."""

    by_key: dict[str, str] = field(default_factory=dict)  # key -> filePath
    records: dict[str, list[dict[str, Any]]] = field(default_factory=lambda: defaultdict(list))

    @classmethod
    def of(cls, envelopes: Iterable[dict[str, Any]]) -> RepoSites:
        out = cls()
        for env in envelopes:
            path = str(env["record"]["filePath"])
            out.records[path].append(env)
            for key in record_keys(path):
                out.by_key.setdefault(key, path)
        return out

    def file_of(self, frame_file: str) -> str | None:
        """The repository file a frame is in, or None (another library, the snippet)."""
        for key in frame_keys(frame_file):
            found = self.by_key.get(key)
            if found is not None:
                return found
        return None

    def innermost(self, frames: Iterable[tuple[str, int]]) -> tuple[str, int] | None:
        """The innermost frame inside this repository: (its filePath, line)."""
        for file, line in reversed(list(frames)):
            path = self.file_of(file)
            if path is not None:
                return path, line
        return None

    def at(self, file_path: str, line: int) -> list[dict[str, Any]]:
        """Records whose site spans this line of this file."""
        return [env for env in self.records.get(file_path, []) if site_of(env).holds(line)]
