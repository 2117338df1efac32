"""The build's memory: one JSON line per finished attempt, so a stopped build resumes.

Append-only and flushed line by line, so a build killed mid-write loses at most the
line being written; a torn or foreign line is skipped and counted, never fatal.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from pathlib import Path
from typing import Any

__all__ = ["Manifest"]


class Manifest:
    """Outcomes by spec (the last line about a spec wins)."""

    def __init__(self, path: Path) -> None:
        self.path = path
        self.outcomes: dict[str, dict[str, Any]] = {}
        self.unreadable = 0
        if path.exists():
            self._load()

    def _load(self) -> None:
        with self.path.open(encoding="utf-8", errors="replace") as handle:
            for line in handle:
                try:
                    row = json.loads(line)
                except json.JSONDecodeError:
                    self.unreadable += 1
                    continue
                if isinstance(row, dict) and isinstance(row.get("spec"), str):
                    self._keep(row)
                else:
                    self.unreadable += 1

    def _keep(self, row: dict[str, Any]) -> None:
        # an attempt's outcome replaces what was known; a note (``merged``) adds to it
        spec = row["spec"]
        self.outcomes[spec] = dict(row) if "status" in row else self.outcomes.get(spec, {}) | row

    def record(self, outcome: dict[str, Any]) -> None:
        """Append ``outcome`` (it must carry ``spec``) and keep it in memory."""
        self._keep(outcome)
        self.path.parent.mkdir(parents=True, exist_ok=True)
        with self.path.open("a", encoding="utf-8") as handle:
            handle.write(json.dumps(outcome, sort_keys=True) + "\n")
            handle.flush()
            os.fsync(handle.fileno())

    def done(self) -> set[str]:
        """Specs whose part file was built and still exists."""
        return {
            spec
            for spec, row in self.outcomes.items()
            if row.get("status") == "done" and Path(str(row.get("part", ""))).is_file()
        }

    def unmerged(self, specs: Iterable[str]) -> list[dict[str, Any]]:
        """Built outcomes among ``specs`` not yet written to the catalogue."""
        done = self.done()
        return [self.outcomes[s] for s in specs if s in done and not self.outcomes[s].get("merged")]
