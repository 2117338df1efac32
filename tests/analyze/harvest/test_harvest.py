"""``errdex harvest`` end to end on a small real package with its own pytest suite.

The package is scanned with the real pipeline into a real SQLite file, then its tests
run in a real ``python -m pytest`` subprocess under the plugin; the click command is
driven through ``CliRunner``.
"""

from __future__ import annotations

import json
import os
import subprocess
import time
import venv
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from errdex.analyze.harvest import collect
from errdex.analyze.harvest.attach import RepoLayout
from errdex.analyze.harvest.collect import HarvestInterrupted, run_pytest
from errdex.analyze.harvest.commands import harvest
from errdex.analyze.harvest.plugin import class_name, raising_frame
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from .smallpkg import CORE, TESTS, line_of, write_package

REPO = "acme/smallpkg"
CORE_PATH = "smallpkg/core.py"


def scan_into(root: Path, db: Path, repo: str = REPO) -> None:
    """Scan ``root`` with the real pipeline and store it, as ``errdex scan`` does."""
    checkout = open_source(str(root), repo=repo)
    result = scan_checkout(checkout, repo=repo)
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, iso_now())


def envelopes(db: Path) -> dict[int, dict[str, Any]]:
    """The package's core.py envelopes by line."""
    with SqliteStore(db) as store:
        return {
            e["record"]["lineNumber"]: e
            for e in store.iter_envelopes(repo=REPO)
            if e["record"]["filePath"] == CORE_PATH
        }


def invoke(*args: str) -> Result:
    return CliRunner().invoke(harvest, list(args), catch_exceptions=False)


@pytest.fixture(scope="module")
def harvested(tmp_path_factory: pytest.TempPathFactory) -> Iterator[dict[str, Any]]:
    """One scanned package, harvested once: the JSON report and the stores before/after."""
    root = write_package(tmp_path_factory.mktemp("repo"))
    db = root.parent / "errdex.db"
    scan_into(root, db)
    before = envelopes(db)
    result = invoke(str(root), "--repo", REPO, "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    yield {
        "root": root,
        "db": db,
        "report": json.loads(result.stdout),
        "before": before,
        "after": envelopes(db),
    }


def observed_at(harvested: dict[str, Any], needle: str) -> list[dict[str, Any]]:
    envelope = harvested["after"][line_of(CORE, needle)]
    observed: list[dict[str, Any]] = envelope["evidence"].get("observed", [])
    return observed


def test_fstring_messages_with_hole_values_counts_and_cap(harvested: dict[str, Any]) -> None:
    observed = observed_at(harvested, 'raise ValueError(f"expected a positive')
    # 8 captures of 7 distinct messages; the default cap keeps 5, the most frequent first
    assert len(observed) == 5
    assert observed[0] == {
        "message": "expected a positive number, got -1",
        "holes": {"x": "-1"},
        "test": "tests/test_core.py::test_check_positive_many[-1]",
        "count": 2,
    }
    assert all(o["count"] == 1 for o in observed[1:])
    assert {o["holes"]["x"] for o in observed[1:]} <= {"0", "-2", "-3", "-4", "-5", "-6"}
    for o in observed:
        assert o["message"] == f"expected a positive number, got {o['holes']['x']}"


def test_percent_message_from_pytest_and_unittest(harvested: dict[str, Any]) -> None:
    observed = observed_at(harvested, "raise SmallError(")
    by_message = {o["message"]: o for o in observed}
    assert by_message["not an identifier: a b"]["holes"] == {"0": "a b"}
    assert by_message["not an identifier: a b"]["test"] == "tests/test_core.py::test_check_name"
    assert by_message["not an identifier: 1x"]["test"] == (
        "tests/test_core.py::TestUnittestStyle::test_assert_raises_regex"
    )


def test_helper_built_message_from_callable_form(harvested: dict[str, Any]) -> None:
    (observed,) = observed_at(harvested, "raise TypeError(_bad_value")
    assert observed["message"] == "bad value for size: None"
    assert observed["holes"] == {"_bad_value(name, value)": "bad value for size: None"}
    assert observed["test"] == "tests/test_core.py::test_check_value_callable_form"


def test_warning_lands_on_the_warn_call_not_the_stacklevel_caller(
    harvested: dict[str, Any],
) -> None:
    (observed,) = observed_at(harvested, "warnings.warn(")
    assert observed["message"] == "old_api is deprecated; use new_api"
    assert observed["holes"] == {}
    assert observed["count"] == 2  # pytest.warns and assertWarns
    assert harvested["report"]["counts"]["warningCaptures"] == 2


