"""Which site each test expectation points at, kept from the last scan while nothing that
decides it changed.

Linking tests (:mod:`errdex.analyze.tests_evidence`) fits every expectation's message
against the templates of every site whose class it catches: on a repository the size of
jax, most of what re-analysing one edited file costs. The choice for one expectation is
a function of the expectation itself, the candidate sites (each one's id, template, function,
kind and guards; the class decides which are candidates) with the class as the test shows it,
the site functions the test's calls reach with their ranks and signatures, and, for a test
that passes literals, what those functions pass on and under which conditions
(:func:`passes_key`), and what the choice reads below those functions, answered again
each scan (:mod:`.memo_reads`: the deep rule's verdicts, the modules blocked for the
test's runs). Those are keyed; the fitting is what is kept.

A choice whose key changed is made again, but most of its cost, fitting the message
against every candidate's template, is a function of the message and each template
alone. So the fits are kept too (:data:`FITS`), per message and class key, beside the
templates they were tried against (per class key): only a template not tried last time
is fitted again. A new site of a common class (``ValueError``) then costs each
expectation of that class one fit, not one per candidate.
"""

from __future__ import annotations

from typing import Any

from .deps import digest
from .facts import Expect, FuncFacts
from .matching import Expected
from .memo_reads import reads_key
from .sites import SiteView

__all__ = ["ChoiceMemo", "Choices", "passes_key"]

#: Key -> the chosen (record id, class as shown) pairs; and under :data:`FITS` the kept
#: fits (``{"tried": class key -> template digests, "fits": fit key -> {template
#: digest: [share, characters on literal text]}}``).
Choices = dict[str, Any]
#: The key the fits are kept under (no digest: those are hex).
FITS = "fits:literal"  # renamed when what a fit keeps changed: older memos refit


