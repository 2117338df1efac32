"""Verify one repository's records: cut snippets from its tests, run them, keep what passes.

1. Every expectation in the repository's tests becomes a snippet
   (:mod:`errdex.verify.from_tests`); each distinct snippet runs once.
2. A run that raised is placed by its innermost frame inside the repository; the records
   at that file and line are checked (:func:`errdex.verify.checks.check_reproducer`), and
   each keeps its best passing snippet: one from a test the analyst linked to it first,
   then the shortest.
3. For a record with a reproducer, its ``tryCatchPattern`` runs around it and its
   ``validationCode``/``typeGuard`` condition is evaluated where it raised.

Only the repositories the caller names reach this module; the snippets are cut from
those repositories' own tests.
"""

from __future__ import annotations

import ast
import gc
import re
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass, field, replace
from pathlib import Path
from typing import Any

from errdex.source.errors import SourceError
from errdex.source.stdlib import STDLIB_REPO

from ._aliases import aliases
from ._module_top import IMPORTING_CALLS
from .accelerators import Accelerators
from .checks import check_reproducer, raised_at
from .executor import Executor, Job
from .expectation import accepts, refused
from .forkserver import ServerPool
from .from_guards import def_line, guard_candidates, try_names
from .from_methods import PLAIN, method_candidates, plain_sources
from .from_states import state_candidates
from .from_tests import (
    Candidate,
    CaseIndex,
    candidates,
    module_imports,
    module_of,
    parse_test,
)
from .handlers import check_program, condition_of, splice_try
from .locate import Interpreter, Located, distribution_of, locate, test_files
from .misses import missed
from .outcome import FieldRun, RecordOutcome, source_code
from .sandbox import RunResult
from .sites import RepoSites, site_of

__all__ = ["RepoRun", "verify_repo"]

Progress = Callable[[str, int | None, int], None]  # (phase, total or None, advance)
_NO_REPRODUCER = "no verified reproducer to run it against"


@dataclass
class RepoRun:
    repo: str
    outcomes: list[RecordOutcome] = field(default_factory=list)
    test_files: int = 0
    snippets: int = 0
    located: Located | None = None
    counts: Counter[str] = field(default_factory=Counter)
    tests_from: str | None = None  # 'the sdist of attrs 25.4.0' when verify fetched them
    tests_not_read: str | None = None  # why the sdist's tests could not be had


def _context(envelopes: list[dict[str, Any]]) -> list[Any]:
    source = (envelopes[0].get("evidence") or {}).get("source") or {} if envelopes else {}
    return [
        envelopes[0]["record"]["repo"] if envelopes else "",
        source.get("version"),
        source.get("ref"),
    ]


def _preference(envelope: dict[str, Any], cand: Candidate) -> tuple[int, int, int, str]:
    """A test the analyst linked first, then any test's own statements, then the shortest;
    a call errdex built from a guard only where no test reached the site, and one built on
    errdex's plain call only where no test's call did."""
    linked = {t.get("name") for t in (envelope.get("evidence") or {}).get("tests") or []}
    built = cand.kind == "guard"
    plain = cand.test.startswith(PLAIN)  # no test's values at all
    return (0 if cand.test in linked else 1, int(built) + int(plain), len(cand.program), cand.test)


def _assign(
    envelopes: list[dict[str, Any]],
    sites: RepoSites,
    runs: list[tuple[Candidate, RunResult]],
) -> list[RecordOutcome]:
    outcomes = {env["record"]["id"]: RecordOutcome(env) for env in envelopes}
    built: dict[str, list[tuple[Candidate, RunResult]]] = {}
    for cand, result in runs:
        if cand.kind == "guard" and cand.for_record:
            built.setdefault(cand.for_record, []).append((cand, result))
        if result.status != "raised":
            continue
        where = raised_at(result, sites)
        if where is None:
            continue
        for env in sites.at(*where):
            out = outcomes.get(env["record"]["id"])
            if out is None:  # a record outside ``only``
                continue
            verdict = check_reproducer(env, result, sites)
            if not verdict.passed:
                # errdex's plain call passed None where the function wants a value: another
                # error at the line says nothing against the record (its runs say it, missed)
                if not cand.test.startswith(PLAIN):
                    out.failure = out.failure or f"ran: {cand.test} {verdict.reason}"
                continue
            if not accepts(cand.expects, result):  # the test would fail on this error
                out.failure = out.failure or f"ran: {cand.test} {refused(cand.expects, result)}"
                continue
            if out.reproducer is None or _preference(env, cand) < _preference(
                env, out.reproducer[0]
            ):
                out.reproducer = (cand, result)
                out.site = site_of(env).label()
    for rid, out in outcomes.items():
        if out.reproducer is None and out.failure is None:
            out.missed = missed(built.get(rid, ()), sites)
    return list(outcomes.values())


