"""The ``evidence`` object beside each record: its keys, in one place.

Everything errdex knows beyond schema 2 lives here, and every item that comes from
the repository carries the file and line it came from, so a reader can check it.
Analysts add keys; none removes another's. All keys are optional except ``site``,
``source``, ``provenance`` and ``analysis``.
"""

from __future__ import annotations

from collections.abc import Mapping
from typing import TYPE_CHECKING, Any, Literal, NotRequired, TypedDict

if TYPE_CHECKING:
    from errdex.source.checkout import Checkout

__all__ = [
    "CaughtBy",
    "ClassInfo",
    "CodeCheck",
    "ConversionEvidence",
    "EntryPoint",
    "Evidence",
    "FunctionInfo",
    "GuardItem",
    "Observed",
    "PrivateConditions",
    "Provenance",
    "RaisesDoc",
    "ReproducerEvidence",
    "SiteEvidence",
    "SourceEvidence",
    "TestEvidence",
    "VerificationEvidence",
    "site_place",
    "source_evidence",
]


class GuardItem(TypedDict):
    kind: str  # if, elif, else, while, while-else, for, except, case, assert
    text: str  # the condition under which the raise is reached, in source form
    line: int


class SiteEvidence(TypedDict, total=False):
    """What the extractor saw (``errdex.extract.site.ErrorSite.evidence``)."""

    kind: Literal["raise", "warn", "assert", "yield"]
    style: str  # literal, fstring, formatted, concat, variable, helper_call, ...
    qualifiedClass: str | None  # resolved through imports: 'networkx.exception.NetworkXError'
    qualname: str  # module.Class.function (``<locals>`` for nested functions)
    function: str | None
    endLine: int
    guards: list[GuardItem]
    cause: str | None  # the ``from`` expression
    template: list[dict[str, str | bool]]  # MessageTemplate.to_json()
    notes: list[str]
    idDisambiguator: str
    #: At a call of a helper raising what the call passes: the helper's raise line (same
    #: file), the innermost frame of a traceback through this site
    raisedAt: int
    conversion: ConversionEvidence  # a handler of the function raises another instead
    #: The extension module a compiled site's file builds into, where it is not the
    #: file's own (an included ``.pyx``/``.pxi``, a header read with its includer)
    module: str


class SourceEvidence(TypedDict):
    """Where the code was read from, and how the permalink's pin was found."""

    origin: str  # dir, git, package, stdlib
    refKind: Literal["commit", "tag", "none"]
    ref: str | None  # what the permalink pins
    version: str | None
    # given (--sha/--ref), direct_url, git, build (sys._git), table (errdex/data/tags.json),
    # ls-remote, guessed (v<version>, unchecked), none (no pin)
    refSource: NotRequired[str]
    tag: NotRequired[str | None]  # the release tag, when known or guessed
    commit: NotRequired[str | None]  # the full commit, None when unknown
    commitNote: NotRequired[str | None]  # why the commit is unknown


def source_evidence(checkout: Checkout) -> SourceEvidence:
    """``evidence.source`` for records read from ``checkout``."""
    commit = checkout.sha if checkout.ref_kind == "commit" else None
    ref_source = checkout.ref_source
    if ref_source is None:  # a directory or clone: git said, or the user did
        ref_source = "git" if checkout.ref_kind != "none" else "none"
    note = checkout.commit_note
    if commit is None and note is None:
        note = (
            "pinned to a tag: its commit is not known"
            if checkout.ref_kind == "tag"
            else "no commit: the files are not in a git work tree"
        )
    return {
        "origin": checkout.origin,
        "refKind": checkout.ref_kind,
        "ref": checkout.ref,
        "version": checkout.version,
        "refSource": ref_source,
        "tag": checkout.tag
        if checkout.tag
        else (checkout.ref if checkout.ref_kind == "tag" else None),
        "commit": commit,
        "commitNote": None if commit else note,
    }


class PrivateConditions(TypedDict):
    """Conditions on the way that read private names, not restated in a field's prose."""

    conditions: list[str]  # as the source writes them
    #: What the prose says instead: "classDocstring" (the class's "raised when"),
    #: "guard" (the condition as code: short, its private names attributes), or
    #: "omitted" (nothing a caller can read states it); "message" in older records.
    saidAs: str
    reason: str


class Provenance(TypedDict, total=False):
    """Who wrote one schema-2 field, and from which evidence keys."""

    analyst: str  # extractor, static, llm
    basis: list[str]
    #: For a list field (``solutions``): the evidence keys of each item, in order.
    items: list[list[str]]
    #: ``tryCatchPattern``: the handler around a call whose names it does not bind;
    #: ``validationCode``: the check whose body is a ``...`` placeholder. Either is
    #: not shown; ``errdex verify`` puts a verified reproducer in it.
    scaffold: str
    #: ``documentation``, ``triggerScenarios``: the conditions over private names.
    privateConditions: PrivateConditions
    #: ``documentation``, ``triggerScenarios``: lines of the raising function above the
    #: record's window that the conditions name (an earlier branch that returns), as
    #: ``"N: text"``: the evidence of what the window does not show.
    linesRead: list[str]
    model: str  # llm only: 'openai:gpt-4.1-mini'
    promptVersion: str  # llm only


