"""The mark on each code block: ran or not, when, and what it showed."""

from __future__ import annotations

from errdex.web.run_marks import code_marks, mark_of_test


def test_a_record_verify_never_saw_says_not_run_everywhere() -> None:
    marks = code_marks({})
    assert {name: (m.ran, m.text) for name, m in marks.items()} == {
        name: (False, "not run")
        for name in ("reproducer", "exampleFix", "validationCode", "typeGuard", "tryCatchPattern")
    }


def test_each_status_reads_as_what_happened() -> None:
    evidence = {
        "verification": {
            "fields": {
                "reproducer": {
                    "status": "passed",
                    "reason": "raised KeyError: 'x' at a.py:3",
                    "ranAt": "2026-12-02T01:02:03.000Z",
                },
                "validationCode": {
                    "status": "partial",
                    "reason": "true on the failing input",
                    "ranAt": "2026-12-02T01:02:03.000Z",
                },
                "tryCatchPattern": {"status": "not-run", "reason": "no verified reproducer"},
            }
        }
    }
    marks = code_marks(evidence)
    assert marks["reproducer"].text == "ran 2026-12-02, raised KeyError: 'x' at a.py:3"
    assert marks["reproducer"].ran
    assert marks["validationCode"].text == "ran 2026-12-02: true on the failing input"
    assert marks["tryCatchPattern"].text == "not run: no verified reproducer"
    assert not marks["tryCatchPattern"].ran
    assert marks["typeGuard"].text == "not run"


def test_a_test_snippet_is_never_claimed_as_run() -> None:
    evidence = {"reproducer": {"test": "t.py::test_a", "verifiedAt": "2026-12-02T00:00:00Z"}}
    own = mark_of_test(evidence, {"name": "t.py::test_a"})
    other = mark_of_test(evidence, {"name": "t.py::test_b"})
    assert not own.ran and "cut from it and ran 2026-12-02" in own.text
    assert not other.ran and other.text.startswith("not run")