class ChoiceMemo:
    """A ``choose`` for :func:`~errdex.analyze.tests_evidence.link_tests` answered from
    ``last`` where its key is there; ``now`` collects this scan's keys for the next."""

    def __init__(self, sites: list[SiteView], last: Choices) -> None:
        self.ids = {s.record["id"]: s.index for s in sites}
        self.last = last
        kept = last.get(FITS) or {}
        self.last_tried: dict[str, frozenset[str]] = kept.get("tried", {})
        self.last_fits: dict[str, dict[str, list[float]]] = kept.get("fits", {})
        self.tried: dict[str, frozenset[str]] = {}
        self.fits: dict[str, dict[str, list[float]]] = {}
        self.now: Choices = {FITS: {"tried": self.tried, "fits": self.fits}}
        self.kept = 0
        #: Site index -> its template's digest, and its :meth:`_site_key`'s.
        self._templates: dict[int, str] = {}
        self._site_digests: dict[int, str] = {}
        #: id() of a candidates dict -> (the dict, its candidates by template digest).
        self._by_template: dict[int, tuple[dict[int, str], dict[str, list[int]]]] = {}
        #: id() of a candidates dict -> (the dict, kept alive so the id stays its, key).
        self._sets: dict[int, tuple[dict[int, str], str]] = {}
        #: A class key (:meth:`class_key`) -> its digest.
        self._classes: dict[Any, str] = {}
        #: id() of a candidates dict -> (the dict, its templates' digests, those of them not
        #: tried last time with its class key, or None when none were).
        self._untried: dict[int, tuple[dict[int, str], frozenset[str], frozenset[str] | None]] = {}

    @staticmethod
    def _site_key(site: SiteView) -> tuple[Any, ...]:
        """What the choice reads of a candidate: not its line or source, which an edit
        above it moves."""
        guards = tuple((g["kind"], g["text"]) for g in site.guards)  # the literals' verdicts
        return (site.record["id"], site.template.to_json(), site.function, site.kind, guards)

    def _set_key(self, sites: list[SiteView], candidates: dict[int, str], unseen: Any) -> str:
        """The digest of the candidates and what the choice reads of their functions
        (``unseen``: the same for every expectation with these candidates), once per
        candidates dict: each expectation's key then holds the digest, not the thousands
        of candidates of a common class (``ValueError``) again."""
        found = self._sets.get(id(candidates))
        if found is None:
            content = sorted(
                (self._site_digest(sites, i), shown) for i, shown in candidates.items()
            )
            found = (candidates, digest((content, unseen)))
            self._sets[id(candidates)] = found
        return found[1]

    def _site_digest(self, sites: list[SiteView], i: int) -> str:
        """:meth:`_site_key`'s digest, once per site: a site of a common class is a
        candidate of several classes' sets (``ValueError``, ``Exception``…)."""
        found = self._site_digests.get(i)
        if found is None:
            found = self._site_digests[i] = digest(self._site_key(sites[i]))
        return found

    def _class_digest(self, linker: Any, expect: Expect) -> str:
        key = linker.class_key(expect)
        found = self._classes.get(key)
        if found is None:
            found = self._classes[key] = digest(key)
        return found

    def __call__(self, linker: Any, expect: Expect) -> list[tuple[int, str]]:
        candidates: dict[int, str] = linker.candidates(expect)
        if not candidates:
            return []
        ranks = sorted(linker.ranks(linker.callees(expect)).items())
        # read beside the graph's ranks: per candidates; the called functions and the
        # test module's imports
        functions, called = linker.unseen_key(expect, candidates)
        set_key = self._set_key(linker.sites, candidates, functions)
        reads = reads_key(linker, expect, candidates, ranks)  # the path below, the twins
        key = digest((expect, set_key, ranks, called, reads))
        classes = self._class_digest(linker, expect)
        fit_key = digest((expect.match, expect.match_is_literal, expect.match_whole, classes))
        last = self.last.get(key)
        if last is not None and all(rid in self.ids for rid, _ in last):
            chosen = [(self.ids[rid], shown) for rid, shown in last]
            self.kept += 1
            # same candidates, so the same templates: the kept fits still stand
            if fit_key in self.last_fits and classes in self.last_tried:
                self.fits[fit_key] = self.last_fits[fit_key]
                self.tried[classes] = self.last_tried[classes]
        else:

            def fitting(expected: Expected, given: dict[int, str]) -> list[tuple[float, int, int]]:
                return self._fitting(linker, expected, given, fit_key, classes)

            chosen = linker.choose(expect, fitting)
        self.now[key] = [(linker.sites[i].record["id"], shown) for i, shown in chosen]
        return chosen

    def _template_groups(
        self, sites: list[SiteView], candidates: dict[int, str]
    ) -> dict[str, list[int]]:
        """The candidates by their template's digest (once per candidates dict)."""
        found = self._by_template.get(id(candidates))
        if found is None:
            groups: dict[str, list[int]] = {}
            for i in candidates:
                t = self._templates.get(i)
                if t is None:
                    t = self._templates[i] = digest(sites[i].template.to_json())
                groups.setdefault(t, []).append(i)
            found = (candidates, groups)
            self._by_template[id(candidates)] = found
        return found[1]

    def _untried_templates(
        self, groups: dict[str, list[int]], candidates: dict[int, str], classes: str
    ) -> tuple[frozenset[str], frozenset[str] | None]:
        """The candidates' template digests, and those not tried last time for their class
        key (None: it was not tried), once per candidates dict (the class key decides
        the candidates)."""
        found = self._untried.get(id(candidates))
        if found is None:
            now = frozenset(groups)
            tried = self.last_tried.get(classes)
            found = (candidates, now, None if tried is None else now - tried)
            self._untried[id(candidates)] = found
        return found[1], found[2]

    def _fitting(
        self,
        linker: Any,
        expected: Expected,
        candidates: dict[int, str],
        fit_key: str,
        classes: str,
    ) -> list[tuple[float, int, int]]:
        """As ``linker.fitting``, trying only the templates not tried last time for this
        message and class key; the others' fits are the kept ones (a fit reads nothing
        but the message and the template)."""
        groups = self._template_groups(linker.sites, candidates)
        now, untried = self._untried_templates(groups, candidates, classes)
        fits = self.last_fits.get(fit_key)
        if untried is None or fits is None:
            fresh = linker.fitting(expected, candidates)
            kept: dict[str, list[float]] = {}
        else:
            new = {i: candidates[i] for t in untried for i in groups[t]}
            fresh = linker.fitting(expected, new) if new else []
            kept = {t: fit for t, fit in fits.items() if t in now}
        kept.update((self._templates[i], [share, literal]) for share, literal, i in fresh)
        self.tried[classes] = now
        self.fits[fit_key] = kept
        return [(fit[0], int(fit[1]), i) for t, fit in kept.items() for i in groups[t]]


def passes_key(func: FuncFacts) -> tuple[object, ...]:
    """For a choice's memo key: what a function passes on at each call and under which
    conditions (``arg_guards`` reads both one call below), the names it binds again and
    to what call (not where: lines move), as ``indent = int(indent)`` keeps a literal
    (``arg_values``), and its signature (its defaults: ``open_above``)."""
    conditions = func.call_conditions
    calls = tuple(
        (c.ref, c.args, c.keywords, c.starred, conditions.get(c.line, ())) for c in func.call_sites
    )
    binds = ((n, func.local_calls.get(n), len(func.bound_lines.get(n, ()))) for n in func.rebound)
    return (calls, tuple(sorted(binds)), func.signature)
