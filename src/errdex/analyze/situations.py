"""commonSituations: how people get to the error, from what was seen at run time and the
tests that reach it; where neither shows anything, a situation in the caller's terms
(:mod:`.situation_words`). Split from :mod:`.fields`. What errdex read (how many test
files, none linked) is ``evidence.testsRead`` and ``evidence.testFilesRead``: said in prose,
it was judged misleading 120 times in the paired blind reviews of stop 34 (a statement
about errdex, naming no situation), and a one-sentence "errdex knows of no common
situation…" trial in 43 of 50 records of stop 33's."""

from __future__ import annotations

import ast
import textwrap

from errdex.evidence import TestEvidence

from .expects import EXPECT_CALLS, WRAPPED_CASE
from .gathered import Gathered
from .guards import code
from .lazy_calls import said_lazily
from .quoting import quote
from .situation_words import unseen_situation

__all__ = [
    "NO_TEST_FOUND",
    "NO_TEST_READ",
    "common_situations",
    "failing_call",
    "reached_by_test",
]

#: What the prose said when no test linked to the site (records written before issue 10's
#: situations; errdex verify still rewrites them): tests read and none linked, or
#: none read (``{noun}``: error or warning; ``{known}``: what else is known). errdex verify
#: replaces either when a test's statements raised at the site. The first says what errdex
#: found, not that no test exists: a test reaching the site through an object whose type
#: errdex does not infer (``cmd = build_ext(dist)`` then ``cmd.check_extensions_list``
#: among several sites of one class) is not linked.
NO_TEST_FOUND = (
    "errdex linked none of the {files} it read from the repository's tests to this {noun} "
    "(a test that reaches it "
    "through an object of a type errdex does not infer is not linked), and no run-time "
    "message has been recorded for it; what is known is {known}."
)
NO_TEST_READ = (
    "errdex read none of the repository's tests, so whether one expects this {noun} is not "
    "known, and no run-time message has been recorded for it; what is known is {known}."
)

#: How commonSituations starts when tests or run time already show the error.
_SEEN = ("Seen at run time as ", "The repository's own tests reach it", "The test `")


def failing_call(test: TestEvidence) -> str | None:
    """The statement of a test's block that makes the failing call: the block's last one
    (earlier ones usually build its arguments), or the callable form itself. A block's
    head may run over several lines (``with self.assertRaisesRegex(ValueError,`` then the
    pattern on the next): the head ends where it parses, so the pattern's line is never
    taken for the call (paired blind review, stop 35: "runs `'path was not specified, and
    no sock'):`", false twice)."""
    snippet = test.get("snippet", "")
    try:
        whole = ast.parse(textwrap.dedent(snippet).strip()).body
    except SyntaxError:
        whole = []
    if len(whole) == 1 and isinstance(whole[0], ast.Expr):
        return " ".join(snippet.split())  # one call over several lines: a helper's, or
        # ``assertRaises(E, f, x)``; its first line alone is no call
    lines = snippet.split("\n")
    tried = _try_call(textwrap.dedent(snippet).strip("\n").split("\n"))
    if tried:
        return tried
    cut = _head_end(lines)
    head = " ".join(" ".join(lines[:cut]).split())
    body = textwrap.dedent("\n".join(lines[cut:]))
    if not body.strip():
        return head or None
    try:
        statements = ast.parse(body).body
    except SyntaxError:  # the snippet was cut inside a statement
        statements = []
    if statements:
        segment = ast.get_source_segment(body, _inside_expectations(statements[-1]))
        if segment:
            return " ".join(segment.split())
    rest = [x.strip() for x in body.splitlines() if x.strip() and not x.strip().startswith("#")]
    return rest[0] if rest else head or None


def _inside_expectations(stmt: ast.stmt) -> ast.stmt:
    """The statement inside nested expectation blocks: ``with self.assertRaises(SystemExit):``
    around ``with self.assertRaises(FileNotFoundError): conf.GetUserCfgDir()`` runs
    ``conf.GetUserCfgDir()``; quoting the inner block named the class the outer test does
    not expect (stop 39's blind review, idlelib's test_config, misleading)."""
    while (
        isinstance(stmt, ast.With | ast.AsyncWith)
        and stmt.body
        and all(_expects(item.context_expr) for item in stmt.items)
    ):
        stmt = stmt.body[-1]
    return stmt


