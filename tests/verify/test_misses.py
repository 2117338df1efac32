"""What a record's calls built from its guards did instead of raising at its site."""

from __future__ import annotations

from errdex.verify.from_tests import Candidate
from errdex.verify.misses import MISSED, missed
from errdex.verify.sandbox import RunResult
from errdex.verify.sites import RepoSites

_ENV = {"record": {"id": "r1", "filePath": "acme/box.py", "lineNumber": 9}, "evidence": {}}
_CAND = Candidate("f()", "tests/test_box.py::test_f (x=-1)", "tests/test_box.py", 3, "guard", False)


def _raised(cls: str, message: str, line: int) -> RunResult:
    frames = (("<reproducer>", 1), ("/site-packages/acme/box.py", line))
    return RunResult("raised", cls, (cls,), message, message, frames)


def test_the_most_common_outcome_comes_first_with_where_and_its_message() -> None:
    sites = RepoSites.of([_ENV])
    runs = [
        (_CAND, _raised("ModuleNotFoundError", "No module named 'numpy'", 4)),
        (_CAND, RunResult("ok")),
        (_CAND, _raised("ModuleNotFoundError", "No module named 'numpy'", 4)),
    ]
    found = missed(runs, sites)
    assert found is not None
    kind, reason = found
    assert kind == "raised ModuleNotFoundError"
    assert reason == (
        f"{MISSED}: 3 ran; 2 raised ModuleNotFoundError at acme/box.py:4 "
        "(No module named 'numpy'), 1 returned"
    )


def test_no_call_built_gives_no_reason() -> None:
    assert missed([], RepoSites.of([_ENV])) is None