def _field_jobs(out: RecordOutcome) -> dict[str, tuple[Job, str | None]]:
    """field -> (the job to run, the code to show if it passes)."""
    if out.reproducer is None:
        return {}
    snippet = out.reproducer[0].program
    warns = out.reproducer[0].warns  # a warning reproduces only when warnings are errors
    lines = [line for file, line in out.reproducer[1].frames if file == "<reproducer>"]
    jobs: dict[str, tuple[Job, str | None]] = {}
    pattern = source_code(out.envelope, "tryCatchPattern")
    if pattern:
        spliced = splice_try(pattern, snippet, lines[0] if lines else None)
        if spliced is not None:
            jobs["tryCatchPattern"] = (Job(spliced.program, warns), spliced.shown)
    for name in ("validationCode", "typeGuard"):
        code = source_code(out.envelope, name)
        condition = condition_of(code) if code else None
        if condition is not None:
            jobs[name] = (Job(check_program(snippet, condition), warns), None)
    return jobs


def _judge_field(name: str, result: RunResult, raised: str) -> FieldRun:
    marks = set(result.marks)
    if name == "tryCatchPattern":
        if result.status == "ok" and "handled" in marks:
            return FieldRun("passed", f"caught {raised}")
        if result.status == "raised":
            short = (result.error_class or "?").rsplit(".", 1)[-1]
            return FieldRun("failed", f"{short} escaped the handler: {result.message or ''}"[:300])
        return FieldRun("failed", f"the handler did not run ({result.status})")
    if result.status != "ok" or not marks:
        # the condition names what the raising frame does not hold (a guard of an
        # enclosing function): that says nothing against the check, so it stays, not run
        detail = result.message or result.detail or result.status
        return FieldRun("not-run", f"could not evaluate it where it raised: {detail}"[:300])
    if "true" in marks:
        return FieldRun(
            "partial",
            f"true on the failing input ({raised}); no good input known, so not verified",
        )
    if "false" in marks:
        return FieldRun("failed", f"false on the failing input ({raised})")
    return FieldRun("failed", "the reproducer did not raise when run with the check")


def _not_run(out: RecordOutcome) -> None:
    record = out.envelope["record"]
    for name in ("tryCatchPattern", "validationCode", "typeGuard"):
        if name not in out.fields and source_code(out.envelope, name):
            reason = (
                _NO_REPRODUCER if out.reproducer is None else "no place for the reproducer in it"
            )
            out.fields[name] = FieldRun("not-run", reason)
    if record.get("exampleFix"):
        out.fields["exampleFix"] = FieldRun("not-run", "a before/after fragment, not a program")


def verify_repo(
    repo: str,
    envelopes: list[dict[str, Any]],
    interp: Interpreter,
    executor: Executor,
    *,
    tests: Iterable[Path] = (),
    progress: Progress = lambda phase, total, n: None,
    only: Collection[str] | None = None,
    sdist: Callable[[str, str], list[Path]] | None = None,
) -> RepoRun:
    """Run everything for one repository and decide each record's outcome.

    With ``only`` (record ids), outcomes are decided for those records alone, from the
    snippets of the test modules that import their top-level packages: a quick look at a
    sample. Every record still places the frames, so a raise elsewhere is not theirs.

    With ``sdist`` ((name, version) -> its test folders), an installed distribution that
    ships no tests, and was given none, has the tests of its source distribution read."""
    run = RepoRun(repo)
    sites = RepoSites.of(envelopes)
    run.located = locate(envelopes, interp)
    tests = list(tests)
    if sdist is not None and not tests and repo != STDLIB_REPO:
        tests = _sdist_tests(run, sdist)
    files = test_files(repo, run.located, tests)
    if only is not None:
        envelopes = [env for env in envelopes if env["record"]["id"] in only]
        tops = _tops(envelopes)
        files = (f for f in files if _may_import(f[0], tops))
        cut = _candidates(run, files, lambda imports: any(_top(m) in tops for m in imports))
        sources = [c for c in cut if any(_top(m) in tops for m in c.imports)]
    else:
        sources = _candidates(run, files)
    cands = [c for c in sources if c.kind != "body"]
    run.snippets = len(cands)
    base = executor.sandbox
    if base.fork:  # the fork servers import the repository's packages once
        executor.sandbox = replace(base, preload=_preload(repo, run.located), _pool=ServerPool())
    try:
        _run_all(run, envelopes, sites, (cands, sources), executor, progress)
    finally:
        executor.sandbox.close()
        executor.sandbox = base
    return run