def _expects(expr: ast.expr) -> bool:
    """Whether ``expr`` is a call of an expectation (``pytest.raises``, ``assertRaises``
    and the wrappers expects.py reads)."""
    if not isinstance(expr, ast.Call):
        return False
    func = expr.func
    name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
    return name in EXPECT_CALLS or name in WRAPPED_CASE


def _try_call(lines: list[str]) -> str | None:
    """The call of a ``try:`` snippet (expects.py keeps the whole statement for its
    try-except form): the try body's last statement but a ``self.fail()``; ``try:`` never
    parses as a head, so the head would swallow the body and the ``except`` line and the
    handler's assertion be named instead. None where the snippet is no ``try``."""
    if not lines or lines[0].strip() != "try:":
        return None
    indent = len(lines[0]) - len(lines[0].lstrip())
    body: list[str] = []
    for line in lines[1:]:
        if line.strip() and len(line) - len(line.lstrip()) <= indent:
            break  # except, else or finally
        body.append(line)
    text = textwrap.dedent("\n".join(body))
    try:
        statements = [s for s in ast.parse(text).body if not _fails(s)]
    except SyntaxError:  # cut inside a statement
        statements = []
    segment = ast.get_source_segment(text, statements[-1]) if statements else None
    if segment:
        return " ".join(segment.split())
    rest = [x.strip() for x in body if x.strip() and not x.strip().startswith("#")]
    return rest[0] if rest else None


def _fails(stmt: ast.stmt) -> bool:
    """Whether ``stmt`` only fails the test when nothing was raised (``self.fail()``,
    ``pytest.fail(...)``, ``assert False``, ``raise AssertionError``)."""
    if isinstance(stmt, ast.Expr) and isinstance(stmt.value, ast.Call):
        func = stmt.value.func
        name = func.attr if isinstance(func, ast.Attribute) else getattr(func, "id", "")
        return name == "fail"
    if isinstance(stmt, ast.Assert):
        return isinstance(stmt.test, ast.Constant) and not stmt.test.value
    if isinstance(stmt, ast.Raise) and stmt.exc is not None:
        exc = stmt.exc.func if isinstance(stmt.exc, ast.Call) else stmt.exc
        return isinstance(exc, ast.Name) and exc.id == "AssertionError"
    return False


def _head_end(lines: list[str]) -> int:
    """How many of ``lines`` the block's head (``with …:``) takes: the fewest that parse
    as a head; 1 where none does (no block head, or the snippet was cut inside it)."""
    for end in range(1, len(lines) + 1):
        text = textwrap.dedent("\n".join(lines[:end]))
        try:
            ast.parse(text + "\n    pass")
        except SyntaxError:
            continue
        return end
    return 1


def common_situations(g: Gathered) -> tuple[str, list[str]]:
    """What run time and the tests show of the error; where neither shows anything, what
    errdex read and did not find (a claim about tests only where they were read)."""
    sentences: list[str] = []
    basis: list[str] = []
    for obs in g.observed[:2]:
        message = obs.get("message")
        if not message:
            continue
        where = f" (in {code(obs['test'])})" if obs.get("test") else ""
        count = obs.get("count") or 1
        times = f", {count} times" if count > 1 else ""
        sentences.append(f"{_SEEN[0]}{quote(message)}{where}{times}.")
        basis.append("observed")
    if g.tests:
        examples = []
        for test in g.tests[:2]:
            call = failing_call(test)
            if call:
                examples.append(f"{code(test.get('name', ''))} runs {code(call)}")
        if examples:
            sentences.append(f"{_SEEN[1]} on purpose: " + "; ".join(examples) + ".")
            basis.append("tests")
    if not sentences:  # what errdex read is in evidence.testsRead and testFilesRead
        sentence, keys, _ = unseen_situation(g)
        sentences.append(said_lazily(g, sentence))  # a generator's result raises, not its call
        basis.extend(keys)
    return " ".join(sentences), basis


def reached_by_test(common: str, test: str, where: str, warns: bool) -> str:
    """commonSituations once a reproducer cut from ``test`` (at ``where``) raised at the
    site: the test first, then the analyst's situation (no longer a claim about tests).
    Prose that already cites tests or run time is left as it is."""
    if test in common or common.startswith(_SEEN):
        return common
    said = "warning" if warns else "error"
    return (
        f"The test {code(test)} ({where}) expects this {said}: errdex ran the statements it "
        f"needs, and they raised it here. {common}"
    )
