"""What verification makes of one record: its reproducer, each code field's check, and the
record and evidence written back.

Decided here, and said in the README: a code field that ran and did not do what it
claims is **dropped** from the record (set to null) and kept in
``evidence.verification.fields[field].code`` with the reason, so the page never shows it;
a field that could not be run (no reproducer to run it against, a before/after fragment)
stays, marked "not run" on the page. A passing ``tryCatchPattern`` is replaced by the
program that ran (the reproducer's statements inside the ``try``).
"""

from __future__ import annotations

import copy
import re
from dataclasses import dataclass, field
from typing import Any, cast

from errdex.analyze.fields import NO_TEST_FOUND, NO_TEST_READ
from errdex.analyze.situations import reached_by_test
from errdex.evidence import CheckStatus, CodeCheck, ReproducerEvidence, VerificationEvidence

from .from_methods import PLAIN
from .from_tests import Candidate
from .ran_example import say_the_run
from .sandbox import RunResult

__all__ = ["CODE_FIELDS", "FieldRun", "RecordOutcome", "source_code"]

#: The record's code fields, in the page's order.
CODE_FIELDS = ("exampleFix", "validationCode", "typeGuard", "tryCatchPattern")


@dataclass
class FieldRun:
    status: CheckStatus
    reason: str
    shown: str | None = None  # what the record shows after verify (tryCatchPattern: spliced)


@dataclass
class RecordOutcome:
    envelope: dict[str, Any]
    reproducer: tuple[Candidate, RunResult] | None = None
    site: str = ""
    failure: str | None = None  # why no reproducer: the closest miss
    #: else (the most common outcome, the reason): what the calls built from its guards did
    missed: tuple[str, str] | None = None
    reached_with: str | None = None  # 'the C accelerator `_json` blocked'
    fields: dict[str, FieldRun] = field(default_factory=dict)

    def written(
        self, now: str, python: str, isolation: str
    ) -> tuple[dict[str, Any], dict[str, Any]]:
        """The record and evidence to store."""
        record = copy.deepcopy(self.envelope["record"])
        evidence = copy.deepcopy(self.envelope.get("evidence") or {})
        checks: dict[str, CodeCheck] = {}
        if self.reproducer is not None:
            cand, result = self.reproducer
            raised = f"{(result.error_class or '?').rsplit('.', 1)[-1]}: {result.message or ''}"
            evidence["reproducer"] = ReproducerEvidence(
                snippet=cand.program,
                tracebackTail=result.traceback_tail,
                site=self.site,
                raised=raised[:500],
                python=python,
                verifiedAt=now,
                test=_test_said(cand, str(record.get("id") or "")),
                testLine=cand.line,
            )
            if cand.kind == "guard":  # errdex's call: the page says it built it
                evidence["reproducer"]["built"] = cand.test
            if self.reached_with:
                evidence["reproducer"]["reachedWith"] = self.reached_with
            checks["reproducer"] = CodeCheck(
                status="passed", reason=f"raised {raised[:200]} at {self.site}", ranAt=now
            )
            if cand.kind != "guard":  # a guard's candidate is errdex's call, not the test's
                _say_the_test_reaches_it(record, cand)
            say_the_run(record, cand, result)  # a built call: the run is the situation
        else:
            evidence.pop("reproducer", None)
            say_the_run(record, None, None)
            ran = bool(self.failure and self.failure.startswith("ran: "))
            checks["reproducer"] = CodeCheck(
                status="failed" if ran else "not-run",
                reason=(
                    self.failure
                    or (self.missed[1] if self.missed else None)
                    or "no snippet from the tests raised at this site"
                ).removeprefix("ran: "),
            )
            if ran:
                checks["reproducer"]["ranAt"] = now
        for name, run in self.fields.items():
            original = source_code(self.envelope, name)
            check = CodeCheck(status=run.status, reason=run.reason)
            if run.status != "not-run":
                check["ranAt"] = now
            if original is not None:
                check["code"] = original
            if run.status == "failed":
                record[name] = None
            elif run.shown is not None:
                record[name] = run.shown
            if record.get(name) is not None:
                check["shown"] = record[name]
            checks[name] = check
        evidence["verification"] = VerificationEvidence(
            ranAt=now, python=python, isolation=isolation, fields=checks
        )
        return record, evidence


def _sentence_pattern(sentence: str, n: int) -> str:
    """A regex for one of the analyst's sentences, its ``{noun}`` and ``{known}`` captured
    (as ``noun<n>`` and ``known<n>``)."""
    pattern = re.escape(sentence).replace(re.escape("{files}"), r"\d+ test files?", 1)
    pattern = pattern.replace(re.escape("{noun}"), f"(?P<noun{n}>error|warning)", 1)
    return pattern.replace(re.escape("{known}"), f"(?P<known{n}>[^.]*)", 1)


# the analyst's "no test expects it" (analyze/fields.py); a reproducer cut from a test that
# raised at the site makes it false
_NO_TEST = re.compile(
    "|".join(f"(?:{_sentence_pattern(s, n)})" for n, s in enumerate((NO_TEST_FOUND, NO_TEST_READ)))
)


def _test_said(cand: Candidate, record_id: str) -> str:
    """The test and how a guard's candidate met the guard, when this is the record it was
    built for; only the test it was cut from when it raised at another record's line (a
    candidate for ``k <= 0`` at line 139 that raised at 137 meets no guard of 137's); none
    for errdex's plain call, which no test holds (``built`` says how errdex made it)."""
    if cand.test.startswith(PLAIN):
        return ""
    if cand.for_record and cand.for_record != record_id:
        return cand.cut_from or cand.test
    return cand.test


def _say_the_test_reaches_it(record: dict[str, Any], cand: Candidate) -> None:
    """Replace the prose's "no test expects it" with the test the reproducer came from."""

    def said(found: re.Match[str]) -> str:
        n = next(i for i in range(2) if found[f"noun{i}"] is not None)
        noun, known = found[f"noun{n}"], found[f"known{n}"]
        return (
            f"The test `{cand.test}` ({cand.path}:{cand.line}) expects this {noun}: errdex "
            f"ran the statements it needs, and they raised it here (see Reproduce it); what "
            f"is also known is {known}."
        )

    common = record.get("commonSituations")
    if isinstance(common, str) and not _NO_TEST.search(common):  # a situation, not tests
        record["commonSituations"] = reached_by_test(
            common, cand.test, f"{cand.path}:{cand.line}", cand.warns
        )
    for name, value in record.items():
        if isinstance(value, str):
            record[name] = _NO_TEST.sub(said, value)
        elif isinstance(value, list):
            record[name] = [_NO_TEST.sub(said, v) if isinstance(v, str) else v for v in value]


def source_code(envelope: dict[str, Any], name: str) -> str | None:
    """The analyst's code for a field: the record's, unless an earlier verify replaced or
    dropped it (then the analyst's text it kept)."""
    current = envelope["record"].get(name)
    previous = (
        ((envelope.get("evidence") or {}).get("verification") or {}).get("fields") or {}
    ).get(name)
    if isinstance(previous, dict) and previous.get("code"):
        if current is None and previous.get("status") == "failed":
            return cast(str, previous["code"])
        if current is not None and current == previous.get("shown"):
            return cast(str, previous["code"])
    if current is None:  # the analyst's handler not shown until a reproducer runs in it
        written = ((envelope.get("evidence") or {}).get("provenance") or {}).get(name) or {}
        return cast("str | None", written.get("scaffold"))
    return cast("str | None", current)