def _candidates(
    run: RepoRun,
    files: Iterable[tuple[Path, str]],
    wanted: Callable[[set[str]], bool] = lambda imports: True,
) -> list[Candidate]:
    """Every snippet of the test modules, and every test's body (kind ``body``, for the
    guards' candidates); all their classes are indexed first, so a mixin's tests run under
    the concrete test cases of other modules. Snippets are cut only from the modules whose
    imports are ``wanted`` (every snippet of a module names the module's imports, so
    ``--only`` need not cut those of a module it drops whole: most of a sample's time).

    The trees of every test module are held at once (the stdlib's are ~800); the cyclic
    collector is paused meanwhile, since each of its passes would walk all of them (the
    trees hold no cycles, reference counting frees them)."""
    trees: list[tuple[ast.Module, str]] = []
    index = CaseIndex()
    paused = gc.isenabled()
    gc.disable()
    try:
        for file, rel in files:
            try:
                text = file.read_text(encoding="utf-8")
            except (OSError, UnicodeDecodeError):
                run.counts["unreadable test files"] += 1
                continue
            run.test_files += 1
            tree = parse_test(text)
            if tree is not None:
                trees.append((tree, rel))
                index.add(module_of(rel), tree, rel)
        cands = [
            c
            for tree, rel in trees
            if wanted(module_imports(tree, rel))
            for c in _cut(run, tree, rel, index)
        ]
    finally:
        if paused:
            gc.enable()
    return cands


def _cut(run: RepoRun, tree: ast.Module, rel: str, index: CaseIndex) -> list[Candidate]:
    """The module's snippets; none when cutting them failed (a helper read wrongly once
    raised ValueError out of here and ended the whole verify): that module costs itself."""
    try:
        return candidates(tree, rel, index, bodies=True)
    except (ValueError, TypeError, AttributeError, KeyError, IndexError, RecursionError):
        run.counts["test modules whose snippets could not be cut"] += 1
        return []


def _sdist_tests(run: RepoRun, sdist: Callable[[str, str], list[Path]]) -> list[Path]:
    """The sdist's test folders, when the installed files hold no test module."""
    located = run.located or Located()
    if any(file.name.startswith("test") for file, _ in test_files(run.repo, located)):
        return []
    dist = distribution_of(located)
    if dist is None:
        return []
    try:
        found = sdist(*dist)
    except SourceError as exc:
        run.tests_not_read = str(exc)[:300]
        return []
    if found:
        run.tests_from = f"the sdist of {dist[0]} {dist[1]}"
    return found


def _top(module: str) -> str:
    return module.split(".", 1)[0]


def _tops(envelopes: list[dict[str, Any]]) -> set[str]:
    return {_top(module_of(str(env["record"]["filePath"]))) for env in envelopes}


def _may_import(file: Path, tops: set[str]) -> bool:
    """A test module whose text imports one of ``tops``, or a module of a test folder that
    is not a test module (a conftest, a mixin other modules' tests subclass): read."""
    if not file.name.startswith("test_"):
        return True
    if not tops:
        return False
    try:
        text = file.read_text(encoding="utf-8")
    except (OSError, UnicodeDecodeError):
        return False
    names = "|".join(re.escape(t) for t in sorted(tops))
    if re.search(rf"^\s*(?:from|import)\s+(?:{names})\b", text, re.MULTILINE) is not None:
        return True
    calls = "|".join(IMPORTING_CALLS)  # sunau = import_deprecated("sunau")
    return re.search(rf"(?:{calls})\(\s*['\"](?:{names})\b", text) is not None


