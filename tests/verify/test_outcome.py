"""What verify writes back: a reproducer cut from a test corrects the prose that said no
test expects the error (a blind review found 467 records contradicting their reproducer)."""

from __future__ import annotations

from errdex.analyze.fields import NO_TEST_FOUND
from errdex.verify.from_tests import Candidate
from errdex.verify.outcome import RecordOutcome
from errdex.verify.sandbox import RunResult

NONE_READ = (
    "errdex read none of the repository's tests, so whether one expects this error is not "
    "known, and no run-time message has been recorded for it; what is known is the site itself."
)
NONE_FOUND = NO_TEST_FOUND.format(
    files="3 test files", noun="error", known="the conditions on the way to it"
)

#: ``test_full``'s statements, run: they raised at the site.
_FULL = (
    Candidate(
        program="from box import fill\nfill(9)\n",
        test="tests/test_box.py::test_full",
        path="tests/test_box.py",
        line=12,
        kind="pytest.raises",
        warns=False,
    ),
    RunResult("raised", "box.BoxError", ("box.BoxError",), "full", "full", (("box.py", 3),)),
)


def _outcome(with_reproducer: bool) -> RecordOutcome:
    record = {
        "id": "0" * 16,
        "documentation": "Raised when the box is full. " + NONE_FOUND,
        "triggerScenarios": [NONE_READ, "Calling `fill(9)`."],
    }
    return RecordOutcome(
        envelope={"record": record, "evidence": {}},
        reproducer=_FULL if with_reproducer else None,
        site="box.py:3",
    )


def test_a_reproducer_from_a_test_replaces_no_test_expects_it() -> None:
    record, evidence = _outcome(True).written("2026-12-02T00:00:00Z", "3.11.7", "none")
    assert evidence["reproducer"]["test"] == "tests/test_box.py::test_full"
    said = (
        "The test `tests/test_box.py::test_full` (tests/test_box.py:12) expects this error: "
        "errdex ran the statements it needs, and they raised it here (see Reproduce it); "
    )
    assert record["documentation"] == (
        "Raised when the box is full. "
        + said
        + "what is also known is the conditions on the way to it."
    )
    assert record["triggerScenarios"] == [
        said + "what is also known is the site itself.",
        "Calling `fill(9)`.",
    ]


def test_without_a_reproducer_the_prose_stays() -> None:
    record, _ = _outcome(False).written("2026-12-02T00:00:00Z", "3.11.7", "none")
    assert record["documentation"].endswith(NONE_FOUND)
    assert record["triggerScenarios"][0] == NONE_READ


def _guard_outcome(record_id: str) -> RecordOutcome:
    """A guard's candidate built for record ``b…`` (``n=0 makes `k > n` true``)."""
    found = (
        Candidate(
            program="from box import fill\nfill(0)\n",
            test="tests/test_box.py::test_fill (n=0 makes `k > n` true)",
            path="tests/test_box.py",
            line=12,
            kind="guard",
            warns=False,
            for_record="b" * 16,
            cut_from="tests/test_box.py::test_fill",
        ),
        RunResult("raised", "box.BoxError", ("box.BoxError",), "bad", "bad", (("box.py", 3),)),
    )
    return RecordOutcome(
        envelope={"record": {"id": record_id}, "evidence": {}}, reproducer=found, site="box.py:3"
    )


def test_how_a_guard_was_met_is_said_only_on_the_record_it_was_built_for() -> None:
    _, built_for = _guard_outcome("b" * 16).written("2026-12-03T00:00:00Z", "3.11.7", "none")
    assert built_for["reproducer"]["test"] == (
        "tests/test_box.py::test_fill (n=0 makes `k > n` true)"
    )
    # it raised at another record's line: that record's guard is not `k > n`
    _, other = _guard_outcome("c" * 16).written("2026-12-03T00:00:00Z", "3.11.7", "none")
    assert other["reproducer"]["test"] == "tests/test_box.py::test_fill"


def _situation_outcome(common: str) -> RecordOutcome:
    """A record whose commonSituations is the analyst's situation (issue 10), not the old
    "no test expects it", and a reproducer cut from a test that raised at the site."""
    return RecordOutcome(
        envelope={"record": {"id": "0" * 16, "commonSituations": common}, "evidence": {}},
        reproducer=_FULL,
        site="box.py:3",
    )


def test_a_reproducer_from_a_test_is_said_before_the_situation() -> None:
    situation = "It comes from a call of `fill()` that passes `n` as a value greater than `8`."
    record, _ = _situation_outcome(situation).written("2026-12-06T00:00:00Z", "3.11.7", "none")
    assert record["commonSituations"] == (
        "The test `tests/test_box.py::test_full` (tests/test_box.py:12) expects this error: "
        "errdex ran the statements it needs, and they raised it here. " + situation
    )
    # the tests the analyst linked already say it: left as they are
    linked = "The repository's own tests reach it on purpose: `test_full` runs `fill(9)`."
    record, _ = _situation_outcome(linked).written("2026-12-06T00:00:00Z", "3.11.7", "none")
    assert record["commonSituations"] == linked