def test_mismatch_is_reported_with_the_records_pattern(harvested: dict[str, Any]) -> None:
    report = harvested["report"]
    (mismatch,) = report["mismatches"]
    assert mismatch["filePath"] == CORE_PATH
    assert mismatch["line"] == line_of(CORE, "raise RuntimeError(NOT_READY)")
    assert mismatch["errorClass"] == "RuntimeError"
    assert mismatch["message"] == "the engine was stopped: overheated"
    assert mismatch["tests"] == ["tests/test_core.py::test_stopped_engine"]
    (record,) = mismatch["records"]
    assert record["messagePattern"] == "the engine is not ready"
    assert record["style"] == "variable"
    assert report["counts"]["mismatched"] == 1
    # a message that fails its pattern is not attached
    assert "observed" not in harvested["after"][mismatch["line"]]["evidence"]


def test_counts_failures_and_what_could_not_be_placed(harvested: dict[str, Any]) -> None:
    report = harvested["report"]
    counts = report["counts"]
    assert counts["captures"] == 16
    assert counts["exceptionCaptures"] == 14
    assert counts["attached"] == 13  # 8 + 2 + 1 + 2 (warnings)
    assert counts["raisedUnderneath"] == 1  # int("x") under parse()
    assert counts["inFilesWithoutRecords"] == 1  # 1 / 0 in the test itself
    assert counts["outsideRepository"] == 0
    assert counts["missedRaiseLines"] == 0
    assert counts["recordsWithObserved"] == 4
    assert counts["records"] == 5
    assert report["written"] == 4
    pytest_info = report["pytest"]
    assert pytest_info["exitCode"] == 1  # test_fails_on_purpose: failures are fine
    assert pytest_info["outcomes"] == {"failed": 1, "passed": 16, "skipped": 1}


def test_record_and_other_evidence_are_kept(harvested: dict[str, Any]) -> None:
    for line, before in harvested["before"].items():
        after = harvested["after"][line]
        assert after["record"] == before["record"]
        rest = {k: v for k, v in after["evidence"].items() if k not in ("observed", "tests")}
        assert rest == {k: v for k, v in before["evidence"].items() if k != "tests"}
        assert "observed" not in before["evidence"]
        # the test links are the same ones; a run may only mark them confirmed
        unmarked = [
            {k: v for k, v in t.items() if k != "confirmed"} for t in after["evidence"]["tests"]
        ]
        assert unmarked == before["evidence"]["tests"]


def test_test_links_confirmed_by_the_run(harvested: dict[str, Any]) -> None:
    def links(envelopes: dict[int, dict[str, Any]], needle: str) -> dict[str, bool | None]:
        tests = envelopes[line_of(CORE, needle)]["evidence"]["tests"]
        return {t["name"]: t.get("confirmed") for t in tests}

    positive = 'raise ValueError(f"expected a positive'
    assert links(harvested["before"], positive) == {
        "tests/test_core.py::test_check_positive_many": None,
        "tests/test_core.py::test_check_positive_again": None,
    }
    # each linked test raised here with a message that fits the record (parameters aside)
    assert links(harvested["after"], positive) == {
        "tests/test_core.py::test_check_positive_many": True,
        "tests/test_core.py::test_check_positive_again": True,
    }
    assert set(links(harvested["after"], "raise SmallError(").values()) == {True}
    # the monkeypatched message fails the record's pattern: the link stays as read
    assert links(harvested["after"], "raise RuntimeError(NOT_READY)") == {
        "tests/test_core.py::test_stopped_engine": None
    }
    confirmed = sum(
        bool(t.get("confirmed"))
        for e in harvested["after"].values()
        for t in e["evidence"]["tests"]
    )
    # 2 + 2 (SmallError) + 1 (the callable form) + 2 (the warning: pytest.warns, assertWarns)
    assert confirmed == harvested["report"]["counts"]["testLinksConfirmed"] == 7
    assert set(links(harvested["after"], "warnings.warn(").values()) == {True}


