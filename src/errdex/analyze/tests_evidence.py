"""Tests in the repository that trigger a site: the class agrees and the message fits.

A test expectation (``pytest.raises(C, match=r)``, ``assertRaisesRegex``, ``pytest.warns``,
or ``assert "text" in str(e.value)`` after the block) is linked to a site when

1. the expected class catches the site's class (bases included), and
2. with a message: the expected regex or literal fits the site's template
   (:mod:`errdex.analyze.matching`); among several fitting sites, those the test's
   calls reach through the call graph are kept, and when none is reached, a fit is
   kept only if it is the single best one, puts :data:`UNREACHED_MIN_LITERAL`
   characters on literal text (fewer when all of it is literal and the test calls a
   function of the site's package), and lies wholly on literal text unless the test calls a library
   function or imports the site's module;
3. without a message: the test's calls reach exactly one site of an agreeing class, and
   reach it through imports (no name-only edge) within one call.

"One site" is one raise statement: a raise whose message has two forms (``re``'s
``source.error`` with and without the line and column) is two records at one line, and
a test that picks that raise is linked to both.

Rule 3 is what makes ``pytest.raises(nx.NetworkXError)`` without ``match`` usable; it
rests on the bounded, name-based call graph, and the test evidence then has
``match: null`` so a reader can tell the two kinds apart. A test's calls on ``self.x``
bound in ``setUp``, and expectations a suite's helper wraps over its parameters, are read
by :mod:`errdex.analyze.tests_calls`; a link through a helper names it (``via``).
"""

from __future__ import annotations

import re
from collections import Counter, defaultdict
from collections.abc import Callable, Iterable

from errdex.evidence import TestEvidence

from .arg_guards import ArgGuards
from .call_fit import calls_literal, takes
from .call_shapes import unbound_callees
from .callgraph import CallGraph, Precision, Reach
from .classes import ClassTree
from .deep_links import NO_MESSAGE_DEPTH, deep_link
from .expects import HELPER_CALL
from .expects_warnings import CATCH_WARNINGS
from .facts import CallRef, Expect
from .helper_runs import by_tests, is_test_name
from .matching import (
    GRAM,
    Expected,
    expected_grams,
    fit,
    from_literal,
    from_regex,
    good_fit,
    may_fit,
    template_grams,
)
from .mixins import per_class
from .outside_calls import calls_outside
from .py_twin_links import imports_module, python_twin_runs
from .repo import RepoIndex
from .sites import SiteView
from .tests_calls import ClassAttributes, expect_callees, through_helpers
from .tests_linked import linked_evidence
from .tests_memo import passes_key
from .tests_one_raise import general, one_raise
from .tests_unseen import UnseenCalls
from .twin_tests import TwinRuns
from .twins import shadow_of

__all__ = ["link_tests"]

#: A message fitted to a site the test's calls do not reach must put this many of its
#: characters on the template's literal text: "(1 given)" fits sites across the library.
#: A shorter one ("missing :", "no current") is kept when it lies wholly on literal text
#: and the test calls a function of the site's package exactly (``re.compile``): the
#: graph's gap is then below that call, not a message the interpreter or the test wrote
#: ("test" from the test's own function fits unittest's "subtests cannot be run").
#: It must also lie wholly on literal text unless the test calls a library function
#: (exactly) or its module imports the site's: "'int' object has no attribute 'lower'"
#: raised by the interpreter fits email's ``"{!r} object has no attribute {!r}"``, and
#: "f() missing 1 required positional argument: 'c'" fits inspect's copy of the
#: interpreter's message.
UNREACHED_MIN_LITERAL = 12

#: ``msg = …``: a line binding the message a raise below it may use.
_ASSIGNMENT = re.compile(r"\s*\w+\s*=[^=]")

#: Candidates few enough that counting the 4-grams each shares with the message costs less
#: than walking the message's 4-grams through every site (:meth:`_Linker.fitting`).
_FEW = 8

_WARN_KINDS = frozenset(
    {"pytest.warns", "pytest.deprecated_call", "assertWarns", "assertWarnsRegex", CATCH_WARNINGS}
)


def _expected(expect: Expect) -> Expected | None:
    if expect.match is None:
        return None
    if expect.match_is_literal:
        return from_literal(expect.match, whole=expect.match_whole)
    return from_regex(expect.match)


Rank = tuple[int, int]  # (0 exact / 1 through a name-only edge, calls between)
#: (expected message, candidates) -> (share of literal text, characters on literal text,
#: site index) of those it fits.
Fitting = Callable[[Expected, dict[int, str]], list[tuple[float, int, int]]]


