"""Which site each test expectation points at, kept from the last scan while nothing that
decides it changed.

Linking tests (:mod:`errdex.analyze.tests_evidence`) fits every expectation's message
against the templates of every site whose class it catches: on a repository the size of
jax, most of what re-analysing one edited file costs. The choice for one expectation is
a function of the expectation itself, the candidate sites (each one's id, template, function
and kind; the class decides which are candidates) with the class as the test shows it, and the site
functions the test's calls reach with their ranks. Those are keyed; the fitting is
what is kept.
"""

from __future__ import annotations

from typing import Any

from .deps import digest
from .facts import Expect
from .sites import SiteView

__all__ = ["ChoiceMemo", "Choices"]

#: Key -> the chosen (record id, class as shown) pairs.
Choices = dict[str, list[tuple[str, str]]]


class ChoiceMemo:
    """A ``choose`` for :func:`~errdex.analyze.tests_evidence.link_tests` answered from
    ``last`` where its key is there; ``now`` collects this scan's keys for the next."""

    def __init__(self, sites: list[SiteView], last: Choices) -> None:
        self.ids = {s.record["id"]: s.index for s in sites}
        self.last = last
        self.now: Choices = {}
        self.kept = 0
        #: id() of a candidates dict -> (the dict, kept alive so the id stays its, key).
        self._sets: dict[int, tuple[dict[int, str], str]] = {}

    @staticmethod
    def _site_key(site: SiteView) -> tuple[Any, ...]:
        """What the choice reads of a candidate: not its line or source, which an edit
        above it moves."""
        return (site.record["id"], site.template.to_json(), site.function, site.kind)

    def _set_key(self, sites: list[SiteView], candidates: dict[int, str]) -> str:
        found = self._sets.get(id(candidates))
        if found is None:
            content = sorted((self._site_key(sites[i]), shown) for i, shown in candidates.items())
            found = (candidates, digest(content))
            self._sets[id(candidates)] = found
        return found[1]

    def __call__(self, linker: Any, expect: Expect) -> list[tuple[int, str]]:
        candidates: dict[int, str] = linker.candidates(expect)
        if not candidates:
            return []
        ranks = sorted(linker.ranks(linker.callees(expect)).items())
        key = digest((expect, self._set_key(linker.sites, candidates), ranks))
        last = self.last.get(key)
        if last is not None and all(rid in self.ids for rid, _ in last):
            chosen = [(self.ids[rid], shown) for rid, shown in last]
            self.kept += 1
        else:
            chosen = linker.choose(expect)
        self.now[key] = [(linker.sites[i].record["id"], shown) for i, shown in chosen]
        return chosen
