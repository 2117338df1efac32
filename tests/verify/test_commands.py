"""``errdex verify`` end to end: a real scan, real child interpreters, real SQLite."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

from click.testing import CliRunner

from errdex.cli import main
from errdex.store import SqliteStore

from .conftest import REPO, Tree


def _records(tree: Tree) -> dict[int, tuple[dict[str, Any], dict[str, Any]]]:
    with SqliteStore(tree.db) as store:
        return {
            int(e["record"]["lineNumber"]): (e["record"], e["evidence"])
            for e in store.iter_envelopes(REPO)
        }


def test_names_are_required_and_unknown_ones_are_skipped(tree: Tree) -> None:
    runner = CliRunner()
    bare = runner.invoke(main, ["verify", "--db", str(tree.db)])
    assert bare.exit_code == 2 and "--all" in bare.output
    both = runner.invoke(main, ["verify", REPO, "--all", "--db", str(tree.db)])
    assert both.exit_code == 2
    other = runner.invoke(main, ["verify", "someone/else", "--db", str(tree.db), "--no-progress"])
    assert other.exit_code == 0 and "someone/else is not in" in other.output
    before = _records(tree)
    assert all("verification" not in ev for _, ev in before.values())  # nothing ran


def test_reproducers_from_the_tests_are_verified_and_stored(tree: Tree) -> None:
    result = tree.verify()
    assert result.exit_code == 0, result.output
    records = _records(tree)
    raised = {
        line: ev["reproducer"]["raised"] for line, (_, ev) in records.items() if "reproducer" in ev
    }
    assert raised == {
        10: "ValueError: x must be non-negative, got -1",
        16: "TypeError: n must be an int, not float",
        18: "BoxError: cannot hold 9 items",
        23: "DeprecationWarning: old() is deprecated; use new() instead",
    }
    rep = records[10][1]["reproducer"]
    assert rep["snippet"] == "from acme.core import check, fill, old\ncheck(-1)"
    assert rep["site"] == "acme/core.py:10"
    assert rep["test"] == "tests/test_core.py::test_negative"
    assert rep["tracebackTail"].endswith("ValueError: x must be non-negative, got -1")
    assert 'raise ValueError(f"x must be non-negative, got {x}")' in rep["tracebackTail"]
    unreached, evidence = records[27]
    assert "reproducer" not in evidence
    checks = evidence["verification"]["fields"]
    assert checks["reproducer"]["status"] == "not-run"
    assert checks["tryCatchPattern"]["status"] == "not-run"  # kept, marked not run
    assert unreached["tryCatchPattern"] == checks["tryCatchPattern"]["code"]
    summary = json.loads(tree.verify("--json").output)
    row = summary["repos"][REPO]
    assert (row["records"], row["verified"], row["testFiles"], row["snippets"]) == (5, 4, 1, 5)
    # 27: no test reaches it; errdex's plain call unreached() fails in sorted(None) first
    assert row["skipped"] == {"calls built from its guards did not raise here": 1}
    assert row["guardCallsDid"] == {"raised TypeError": 1}
    assert "1 raised TypeError at acme/core.py:26" in checks["reproducer"]["reason"]
    # 16's TypeError is a wrong call: no handler is written for it (issue 10: fix the call)
    assert row["fields"]["tryCatchPattern passed"] == 3
    assert "tryCatchPattern" not in records[16][1]["verification"]["fields"]
    assert summary["runs"]["cached"] > 0


def test_a_passing_try_catch_shows_what_ran(tree: Tree) -> None:
    assert tree.verify().exit_code == 0
    record, evidence = _records(tree)[18]
    check = evidence["verification"]["fields"]["tryCatchPattern"]
    assert check["status"] == "passed"
    assert check["reason"] == "caught BoxError raised at acme/core.py:18"
    assert "fill('b', 9)" in record["tryCatchPattern"]
    # the analyst's scaffold, not shown before (``box`` and ``n`` unbound), kept beside it
    assert "fill(box, n)" in check["code"]
    assert "__errdex_marks__" not in record["tryCatchPattern"]
    record, evidence = _records(tree)[16]
    guard = evidence["verification"]["fields"]["typeGuard"]
    assert guard["status"] == "partial" and "no good input known" in guard["reason"]


def test_code_that_fails_is_dropped_and_kept_in_evidence(tree: Tree) -> None:
    with SqliteStore(tree.db) as store:
        env = next(e for e in store.iter_envelopes(REPO) if e["record"]["lineNumber"] == 10)
        scaffold = env["evidence"]["provenance"]["tryCatchPattern"]["scaffold"]
        wrong = scaffold.replace("except ValueError", "except KeyError")
        env["record"]["tryCatchPattern"] = wrong
        env["record"]["validationCode"] = "if x > 0:\n    ...  # wrong way round"
        store.update_records([(env["record"], env["evidence"])])
    assert tree.verify().exit_code == 0
    record, evidence = _records(tree)[10]
    fields = evidence["verification"]["fields"]
    assert record["tryCatchPattern"] is None
    assert fields["tryCatchPattern"]["status"] == "failed"
    assert fields["tryCatchPattern"]["code"] == wrong
    assert "ValueError escaped the handler" in fields["tryCatchPattern"]["reason"]
    assert record["validationCode"] is None and fields["validationCode"]["status"] == "failed"
    assert "false on the failing input" in fields["validationCode"]["reason"]


def test_a_second_run_comes_from_the_cache_and_gives_the_same_records(tree: Tree) -> None:
    first = tree.verify()
    assert " 0 from the cache" in first.output
    after_first = _records(tree)
    second = tree.verify()
    assert " 0 ran," in second.output, second.output
    after_second = _records(tree)
    for line, (record, evidence) in after_first.items():
        assert after_second[line][0] == record
        assert after_second[line][1].get("reproducer", {}).get("snippet") == evidence.get(
            "reproducer", {}
        ).get("snippet")


def test_a_wrong_expectation_counts_as_a_miss_not_a_pass(tree: Tree) -> None:
    """test_wrong_expectation raises ValueError at check's site while expecting KeyError:
    the run still reproduces that record (what the test expected is no part of the check)."""
    assert tree.verify().exit_code == 0
    _, evidence = _records(tree)[10]
    assert evidence["reproducer"]["test"] in {
        "tests/test_core.py::test_negative",
        "tests/test_core.py::test_wrong_expectation",
    }


def test_fresh_interpreters_and_forked_children_agree(tree: Tree) -> None:
    forked = json.loads(tree.verify("--json", "--no-cache").output)
    fresh = json.loads(tree.verify("--json", "--no-cache", "--fresh-interpreter").output)
    assert forked["repos"] == fresh["repos"]
    assert forked["runs"]["ran"] == fresh["runs"]["ran"] > 0


def test_a_check_that_cannot_be_evaluated_where_it_raised_stays_unverified(tree: Tree) -> None:
    with SqliteStore(tree.db) as store:
        env = next(e for e in store.iter_envelopes(REPO) if e["record"]["lineNumber"] == 16)
        env["record"]["typeGuard"] = "if not isinstance(elsewhere, int):\n    ..."
        store.update_records([(env["record"], env["evidence"])])
    assert tree.verify().exit_code == 0
    record, evidence = _records(tree)[16]
    check = evidence["verification"]["fields"]["typeGuard"]
    assert check["status"] == "not-run"
    assert "name 'elsewhere' is not defined" in check["reason"]
    assert record["typeGuard"] == "if not isinstance(elsewhere, int):\n    ..."


def test_the_web_layer_cannot_run_snippets() -> None:
    """serve only reads what verify stored: no module under errdex.web imports the runner."""
    import errdex.web

    web = Path(errdex.web.__file__).parent
    for module in web.rglob("*.py"):
        text = module.read_text(encoding="utf-8")
        assert "errdex.verify" not in text and "subprocess" not in text, module


def test_only_verifies_the_records_listed(tree: Tree, tmp_path: Path) -> None:
    before = _records(tree)
    wanted = before[10][0]["id"]
    listed = tmp_path / "ids.txt"
    listed.write_text(f"{wanted}\n")
    result = tree.verify("--only", str(listed))
    assert result.exit_code == 0, result.output
    after = _records(tree)
    assert after[10][1]["reproducer"]["raised"] == "ValueError: x must be non-negative, got -1"
    # the others are left as the scan wrote them, though a test reaches line 16 too
    assert all("verification" not in ev for line, (_, ev) in after.items() if line != 10)