class _Linker:
    """Indexes built once: sites by class, by function and by message 4-gram, and which
    site functions each function reaches (the call graph walked backwards, inverted)."""

    def __init__(
        self, index: RepoIndex, graph: CallGraph, tree: ClassTree, sites: list[SiteView]
    ) -> None:
        self.index = index
        self.graph = graph
        self.tree = tree
        self._fallback: dict[int, str | None] = {}  # site -> the C twin run in its place
        self.twins = TwinRuns(index)
        self.unseen = UnseenCalls(index, graph)
        self._unseen_keys: dict[int, tuple[object, ...]] = {}  # candidates dicts are kept
        self.sites = sites
        self.by_class: dict[str, list[SiteView]] = defaultdict(list)
        self.by_function: dict[str, list[int]] = defaultdict(list)
        self._by_gram: dict[str, list[int]] | None = None  # built when first needed
        #: id() of an expectation -> (it, kept alive so the id stays its, its callees, those
        #: its calls cannot bind to: :mod:`.call_shapes`).
        self._callees: dict[int, tuple[Expect, dict[str, Precision], set[str]]] = {}
        self.by_path: dict[str, list[int]] = defaultdict(list)  # filled when first needed
        self.reaches: dict[str, dict[str, Reach]] = defaultdict(dict)
        self.attributes = ClassAttributes(index)
        self.args = ArgGuards(index)
        for site in sites:
            if site.canonical_class:
                self.by_class[site.canonical_class].append(site)
            if site.function is not None:
                if site.function not in self.by_function:
                    for caller, reach in graph.reach(site.function).items():
                        self.reaches[caller][site.function] = reach
                self.by_function[site.function].append(site.index)
        self._candidates: dict[tuple[tuple[tuple[str, str], ...], bool | None], dict[int, str]] = {}

    def class_key(self, expect: Expect) -> tuple[tuple[tuple[str, str], ...], bool | None]:
        """What decides an expectation's candidates: each class as the test writes it and
        as it resolves, and whether it expects a warning (None: a warning or an exception,
        a category a filter turned into one)."""
        classes = tuple((".".join(ref), self._class_of(expect, ref)) for ref in expect.classes)
        return classes, None if expect.raised_warning else expect.kind in _WARN_KINDS

    def _class_of(self, expect: Expect, ref: CallRef) -> str:
        """The class as it resolves: ``self.failureException`` through the test class's
        bodies (``unittest.TestCase`` binds it to ``AssertionError``), else by name."""
        func = self.index.function(expect.function) if expect.function else None
        if len(ref) == 2 and ref[0] in ("self", "cls") and func is not None and func.cls:
            found = self.attributes.focused(expect.runs_in).expected_class(func.cls, ref[1])
            if found is not None:
                return found
        return self.index.canonical_class(expect.module, ref)

    def candidates(self, expect: Expect) -> dict[int, str]:
        """Sites whose class the expectation catches: site index -> the class as the test
        writes it."""
        key = self.class_key(expect)
        classes, warn = key
        found = self._candidates.get(key)
        if found is None:
            found = {}
            for site_class, group in self.by_class.items():
                shown = next((s for s, c in classes if self.tree.catches(c, site_class)), None)
                if shown is None:
                    continue
                for site in group:
                    if warn is None or (site.kind == "warn") == warn:
                        found[site.index] = shown
            self._candidates[key] = found
        return found

    @property
    def by_gram(self) -> dict[str, list[int]]:
        """Sites by their templates' 4-grams: only :meth:`fitting` of many candidates
        reads it, which a scan whose test links are kept (:mod:`.tests_memo`) may not
        do at all, and indexing every site's grams was a third of linking on jax."""
        if self._by_gram is None:
            self._by_gram = defaultdict(list)
            for site in self.sites:
                for gram in template_grams(site.template):
                    self._by_gram[gram].append(site.index)
        return self._by_gram

    def callees(self, expect: Expect) -> dict[str, Precision]:
        """The repository functions the test's calls land in (once per expectation: the
        choice, its memo's key and the key's unseen part each ask)."""
        found = self._callees.get(id(expect))
        if found is None or found[0] is not expect:
            reached = expect_callees(self.index, expect, self.attributes)
            unbound = unbound_callees(self.index, expect, reached)  # TypeError at the call
            found = (expect, {c: p for c, p in reached.items() if c not in unbound}, unbound)
            self._callees[id(expect)] = found
        return found[1]

    def unbound(self, expect: Expect) -> list[tuple[str, Precision]]:
        """Callees its calls cannot bind to (:mod:`.call_shapes`), as memo keys read them."""
        self.callees(expect)  # read once per expectation
        return [(c, "unbound") for c in sorted(self._callees[id(expect)][2])]

    def ranks(self, callees: dict[str, str]) -> dict[str, Rank]:
        """Site functions the test's calls reach, each with its closest rank."""
        out: dict[str, Rank] = {}
        for callee, precision in callees.items():
            for function, reach in self.reaches.get(callee, {}).items():
                loose = int(precision != "exact" or reach.precision != "exact")
                here = (loose, reach.depth)
                if function not in out or here < out[function]:
                    out[function] = here
        return out

    def fitting(
        self, expected: Expected, candidates: dict[int, str]
    ) -> list[tuple[float, int, int]]:
        """(share of literal text, characters on literal text, site index) for candidates
        the expectation fits."""
        pool: Iterable[int]
        if any(len(run) >= GRAM for run in expected.runs):  # else no 4-gram to look up
            wanted = expected_grams(expected)
            shared: Counter[int] = Counter()
            if len(candidates) <= _FEW:  # the memo's untried few: their own grams
                for i in candidates:
                    n = len(wanted & template_grams(self.sites[i].template))
                    if n:
                        shared[i] = n
            else:
                for gram in wanted:
                    for i in self.by_gram.get(gram, ()):
                        if i in candidates:
                            shared[i] += 1
            pool = [
                i
                for i, n in shared.items()
                if may_fit(expected, n, len(self.sites[i].template.holes))
            ]
        else:
            pool = candidates
        out: list[tuple[float, int, int]] = []
        for i in pool:
            result = fit(expected, self.sites[i].template)
            if good_fit(result):
                assert result is not None
                out.append((result.share, result.literal, i))
        return out

    def choose(self, expect: Expect, fitting: Fitting | None = None) -> list[tuple[int, str]]:
        """The one site the expectation points at, or none when the evidence is ambiguous.
        ``fitting`` answers as :meth:`fitting` does (from a memo of the last scan's fits)."""
        candidates = self.candidates(expect)
        if not candidates:
            return []
        expected = _expected(expect)
        if expect.match is not None and expected is None:
            return []  # a regex that does not compile
        callees = self.callees(expect)
        ranks = self.ranks(callees)
        if expected is None:
            judged = [
                (rank, i, self.args.verdict(expect, callees, self.sites[i]))
                for function, rank in ranks.items()
                for i in self.by_function[function]
                if i in candidates
            ]
            if self.args.overfilled(expect, callees):
                return []
            # the literals the test passes to the function it calls rule raises there
            # out (one call below, a raise left by elimination may sit under an ``if``
            # they do not settle), and may meet every condition of one raise alone
            hits = [(r, i) for r, i, verdict in judged if verdict is not False or r != (0, 0)]
            if not one_raise(self.sites, [i for _, i in hits]):
                hits = [(rank, i) for rank, i, verdict in judged if verdict]
                if not one_raise(self.sites, [i for _, i in hits]):
                    return []
                others = [self.sites[i] for _, i, _ in judged if i != hits[0][1]]
                if self.args.open_above(expect, callees, self.sites[hits[0][1]], others):
                    return []  # where two raises may run, neither
            if self._not_alone(expect, callees, hits[0][1]):
                return []
            (loose, depth), first = min(hits)
            if loose or (depth > NO_MESSAGE_DEPTH and not deep_link(self, expect, callees, first)):
                return []
            return [(i, candidates[i]) for i in general(self.sites, [i for _, i in hits])]
        fitted = (fitting or self.fitting)(expected, candidates)
        scored = [(share, ranks.get(self.sites[i].function or ""), i) for share, _, i in fitted]
        near = [t for t in scored if t[1] is not None]
        called = self._library_packages(callees)  # a short text may point where it calls
        unbound = self.ranks(dict(self.unbound(expect)))  # below a call that cannot bind
        distinct = {
            i
            for share, literal, i in fitted
            if literal >= UNREACHED_MIN_LITERAL
            or (share == 1.0 and self.sites[i].module.split(".")[0] in called)
            if self.sites[i].function not in unbound
        }
        pool = near or [t for t in scored if t[2] in distinct]
        if not pool:
            return []
        best_share = max(t[0] for t in pool)
        pool = [t for t in pool if t[0] == best_share]
        if near:
            best_rank = min(t[1] for t in pool if t[1] is not None)
            pool = [t for t in pool if t[1] == best_rank]
            if self._closer_hole(expected, candidates, ranks, best_rank):
                return []
            if self._hidden_rival(fitted, ranks, pool[0][2], best_share):
                return []
        elif calls_outside(self.index, expect):
            return []  # C code the test calls wrote the message (:mod:`.outside_calls`)
        elif best_share < 1.0 and not self._from_library(expect, callees, pool[0][2]):
            return []  # an unreached fit through holes: maybe the interpreter's message
        chosen = one_raise(self.sites, [t[2] for t in pool])
        if chosen and not self._runs_here(expect, chosen[0]):
            return []
        fits = {i for _, _, i in fitted}
        if chosen and self._written_elsewhere(expected, candidates, fits, self.sites[chosen[0]]):
            return []
        return [(i, candidates[i]) for i in chosen]

    def _runs_here(self, expect: Expect, i: int) -> bool:
        """Whether the site's module may run for this test: not one the interpreter
        imports only where its C twin fails (``_pydecimal`` beside ``_decimal``) unless the
        test imports it itself or blocks that twin (``test_decimal``'s ``P =
        import_fresh_module('decimal', blocked=['_decimal'])``). A message fitted there,
        unreached or reached by name only, is the C twin's own copy (``test_fractions``'
        ``F.from_decimal(Decimal("nan"))``: C's "cannot convert NaN to integer ratio");
        ``test_abc`` imports ``_py_abc`` to run it. Another site is not chosen in its
        place: the message pointed here."""
        if i not in self._fallback:
            site = self.sites[i]
            shadow = shadow_of(self.index, site.module, site.function, site.path, site.rel)
            fallback = shadow is not None and shadow.kind == "module" and shadow.present
            self._fallback[i] = shadow.module if fallback and shadow is not None else None
        c_module = self._fallback[i]
        return (
            c_module is None
            or self._imports(expect, self.sites[i])
            or c_module in self.twins.blocked(expect)
        )

    def _written_elsewhere(
        self, expected: Expected, candidates: dict[int, str], fitted: set[int], site: SiteView
    ) -> bool:
        """Whether the text is written just above another candidate's raise in the chosen
        site's file whose template it does not fit: ``msg = "unknown flag" if
        c.isalpha() else "missing :"`` has the template of its first branch only, so
        "missing :" may be raised there too."""
        longest = max(expected.runs, key=len, default="")
        if len(longest) < GRAM:
            return False
        if not self.by_path:
            for view in self.sites:
                self.by_path[view.path].append(view.index)
        for i in self.by_path[site.path]:
            if i in fitted or i not in candidates:
                continue
            window = self.sites[i].window()
            if window is None:
                continue
            lines, at = window
            # the raise's own line, and names bound just above it (not other raises)
            above = [ln for ln in lines[max(at - 2, 0) : at] if _ASSIGNMENT.match(ln)]
            if any(longest in ln for ln in (*above, lines[at])):
                return True
        return False

    def _not_alone(self, expect: Expect, callees: dict[str, Precision], i: int) -> bool:
        """Whether, without a message, something the graph does not see may raise the
        site's class too: the test passes more positional arguments than the function
        it calls takes (the interpreter's ``TypeError``), or the site's function hands
        work on where the graph cannot follow, ``super().setstate()`` into a C base or
        ``setattr(...)`` into a ``__setattr__`` (``random``'s and ``_pydecimal``'s own
        ``TypeError``/``ValueError`` beside the one raise the graph shows)."""
        given = expect.given
        if given is not None:
            funcs = [self.index.function(c) for c, p in callees.items() if p == "exact"]
            if funcs and all(f is not None and not takes(f, given, expect.keywords) for f in funcs):
                return True
            if any(f is not None and calls_literal(f, expect.uncallable) for f in funcs):
                return True
        site = self.sites[i]
        if not (site.canonical_class or "").startswith("builtins."):
            return False  # the interpreter and C code raise builtin classes unseen
        return self.unseen.hands_on(site.function)

    def unseen_key(self, expect: Expect, candidates: dict[int, str]) -> tuple[object, ...]:
        """What the choice reads beyond the memo's key (:mod:`.tests_memo`): for each
        candidate's function whether it is called unseen or hands on; the functions the
        test calls, how exactly, with their parameters and whether each is a test's (and,
        for a test passing literals, what each passes on: :mod:`.arg_guards`); and
        the modules the test's module imports (``_imports``: an edit of an import line
        changes neither the expectation nor its ranks)."""
        key = self._unseen_keys.get(id(candidates))
        if key is None:
            functions = sorted({f for i in candidates if (f := self.sites[i].function)})
            key = tuple(
                (f, self.unseen.called_unseen(f), self.unseen.hands_on(f)) for f in functions
            )
            self._unseen_keys[id(candidates)] = key
        params = sorted(
            (c, p, g.signature, g.is_test, passes_key(g) if expect.constants else ())
            for c, p in [*self.callees(expect).items(), *self.unbound(expect)]
            if (g := self.index.function(c))
        )
        facts = self.index.modules.get(expect.module)
        imports = sorted(set(facts.imports.values())) if facts is not None else []
        return (key, (tuple(params), tuple(imports)))

    def _hidden_rival(
        self, fitted: list[tuple[float, int, int]], ranks: dict[str, Rank], i: int, share: float
    ) -> bool:
        """Whether a site the test's calls do not reach fits as well, in the chosen site's
        package, below a caller the graph cannot see: ``re.sub`` reaches ``parse``'s
        "invalid group reference %d", but the template's own copy in ``parse_template``
        is called from C (``Pattern.sub`` calls back ``re._compile_template``), so the
        reached one is no better evidence than it."""
        package = self.sites[i].module.split(".")[0]
        for other_share, _, j in fitted:
            site = self.sites[j]
            if other_share < share or site.module.split(".")[0] != package:
                continue
            if site.function is None or site.function in ranks:
                continue
            if (site.path, site.line) != (self.sites[i].path, self.sites[i].line) and (
                self.unseen.called_unseen(site.function)
            ):
                return True
        return False

    def _closer_hole(
        self, expected: Expected, candidates: dict[int, str], ranks: dict[str, Rank], rank: Rank
    ) -> bool:
        """Whether a short text could be a run-time value at a site the test reaches
        sooner: ``'stdout' in c.exception.args[0]`` after ``check_output(stdout=…)`` is
        check_output's own ``f"{kw} argument not allowed"``, not run()'s "stdout and stderr
        arguments may not be used with capture_output"."""
        if expected.size >= UNREACHED_MIN_LITERAL:
            return False
        for function, here in ranks.items():
            if here >= rank:
                continue
            for i in self.by_function.get(function, ()):
                if i in candidates and fit(expected, self.sites[i].template) is not None:
                    return True
        return False

    def _from_library(self, expect: Expect, callees: dict[str, Precision], i: int) -> bool:
        """Whether the test calls a library function (exactly) or its module imports the
        site's module or a name from it."""
        return bool(self._library_packages(callees)) or self._imports(expect, self.sites[i])

    def _library_packages(self, callees: dict[str, Precision]) -> set[str]:
        """The top-level packages of the library functions the test's calls land in
        exactly."""
        out: set[str] = set()
        for callee, precision in callees.items():
            func = self.index.function(callee) if precision == "exact" else None
            if func is not None and not func.is_test:
                out.add(func.module.split(".")[0])
        return out

    def _imports(self, expect: Expect, site: SiteView) -> bool:
        """Whether the test's module imports the site's module or a name from it."""
        return imports_module(self.index, expect, site.module)


