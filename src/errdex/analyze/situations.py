"""commonSituations: how people get to the error, from what was seen at run time and the
tests that reach it; where nothing was seen, what errdex read and did not find. Split from
:mod:`.fields`. A trial that replaced the last two with one sentence ("errdex knows of no
common situation…") was judged misleading filler in 43 of 50 records of a blind review, where
these were judged misleading only where a test errdex did not link exists."""

from __future__ import annotations

import ast
import textwrap

from errdex.evidence import TestEvidence

from .gathered import Gathered, noun
from .guards import code
from .quoting import quote

__all__ = ["NO_TEST_FOUND", "NO_TEST_READ", "common_situations", "failing_call"]

#: What the prose says when no test links to the site: tests read and none linked, or
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


def failing_call(test: TestEvidence) -> str | None:
    """The statement of a test's block that makes the failing call: the block's last one
    (earlier ones usually build its arguments), or the callable form itself."""
    snippet = test.get("snippet", "")
    try:
        whole = ast.parse(textwrap.dedent(snippet).strip()).body
    except SyntaxError:
        whole = []
    if len(whole) == 1 and isinstance(whole[0], ast.Expr):
        return " ".join(snippet.split())  # one call over several lines: a helper's, or
        # ``assertRaises(E, f, x)``; its first line alone is no call
    lines = snippet.split("\n")
    head = lines[0].strip() if lines else ""
    body = textwrap.dedent("\n".join(lines[1:]))
    if not body.strip():
        return head or None
    try:
        statements = ast.parse(body).body
    except SyntaxError:  # the snippet was cut inside a statement
        statements = []
    if statements:
        segment = ast.get_source_segment(body, statements[-1])
        if segment:
            return " ".join(segment.split())
    rest = [x.strip() for x in body.splitlines() if x.strip() and not x.strip().startswith("#")]
    return rest[0] if rest else head or None


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
        sentences.append(f"Seen at run time as {quote(message)}{where}{times}.")
        basis.append("observed")
    if g.tests:
        examples = []
        for test in g.tests[:2]:
            call = failing_call(test)
            if call:
                examples.append(f"{code(test.get('name', ''))} runs {code(call)}")
        if examples:
            sentences.append(
                "The repository's own tests reach it on purpose: " + "; ".join(examples) + "."
            )
            basis.append("tests")
    if not sentences:
        known = "the conditions on the way to it" if g.site.guards else "the site itself"
        if g.entry_points:
            known += " and the entry points that reach it"
        if g.tests_read:
            files = f"{g.test_files_read} test file{'s' if g.test_files_read != 1 else ''}"
            sentences.append(NO_TEST_FOUND.format(files=files, noun=noun(g), known=known))
            basis.extend(["tests", "observed"])
        else:
            sentences.append(NO_TEST_READ.format(noun=noun(g), known=known))
            basis.append("observed")
    return " ".join(sentences), basis