class FunctionInfo(TypedDict, total=False):
    qualname: str
    signature: str  # 'def add_edge(self, u_of_edge, v_of_edge, **attr)'
    docstring: str | None
    path: str
    line: int


class RaisesDoc(TypedDict):
    """A docstring ``Raises`` entry naming this class (Google, NumPy or Sphinx style)."""

    style: Literal["google", "numpy", "sphinx"]
    errorClass: str
    text: str
    path: str
    line: int


class ClassInfo(TypedDict, total=False):
    """The exception class, when the repository defines it."""

    qualified: str
    bases: list[str]
    ancestors: list[str]  # every class above it, nearest first (the matcher's hierarchy)
    docstring: str | None
    path: str
    line: int


class EntryPoint(TypedDict, total=False):
    """A public function or method that reaches the raising function."""

    qualname: str
    path: str
    line: int
    depth: int  # calls between it and the raising function (0: the function itself)
    via: list[str]  # the call chain, qualnames
    precision: str  # how the call graph resolved it: 'exact' (name-only calls are not followed)
    #: A handler on the way raises another class instead: as written, where, and at what line.
    surfacesAs: str
    convertedIn: str
    convertedLine: int
    #: The raising function's parameter -> this entry point's parameter passed on unchanged.
    passes: dict[str, str]
    #: What this entry point's docstring says of those parameters.
    paramDocs: dict[str, str]
    #: A handler on the way re-raises it only when this condition holds, in that function.
    reraisedWhen: str
    reraisedIn: str
    #: Calls on the way made only under a flag of the caller's own state: [caller, the
    #: test] each (``if self._debug: self._check_callback(…)``; ``analyze.call_gates``).
    onlyWhen: list[list[str]]
    #: The function is defined once per platform, and the definition that reaches the
    #: raise (the one at ``line``) exists only there: "on FreeBSD" (``analyze.platforms``);
    #: or its calls reach the raise only there: ``os.path`` is ``ntpath`` "on Windows"
    #: (``analyze.platform_binds``).
    definedOn: str
    #: The nested function it returns or hands to a call, which runs the way down: the
    #: raise comes when that is called, not this (``validator`` returns ``lint_app``;
    #: ``analyze.closures``).
    handsOut: str
    #: The definition a public class inherits and runs under ``qualname``: the private
    #: base's method (``Connection.recv`` runs ``_ConnectionBase.recv``; ``analyze.heirs``).
    #: ``path`` and ``line`` are that definition's.
    inheritedFrom: str
    #: The outermost function of the package's exported API above it on the same exact
    #: chains, where a handler for the class goes (``requests.Session.get`` above
    #: ``PreparedRequest.prepare``; ``analyze.outer_catch``).
    catchAround: str


class CaughtBy(TypedDict):
    """A caller whose ``except`` swallows the error on its way up (``analyze.chains``)."""

    qualname: str
    line: int  # the handler's


#: How a test states its expectation (``try-except``: a try whose body or else fails).
TestKind = Literal[
    "pytest.raises",
    "assertRaises",
    "assertRaisesRegex",
    "pytest.warns",
    "assertWarns",
    "assertWarnsRegex",
    "pytest.deprecated_call",
    "catch_warnings",
    "try-except",
]


class TestEvidence(TypedDict, total=False):
    """A test in the repository that expects this error."""

    path: str
    line: int
    name: str  # test function (nodeid-like: 'tests/test_x.py::TestA::test_b')
    kind: TestKind
    errorClass: str
    match: str | None  # the regex or literal the test expects
    matchForm: Literal["regex", "contains", "equals"]  # how the test checks ``match``
    snippet: str
    confirmed: bool  # True: a harvest run saw this test raise at this site
    via: str  # the test suite's helper the expectation is written in, called by ``name``


class Observed(TypedDict, total=False):
    """A runtime message seen for this site (``errdex harvest``)."""

    message: str
    holes: dict[str, str]
    test: str | None  # the pytest node id that produced it
    count: int


class RoleEvidence(TypedDict):
    """A site that is no failure to avoid (``errdex.analyze.roles``)."""

    kind: Literal["abstract", "signal"]
    subject: str  # the abstract method's class, or the signalling builtin class
    implementations: list[str]  # for "abstract": subclasses' methods of the same name


