"""A call errdex built and ran opens commonSituations (reviewers of stop 36: "the situation
is not named" on records whose reproducer held it)."""

from __future__ import annotations

from typing import Any

from errdex.store import SqliteStore
from errdex.verify.from_tests import Candidate
from errdex.verify.ran_example import ran_call, say_the_run
from errdex.verify.sandbox import RunResult

from .conftest import REPO, Tree
from .test_test_cases import _rescan

SCALES = """\
class Meter:
    def __init__(self):
        self._open = True

    def close(self):
        self._open = False

    def read(self):
        if not self._open:
            raise ValueError("read from a closed meter")
        return 1


def scale(x, k):
    if k > 10:
        raise ValueError(f"k must be at most 10, got {k}")
    return x * k
"""

TEST_SCALES = """\
from acme.scales import Meter, scale


def test_scale():
    assert scale(2, 3) == 6


def test_meter():
    m = Meter()
    assert m.read() == 1
"""


def _common(tree: Tree, path: str, line: int) -> tuple[str, dict[str, Any]]:
    with SqliteStore(tree.db) as store:
        (env,) = [
            e
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == path and e["record"]["lineNumber"] == line
        ]
    return env["record"]["commonSituations"], env["evidence"]


def test_a_built_call_that_raised_opens_common_situations(tree: Tree) -> None:
    (tree.root / "acme" / "scales.py").write_text(SCALES)
    (tree.root / "tests" / "test_scales.py").write_text(TEST_SCALES)
    _rescan(tree)
    assert tree.verify().exit_code == 0
    common, evidence = _common(tree, "acme/scales.py", 16)
    assert evidence["reproducer"]["raised"].startswith("ValueError: k must be at most 10")
    assert common.startswith("For example, `scale(2, 11)` raises it (errdex ran it). ")
    common, evidence = _common(tree, "acme/scales.py", 10)
    assert "m.close()\nm.read()" in evidence["reproducer"]["snippet"]
    assert common.startswith("For example, `m.read()` raises it (errdex ran it). ")
    # a reproducer cut from a test says the test instead, not a built call
    common, evidence = _common(tree, "acme/core.py", 10)
    assert evidence["reproducer"]["test"] == "tests/test_core.py::test_negative"
    assert "For example" not in common
    # a second verify leaves one sentence, not two
    assert tree.verify().exit_code == 0
    common, _ = _common(tree, "acme/scales.py", 16)
    assert common.count("(errdex ran it)") == 1


def _raised(*lines: int) -> RunResult:
    frames = (*(("<reproducer>", n) for n in lines), ("acme/x.py", 3))
    return RunResult("raised", "ValueError", ("ValueError",), "no", "no", frames)


def test_only_a_short_public_top_level_statement_is_quoted() -> None:
    program = (
        "from acme import x, _hidden\n"
        "def helper(v):\n"
        "    return x.go(v)\n"
        "x.go(1)\n"
        "_hidden(2)\n"
        "x.go(" + "1, " * 40 + "1)\n"
        "x.go(1,\n"
        "     2)\n"
        "y = x.go(k=3)\n"
        "x.go(_k=3)\n"
    )
    assert ran_call(program, _raised(4)) == "x.go(1)"
    assert ran_call(program, _raised(9)) == "y = x.go(k=3)"
    assert ran_call(program, _raised(9, 3)) is None  # inside the snippet's own helper
    assert ran_call(program, _raised(5)) is None  # a private name
    assert ran_call(program, _raised(10)) is None  # a private keyword
    assert ran_call(program, _raised(6)) is None  # over 100 characters
    assert ran_call(program, _raised(7)) is None  # one line of a longer statement
    assert ran_call(program, _raised()) is None  # no frame of the snippet


def test_a_blocked_accelerator_or_a_test_candidate_says_nothing() -> None:
    common = "It comes from a call of go()."
    for kind, blocked in (("guard", ("_json",)), ("pytest.raises", ())):
        cand = Candidate("x.go(1)\n", "t.py::test", "t.py", 1, kind, False, blocked)
        record = {"commonSituations": common}
        say_the_run(record, cand, _raised(1))
        assert record["commonSituations"] == common
    record = {"commonSituations": common}
    say_the_run(record, Candidate("x.go(1)\n", "t", "t.py", 1, "guard", True), _raised(1))
    assert record["commonSituations"] == (
        "For example, `x.go(1)` gives this warning (errdex ran it). " + common
    )
    say_the_run(record, None, None)  # no reproducer any more: the sentence goes
    assert record["commonSituations"] == common