def test_rerun_replaces_observed_and_honours_the_cap(
    harvested: dict[str, Any], tmp_path: Path
) -> None:
    db = tmp_path / "copy.db"
    db.write_bytes(harvested["db"].read_bytes())
    root = str(harvested["root"])
    result = invoke(root, "--repo", REPO, "--db", str(db), "--max-per-record", "2", "--json")
    assert result.exit_code == 0, result.output
    with SqliteStore(db) as store:
        rows = {
            e["record"]["lineNumber"]: e["evidence"].get("observed")
            for e in store.iter_envelopes(repo=REPO)
        }
    observed = rows[line_of(CORE, 'raise ValueError(f"expected a positive')]
    assert len(observed) == 2
    assert observed[0]["count"] == 2  # not 4: a second harvest replaces, never adds


def test_text_report_and_dry_run(harvested: dict[str, Any], tmp_path: Path) -> None:
    db = tmp_path / "copy.db"
    db.write_bytes(harvested["db"].read_bytes())
    result = invoke(
        str(harvested["root"]),
        "--repo",
        REPO,
        "--db",
        str(db),
        "--dry-run",
        "--max-per-record",
        "1",
    )
    assert result.exit_code == 0, result.output
    out = result.stdout
    assert "failed their own record's pattern" in out
    assert "smallpkg/core.py" in out and "the engine is not ready" in out
    assert "the engine was stopped: overheated" in out
    assert "dry run: nothing written" in out
    assert envelopes(db) == harvested["after"]


def test_pytest_arguments_after_double_dash_and_xdist(
    harvested: dict[str, Any], tmp_path: Path
) -> None:
    db = tmp_path / "copy.db"
    scan_into(harvested["root"], db)
    args = [str(harvested["root"]), "--repo", REPO, "--db", str(db), "--json", "--"]
    result = invoke(*args, "-n", "2", "-k", "positive or old_api_warns")
    assert result.exit_code == 0, result.output
    report = json.loads(result.stdout)
    assert report["counts"]["captures"] == 8 + 1
    assert report["counts"]["attached"] == 9
    assert report["pytest"]["outcomes"] == {"passed": 9, "skipped": 1}
    observed = envelopes(db)[line_of(CORE, 'raise ValueError(f"expected a positive')]
    assert observed["evidence"]["observed"][0]["count"] == 2


# -- errors -----------------------------------------------------------------------------


def test_a_checkout_not_in_the_db_says_scan_first(tmp_path: Path) -> None:
    root = write_package(tmp_path / "repo")
    db = tmp_path / "empty.db"
    scan_into(root, db, repo="acme/other")
    result = CliRunner().invoke(harvest, [str(root), "--repo", REPO, "--db", str(db)])
    assert result.exit_code == 2
    assert "holds no records of acme/smallpkg: scan it first" in result.output
    assert "errdex scan" in result.output


def test_a_missing_database_says_scan_first(tmp_path: Path) -> None:
    root = write_package(tmp_path / "repo")
    db = tmp_path / "none.db"
    result = CliRunner().invoke(harvest, [str(root), "--repo", REPO, "--db", str(db)])
    assert result.exit_code == 2
    assert f"no database at {db}: scan the repository first" in result.output
    assert not db.exists()


def test_records_from_another_checkout_are_refused(tmp_path: Path) -> None:
    root = write_package(tmp_path / "repo")
    db = tmp_path / "errdex.db"
    scan_into(root, db)
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    result = CliRunner().invoke(harvest, [str(elsewhere), "--repo", REPO, "--db", str(db)])
    assert result.exit_code == 2
    assert "not under" in result.output and "scan this checkout first" in result.output