class ReproducerEvidence(TypedDict, total=False):
    """A snippet that ran and raised this record's error at its site (``errdex verify``)."""

    snippet: str
    tracebackTail: str  # the last lines of the traceback it produced
    site: str  # 'networkx/algorithms/shortest_paths/unweighted.py:267', where it raised
    raised: str  # 'NodeNotFound: Source 1 is not in G'
    python: str  # the interpreter's version: '3.11.7'
    verifiedAt: str  # ISO-8601 UTC
    test: str  # the test it was cut from: 'networkx/…/test_x.py::TestA::test_b'
    testLine: int
    #: how errdex built the call, when no test holds it as run: 'tests/x.py::t (x=-1 makes
    #: x < 0 true)', "errdex's plain call of `f` (the raise has no condition)"
    built: str
    reachedWith: str  # 'the C accelerator `_json` blocked': what the run needed to get here


#: passed: ran and did what it claims; partial: ran, and the check held on the failing
#: input, but no good input was known to show it false there; failed: ran and did not do
#: what it claims (the field is dropped from the record and kept here as ``code``);
#: not-run: errdex had nothing to run it against (``reason`` says what).
CheckStatus = Literal["passed", "partial", "failed", "not-run"]


class CodeCheck(TypedDict, total=False):
    """What running one code field showed."""

    status: CheckStatus
    reason: str  # what it showed, or why it did not run or failed
    ranAt: str  # ISO-8601 UTC, when it ran
    code: str  # the field's code as the analyst wrote it (a failed field lives only here)
    shown: str  # what the record shows after verify (a passing tryCatchPattern: what ran)


class VerificationEvidence(TypedDict, total=False):
    """The last ``errdex verify`` of this record."""

    ranAt: str
    python: str
    isolation: str  # how the network was cut: namespace, bootstrap
    fields: dict[str, CodeCheck]  # reproducer, tryCatchPattern, validationCode, ...


class ConversionEvidence(TypedDict, total=False):
    """A handler turns the error into another before a caller sees it: in the raising
    function (``where``: here) or in its private function's only caller (caller). Its
    ``class`` (a keyword here, so not declared) is the class raised instead."""

    line: int  # the raise the caller sees instead
    handlerLine: int  # the ``except`` that catches this one
    function: str  # the function whose handler converts
    qualifiedClass: str | None
    message: str | None  # that raise's message template; None: it has none
    link: Literal["cause", "context"]  # ``from`` the caught name, or no ``from``
    where: Literal["here", "caller"]


class Evidence(TypedDict, total=False):
    site: SiteEvidence
    source: SourceEvidence
    provenance: dict[str, Provenance]  # schema-2 field name -> who wrote it
    analysis: str  # the last analyst that ran: extractor, static, llm
    function: FunctionInfo
    raisesDoc: list[RaisesDoc]
    classInfo: ClassInfo
    entryPoints: list[EntryPoint]
    #: Public functions that return (or pass to a callable their caller gave) a nested
    #: function reaching the raise: calling what they hand out raises (``analyze.closures``).
    handedOut: list[EntryPoint]
    #: Where no public call reaches it: a public function (``qualname``, ``path``,
    #: ``line``) that returns a new instance of a class (``returns``) users reach only so,
    #: whose method (``method``) reaches the raise (``analyze.made_ways``).
    madeBy: dict[str, object]
    caughtBy: list[CaughtBy]  # callers that swallow it, when no public caller sees it
    conversion: ConversionEvidence  # where a handler raises another error instead
    #: By the class an enclosing ``except`` catches (as written), the first sentence of
    #: its docstring, for the repository's own classes: triggerScenarios quotes it.
    caughtDocs: dict[str, str]
    tests: list[TestEvidence]
    testsRead: bool  # False: no test of the repository was read, so ``tests`` says nothing
    #: How many test modules were read: an empty ``tests`` is no claim that none exists
    #: (a test reaching the site through an object of a type errdex does not infer is not
    #: linked); the prose no longer says it (blind review 2026-12-06).
    testFilesRead: int
    testsMore: int  # tests that also expect it beyond the best evidenced ones listed
    role: RoleEvidence
    observed: list[Observed]
    related: list[str]  # record ids, closest first, at most 5
    llm: dict[str, Any]  # model run details (issue 6): flagged identifiers, cache key, ...
    reproducer: ReproducerEvidence  # errdex verify: a snippet that ran and raised here
    verification: VerificationEvidence  # errdex verify: what running each code field showed


def site_place(evidence: Mapping[str, Any]) -> str:
    """How a page or the terminal introduces the record's line: where it was thrown, or,
    for an exception a generator yields (``evidence.site.kind``), where it was made: its
    consumer raises it elsewhere."""
    site = evidence.get("site") or {}
    return "Made and yielded at" if site.get("kind") == "yield" else "Thrown at"