def _preload(repo: str, located: Located) -> tuple[str, ...]:
    names = sorted(top.name for top in located.tops if top.name.isidentifier())
    if repo == STDLIB_REPO:
        names.append("test.support")
    # a snippet run under its test case imports the test module, and with it pytest
    names.append("pytest")
    return tuple(names)


def _run_all(
    run: RepoRun,
    envelopes: list[dict[str, Any]],
    sites: RepoSites,
    snippets: tuple[list[Candidate], list[Candidate]],
    executor: Executor,
    progress: Progress,
) -> None:
    """``snippets``: the expectations' snippets to run, and those with every test's body
    (the calls a guard's candidate is made from)."""
    repo = run.repo
    cands, sources = snippets
    jobs = [Job(c.program, c.warns) for c in cands]
    context = _context(envelopes)
    progress(f"{repo}: reproducers", len(set(jobs)), 0)
    results = executor.run_all(jobs, context, lambda n: progress("", None, n))
    runs = [(c, results[Job(c.program, c.warns)]) for c in cands]
    run.outcomes = _assign(envelopes, sites, runs)
    accelerators = Accelerators(repo, envelopes)
    used = {id(o.reproducer[0]) for o in run.outcomes if o.reproducer is not None}
    blocked = [
        accelerators.blocked_run(c, name)
        for c in cands
        if id(c) not in used
        for name in accelerators.for_candidate(c)
    ]
    if blocked:  # what landed in C, once more with the accelerator blocked
        progress(f"{repo}: accelerators blocked", len(blocked), 0)
        more = executor.run_all(
            [Job(c.program, c.warns) for c in blocked], context, lambda n: progress("", None, n)
        )
        runs += [(c, more[Job(c.program, c.warns)]) for c in blocked]
        run.outcomes = _assign(envelopes, sites, runs)
    missing = [o.envelope for o in run.outcomes if o.reproducer is None]
    located = run.located or Located()
    readers = (
        lambda path, line: def_line(located.file_of(path), line),
        lambda path, line: try_names(located.file_of(path), line),
        lambda path, line: aliases(located.file_of(path), line),
    )
    guarded = list(guard_candidates(missing, sources, *readers))
    # then errdex's plain calls, which no test makes (their own caps: the tests' come first)
    guarded += guard_candidates(missing, plain_sources(missing, located.file_of), *readers)
    guarded += state_candidates(missing, sources, located.file_of)  # guards over ``self``
    guarded += method_candidates(missing, located.file_of)  # raises under no condition
    if guarded:  # a test's call of the function, with its guard made true
        progress(f"{repo}: guards", len(guarded), 0)
        more = executor.run_all(
            [Job(c.program, c.warns) for c in guarded], context, lambda n: progress("", None, n)
        )
        runs += [(c, more[Job(c.program, c.warns)]) for c in guarded]
        run.outcomes = _assign(envelopes, sites, runs)
    for out in run.outcomes:
        if out.reproducer is not None:
            out.reached_with = accelerators.reached_with(out.envelope, out.reproducer[0])
    field_jobs = {id(out): _field_jobs(out) for out in run.outcomes}
    flat = [job for jobs_of in field_jobs.values() for job, _ in jobs_of.values()]
    progress(f"{repo}: code fields", len(set(flat)), 0)
    field_results = executor.run_all(flat, context, lambda n: progress("", None, n))
    for out in run.outcomes:
        raised = _raised_text(out)
        for name, (job, shown) in field_jobs[id(out)].items():
            verdict = _judge_field(name, field_results[job], raised)
            if verdict.status == "passed" and shown is not None:
                verdict.shown = shown
            out.fields[name] = verdict
        _not_run(out)


def _raised_text(out: RecordOutcome) -> str:
    if out.reproducer is None:
        return ""
    result = out.reproducer[1]
    return f"{(result.error_class or '?').rsplit('.', 1)[-1]} raised at {out.site}"
