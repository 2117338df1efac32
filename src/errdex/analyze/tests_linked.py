"""One linked test as a record's evidence lists it (:mod:`.tests_evidence` links them)."""

from __future__ import annotations

from typing import Literal, cast

from errdex.evidence import TestEvidence, TestKind

from .facts import Expect

__all__ = ["linked_evidence", "match_form"]


def linked_evidence(expect: Expect, shown: str, via: str | None = None) -> TestEvidence:
    """What a record lists of one test linked to it (``via``: the suite's helper whose body
    holds the expectation)."""
    evidence = TestEvidence(
        path=expect.path,
        line=expect.line,
        name=expect.name,
        kind=cast(TestKind, expect.kind),
        errorClass=shown,
        match=expect.match if expect.match is not None else expect.match_source,
        matchForm=match_form(expect),
        snippet=expect.snippet,
    )
    if via is not None:
        evidence["via"] = via  # the suite's helper that holds the expectation
    return evidence


def match_form(expect: Expect) -> Literal["regex", "contains", "equals"]:
    """A message the test checks with ``assert … in str(e)``/``==`` is no ``match=`` regex."""
    if not expect.match_is_literal:
        return "regex"
    return "equals" if expect.match_whole else "contains"
