"""A CPU-time budget per file for the static analyst, so that no file stalls a scan.

The analyst's cost per site is bounded, but a file may hold 100k sites, and a bug or
an input nobody foresaw must not hold up the rest of the repository. Each site's work
is charged to its file; once a file has spent its budget its remaining sites are not
analysed, and the whole file keeps the extractor's records, counted like a skipped
file. The check is between sites: one site's work is never interrupted.

The default is :data:`DEFAULT_BUDGET` CPU seconds, changed with the environment
variable ``ERRDEX_ANALYSIS_BUDGET`` (seconds; ``0`` or ``none`` for no limit) or by
passing a budget (``math.inf`` for no limit).
"""

from __future__ import annotations

import math
import os
import time
from collections import defaultdict
from collections.abc import Iterator
from contextlib import contextmanager

__all__ = ["BUDGET_ENV", "DEFAULT_BUDGET", "FileBudget", "budget_from_env"]

BUDGET_ENV = "ERRDEX_ANALYSIS_BUDGET"
#: CPU seconds one file's sites may take: some 30k sites at the analyst's usual pace.
DEFAULT_BUDGET = 60.0


def budget_from_env() -> float:
    """The budget ``ERRDEX_ANALYSIS_BUDGET`` asks for (``inf``: no limit), else the default."""
    raw = os.environ.get(BUDGET_ENV, "").strip().lower()
    if not raw:
        return DEFAULT_BUDGET
    if raw in ("none", "off"):
        return math.inf
    try:
        value = float(raw)
    except ValueError:
        return DEFAULT_BUDGET
    return value if value > 0 else math.inf


class FileBudget:
    """CPU seconds spent per file path, and the files that ran out."""

    def __init__(self, budget: float | None = None) -> None:
        self.budget = budget_from_env() if budget is None else budget
        self.spent: dict[str, float] = defaultdict(float)
        self._cut: dict[str, None] = {}  # insertion-ordered set

    def is_cut(self, path: str) -> bool:
        return path in self._cut

    @contextmanager
    def charge(self, path: str) -> Iterator[bool]:
        """Charge the block's CPU time to ``path``; yields False once the file is cut."""
        if self.budget == math.inf:
            yield True
            return
        if path in self._cut:
            yield False
            return
        if self.spent[path] > self.budget:
            self._cut[path] = None
            yield False
            return
        started = time.process_time()
        try:
            yield True
        finally:
            self.spent[path] += time.process_time() - started

    def cut_files(self) -> list[tuple[str, str]]:
        """``(path, reason)`` for each file that ran out, in the order they did."""
        return [
            (
                path,
                f"analysis cut after {self.spent[path]:.1f} s of CPU (budget {self.budget:g} s, "
                f"{BUDGET_ENV}); its records keep the extractor's account",
            )
            for path in self._cut
        ]