def test_missing_path_and_missing_target(tmp_path: Path) -> None:
    result = CliRunner().invoke(harvest, ["--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "PATH" in result.output
    result = CliRunner().invoke(harvest, [str(tmp_path / "nope"), "--db", str(tmp_path / "x.db")])
    assert result.exit_code == 2 and "not a directory" in result.output


def test_interpreter_without_pytest_is_a_clear_error(tmp_path: Path) -> None:
    root = write_package(tmp_path / "repo")
    db = tmp_path / "errdex.db"
    scan_into(root, db)
    env_dir = tmp_path / "bare-venv"
    venv.create(env_dir, with_pip=False)
    python = env_dir / "bin" / "python"
    result = CliRunner().invoke(
        harvest, [str(root), "--repo", REPO, "--db", str(db), "--python", str(python)]
    )
    assert result.exit_code == 2
    assert "pytest is not installed in" in result.output
    assert "-m pip install pytest" in result.output
    missing = CliRunner().invoke(
        harvest, [str(root), "--repo", REPO, "--db", str(db), "--python", "/no/such/python"]
    )
    assert missing.exit_code == 2 and "no Python interpreter at /no/such/python" in missing.output


def test_ctrl_c_in_the_command_writes_nothing(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    root = write_package(tmp_path / "repo")
    db = tmp_path / "errdex.db"
    scan_into(root, db)
    before = envelopes(db)

    def interrupted(**kwargs: Any) -> collect.HarvestRun:
        raise HarvestInterrupted("interrupted: stopped after 3 captures; nothing was written", 3)

    monkeypatch.setattr("errdex.analyze.harvest.commands.run_pytest", interrupted)
    result = CliRunner().invoke(harvest, [str(root), "--repo", REPO, "--db", str(db)])
    assert result.exit_code == 130
    assert "nothing was written" in result.output
    assert envelopes(db) == before


# -- collect: the subprocess ------------------------------------------------------------


def test_ctrl_c_stops_the_test_run(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Ctrl-C reaching errdex only: the child is stopped, the captures so far counted."""
    root = write_package(tmp_path / "repo")
    marker = tmp_path / "slow-test-started"
    (root / "tests" / "test_zz_slow.py").write_text(
        "import os, pathlib, time\n\n"
        "def test_slow():\n"
        f"    pathlib.Path({str(marker)!r}).write_text('x')\n"
        "    time.sleep(120)\n"
    )
    seen: list[subprocess.Popen[bytes]] = []

    def wait_then_interrupt(proc: subprocess.Popen[bytes]) -> int:
        seen.append(proc)
        for _ in range(600):
            if marker.exists() or proc.poll() is not None:
                break
            time.sleep(0.1)
        raise KeyboardInterrupt

    monkeypatch.setattr(collect, "_wait", wait_then_interrupt)
    monkeypatch.setattr(collect, "STOP_STEPS", ((None, 0.2), *collect.STOP_STEPS[1:]))
    with pytest.raises(HarvestInterrupted) as info:
        run_pytest(cwd=root, roots=[root], pytest_args=["-q", "tests"])
    assert marker.exists()
    assert seen[0].poll() is not None  # the child is gone
    assert info.value.captures == 16
    assert "nothing was written" in str(info.value)


def test_plugin_runs_standalone_when_errdex_is_not_importable(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """In another environment the plugin is copied under its own name: stdlib + pytest only."""
    root = write_package(tmp_path / "repo")
    real_probe = collect.probe

    def no_errdex(python: str, **kwargs: Any) -> collect.Probe:
        found = real_probe(python, **kwargs)
        return collect.Probe(found.python, found.executable, found.pytest_version, None)

    monkeypatch.setattr(collect, "probe", no_errdex)
    run = run_pytest(cwd=root, roots=[root], pytest_args=["-q", "-k", "positive_again"])
    assert collect.STANDALONE_MODULE in run.command
    (capture,) = run.captures
    assert capture.error_class == "ValueError"
    assert capture.message == "expected a positive number, got -1"
    assert capture.site is not None
    assert capture.site[0] == os.path.realpath(root / CORE_PATH)
    assert capture.site[1] == line_of(CORE, 'raise ValueError(f"expected a positive')
    assert capture.test == "tests/test_core.py::test_check_positive_again"
    assert capture.expected == ("ValueError",)
    assert capture.via == "pytest.raises"
    assert run.summary is not None and run.summary.counts == {"passed": 1, "skipped": 1}


def test_warning_capture_keeps_the_stacklevel_location_too(tmp_path: Path) -> None:
    root = write_package(tmp_path / "repo")
    run = run_pytest(cwd=root, roots=[root], pytest_args=["-q", "-k", "test_old_api_warns"])
    (capture,) = run.captures
    assert capture.kind == "warning" and capture.via == "pytest.warns"
    assert capture.error_class == "DeprecationWarning"
    assert capture.match == "deprecated"
    assert capture.site == (os.path.realpath(root / CORE_PATH), line_of(CORE, "warnings.warn("))
    assert capture.reported is not None
    assert capture.reported[0].endswith("test_core.py")  # where stacklevel=2 points
    assert capture.reported[1] == line_of(TESTS, "core.old_api()")


# -- pure parts -------------------------------------------------------------------------


def test_layout_maps_files_to_record_paths(tmp_path: Path) -> None:
    site = tmp_path / "site-packages"
    (site / "networkx" / "classes").mkdir(parents=True)
    (site / "numpy").mkdir()
    graph = site / "networkx" / "classes" / "graph.py"
    graph.write_text("")
    (site / "numpy" / "core.py").write_text("")
    layout = RepoLayout(site, tops=frozenset({"networkx"}))
    assert layout.file_path(str(graph)) == "networkx/classes/graph.py"
    assert layout.file_path(str(site / "numpy" / "core.py")) is None
    assert layout.file_path("<string>") is None
    assert layout.roots() == [site / "networkx"]
    repo = tmp_path / "repo"
    (repo / "pkg").mkdir(parents=True)
    (repo / ".venv" / "lib" / "site-packages").mkdir(parents=True)
    (repo / "pkg" / "m.py").write_text("")
    (repo / ".venv" / "lib" / "site-packages" / "dep.py").write_text("")
    sub = RepoLayout(repo, path_prefix="src/")
    assert sub.file_path(str(repo / "pkg" / "m.py")) == "src/pkg/m.py"
    assert sub.file_path(str(repo / ".venv" / "lib" / "site-packages" / "dep.py")) is None
    assert sub.file_path(str(tmp_path / "other.py")) is None


def test_raising_frame_prefers_the_innermost_frame_inside_a_root(tmp_path: Path) -> None:
    root = tmp_path / "repo"
    frames = [
        ("/usr/lib/python3.11/random.py", 10, "sample"),
        (str(root / "pkg" / "m.py"), 20, "f"),
        (str(root / "tests" / "test_m.py"), 5, "test_f"),
    ]
    assert raising_frame(frames, [str(root)]) == frames[1]
    assert raising_frame(frames, [str(tmp_path / "elsewhere")]) is None
    venv_frame = (str(root / ".venv" / "lib" / "site-packages" / "dep.py"), 1, "g")
    assert raising_frame([venv_frame, *frames[1:]], [str(root)]) == frames[1]
    assert raising_frame([("<string>", 1, "x"), *frames[1:]]) == frames[1]


def test_class_name_as_a_traceback_prints_it() -> None:
    class Local(Exception):
        pass

    assert class_name(ValueError) == "ValueError"
    assert class_name(json.JSONDecodeError) == "json.decoder.JSONDecodeError"
    assert class_name(Local).endswith("test_class_name_as_a_traceback_prints_it.<locals>.Local")


def test_confirmed_links_survive_analysis_and_are_said(harvested: dict[str, Any]) -> None:
    from errdex.analyze.static import analyze_items

    with SqliteStore(harvested["db"]) as store:
        items = [(e["record"], e["evidence"]) for e in store.iter_envelopes(repo=REPO)]
    again = analyze_items(open_source(str(harvested["root"]), repo=REPO), items)
    line = line_of(CORE, "raise SmallError(")
    ((record, evidence),) = [
        (r, e) for r, e in again if r["filePath"] == CORE_PATH and r["lineNumber"] == line
    ]
    # the analyst links the tests again from their source; the run's confirmation stays
    assert [t.get("confirmed") for t in evidence["tests"]] == [True, True]
    assert "(`pytest.raises(SmallError)`, confirmed by running it)" in record["triggerScenarios"]


def test_a_test_that_fails_after_its_expectation_confirms_no_link(tmp_path: Path) -> None:
    """Its ``pytest.raises`` took the error at the site, but the test failed: the run
    shows no test that expects this error from this site and passes (blind review
    2026-12-06, record 10: a link "confirmed" by a run in which the test failed)."""
    root = write_package(tmp_path / "repo")
    (root / "tests" / "test_core.py").write_text(
        "import pytest\n\nfrom smallpkg import core\n\n\n"
        "def test_check_positive_then_fails():\n"
        "    with pytest.raises(ValueError):\n"
        "        core.check_positive(-1)\n"
        "    assert core.check_positive(2) == 3\n\n\n"
        "def test_check_name():\n"
        "    with pytest.raises(core.SmallError):\n"
        '        core.check_name("a b")\n'
    )
    db = tmp_path / "errdex.db"
    scan_into(root, db)
    result = invoke(str(root), "--repo", REPO, "--db", str(db), "--json")
    assert result.exit_code == 0, result.output
    after = envelopes(db)
    positive = after[line_of(CORE, 'raise ValueError(f"expected a positive')]["evidence"]
    assert positive["observed"]  # the run raised there
    assert [(t["name"], t.get("confirmed")) for t in positive["tests"]] == [
        ("tests/test_core.py::test_check_positive_then_fails", None)
    ]
    name = after[line_of(CORE, "raise SmallError(")]["evidence"]["tests"]
    assert {t.get("confirmed") for t in name} == {True}  # a passing test still confirms