def link_tests(
    index: RepoIndex,
    graph: CallGraph,
    tree: ClassTree,
    sites: list[SiteView],
    *,
    choose: Callable[[_Linker, Expect], list[tuple[int, str]]] | None = None,
) -> dict[int, list[TestEvidence]]:
    """For each site index, the tests that trigger it, all of them, by path and line
    (:mod:`.test_choice` picks those a record lists). ``choose`` replaces the linker's
    own choice (an incremental scan answers it from the last scan where nothing that
    decides it changed, :mod:`errdex.analyze.tests_memo`)."""
    linker = _Linker(index, graph, tree, sites)
    linked: dict[int, list[TestEvidence]] = defaultdict(list)
    expects: list[tuple[Expect, str | None]] = []
    for expect in (e for m in index.modules.values() for e in m.expects if e.kind != HELPER_CALL):
        if is_test_name(expect.name):
            expects.append((expect, None))
        else:  # a helper's own: as the tests calling it run it
            expects.extend(by_tests(index, graph, expect))
    expects.extend(through_helpers(index))
    expects = [
        (run, via) for expect, via in expects for run in per_class(index, linker.attributes, expect)
    ]
    twins = linker.twins  # after the choice: a memo's answer is checked too
    for expect, via in expects:
        chosen = linker.choose(expect) if choose is None else choose(linker, expect)
        for i, shown in chosen:
            if not twins.runs(expect, sites[i]) or not python_twin_runs(
                index, twins, expect, sites[i]
            ):
                continue  # a C twin runs instead of the site's line
            linked[i].append(linked_evidence(expect, shown, via))
    for tests in linked.values():
        tests.sort(key=lambda t: (t.get("path", ""), t.get("line", 0)))
    return dict(linked)
