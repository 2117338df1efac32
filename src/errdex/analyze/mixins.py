"""A mixin's test as each concrete test class runs it.

CPython's suites write a test once in a mixin and bind what it calls in each concrete
subclass's body (issue 10, deliver 2; blind review 2026-12-04): ``test_tarfile``'s
``MiscReadTestBase.test_illegal_mode_arg`` calls ``self.taropen``, which
``Bz2MiscReadTest`` binds to ``tarfile.TarFile.bz2open`` and ``GzipMiscReadTest`` to
``gzopen``; ``test_io``'s ``CommonBufferedTests.test_invalid_args`` seeks on
``self.tp(rawio)``, a ``BufferedReader``, ``BufferedWriter`` or ``BufferedRandom`` by
subclass. Read with every binding at once, the test reaches each of those raises and
points at none. Each concrete class runs the test with its own binding alone, so the
expectation is linked once per class whose bindings land somewhere else, and named by
that class (``test_tarfile.py::Bz2MiscReadTest::test_illegal_mode_arg``): the test that
really runs.
"""

from __future__ import annotations

from dataclasses import replace

from .facts import Expect, FuncFacts, within_module
from .repo import RepoIndex
from .tests_calls import ClassAttributes, expect_callees

__all__ = ["per_class"]


def per_class(index: RepoIndex, attributes: ClassAttributes, expect: Expect) -> list[Expect]:
    """``expect`` once per concrete class whose bindings give its calls other targets
    than another's; ``[expect]`` when the classes do not differ."""
    func = index.function(expect.function) if expect.function else None
    if func is None or func.cls is None or expect.runs_in is not None:
        return [expect]
    family = attributes.subclasses(func.cls)
    if len(family) < 2:
        return [expect]
    names = {n for n in _self_names(func, expect) if any(attributes.binds(k, n) for k in family)}
    if not names:
        return [expect]
    # a class that leaves one of them unbound is a mixin: it does not run the test
    # nor does one whose own test of that name does not call this one
    runners = [
        k for k in family if all(attributes.binds(k, n) for n in names) and _runs(index, k, func)
    ]
    # named by the class it is written in where that one runs it with the same targets,
    # else by a class no other derives from: the concrete test case, not a base between
    case = func.cls if _test_case(index, attributes, func.cls) else None
    runners.sort(key=lambda k: (k != case, len(attributes.subclasses(k)) > 1))
    by_targets: dict[frozenset[str], str] = {}  # what the calls land in exactly
    for cls in runners:
        callees = expect_callees(index, replace(expect, runs_in=cls), attributes)
        by_targets.setdefault(frozenset(c for c, p in callees.items() if p == "exact"), cls)
    # a class whose bindings reach less than another's binds what the repository does
    # not hold: ``CWarnTests``' ``module = c_warnings`` runs C's ``warn``, not warnings.py's
    # (its call left to name-only edges would reach warnings.py's through ``Logger.warn``)
    kept = [
        cls
        for targets, cls in by_targets.items()
        if not any(targets < other for other in by_targets)
    ]
    if not kept or kept == [func.cls]:
        return [expect]
    return [_run_in(index, expect, cls) for cls in kept]


def _test_case(index: RepoIndex, attributes: ClassAttributes, cls: str) -> bool:
    """Whether ``cls`` is a ``unittest`` test case itself (a base named ``TestCase`` along
    its ancestry), not a mixin its cases derive from."""
    return any(
        base.rpartition(".")[2] == "TestCase"
        for owner in attributes.ancestors(cls)
        for base in (owner, *index.bases(owner))
    )


def _runs(index: RepoIndex, cls: str, func: FuncFacts) -> bool:
    """Whether a test of ``cls`` runs ``func``: it is what ``cls`` has by that name, or
    ``cls``'s own calls it (``super().test_getrandbits()``,
    ``BufferedReaderTest.test_constructor(self)``)."""
    own = index.method(cls, func.name)
    if own == func.qualname:
        return True
    facts = index.function(own) if own is not None else None
    return facts is not None and any(
        len(ref) == 2 and ref[1] == func.name and ref[0] not in ("self", "cls")
        for ref in facts.calls
    )


def _self_names(func: FuncFacts, expect: Expect) -> set[str]:
    """The attributes of ``self`` the expectation's calls read, directly (``self.taropen``)
    or through a local name bound from one (``bufio = self.tp(rawio)``)."""
    refs = [*expect.calls, *func.local_calls.values(), *(r for _, r in func.local_binds.values())]
    return {ref[1] for ref in refs if len(ref) > 1 and ref[0] in ("self", "cls")}


def _run_in(index: RepoIndex, expect: Expect, cls: str) -> Expect:
    """The expectation as ``cls`` runs it, named by that class."""
    path, _, rest = expect.name.partition("::")
    test = rest.rpartition("::")[2]
    owner = within_module(cls, index.classes[cls].module)
    return replace(expect, runs_in=cls, name="::".join([path, *owner.split("."), test]))
