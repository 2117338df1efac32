"""The pytest plugin, run by ``pytester`` over test files that hit a catalogued package."""

from __future__ import annotations

import json
import os
import tomllib
from pathlib import Path
from typing import Any

import pytest

from errdex.integrations import pytest_entry
from errdex.store import open_store
from tests.integrations.acme import GEAR_LINE, SPRING_LINE, build_catalogue

pytest_plugins = ["pytester"]

ROOT = Path(__file__).resolve().parents[2]
#: Loaded by module name, with the entry point's name blocked: an installed errdex's entry
#: point would otherwise register the same module a second time, which pytest refuses.
PLUGIN = ("-p", "no:errdex", "-p", "errdex.integrations.pytest_plugin")
GEAR_SITE = f"widgets/__init__.py:{GEAR_LINE}"
SPRING_SITE = f"widgets/__init__.py:{SPRING_LINE}"

TESTS = """
import pytest
import widgets

@pytest.fixture
def broken():
    widgets.spring(0)

def test_gear():
    widgets.gear(1)

def test_fine():
    assert widgets.gear(3) == 3

def test_setup_error(broken):
    pass

def test_uncatalogued():
    {}["missing"]
"""


@pytest.fixture
def project(
    pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch
) -> tuple[pytest.Pytester, Path]:
    """A pytester folder with tests that use ``widgets`` (on the runs' path), and
    widgets' catalogue."""
    widgets, db = build_catalogue(pytester.path / "acme")
    path = [str(widgets), *filter(None, [os.environ.get("PYTHONPATH")])]
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join(path))
    pytester.makepyfile(test_widgets=TESTS)
    return pytester, db


def record_id(db: Path, line: int) -> str:
    """The id the scan gave the raise site at ``line`` of widgets (read from the store)."""
    store = open_store(db)
    try:
        rows = list(store.iter_envelopes())
    finally:
        store.close()
    (found,) = [r["record"]["id"] for r in rows if r["record"]["lineNumber"] == line]
    return str(found)


def sections(result: pytest.RunResult) -> list[str]:
    """The text of each "errdex" section pytest printed."""
    text = result.stdout.str()
    parts = text.split("- errdex -")[1:]
    return [part.split("\n", 1)[1].split("\n___", 1)[0].split("\n===", 1)[0] for part in parts]


def test_off_unless_asked(project: tuple[pytest.Pytester, Path]) -> None:
    pytester, db = project
    result = pytester.runpytest_subprocess(*PLUGIN, "--errdex-db", str(db))
    result.assert_outcomes(passed=1, failed=2, errors=1)
    assert "errdex" not in result.stdout.str()


def test_off_imports_nothing_of_the_matcher(pytester: pytest.Pytester) -> None:
    pytester.makepyfile(
        """
        import sys
        def test_nothing_loaded():
            assert "errdex.integrations.live" not in sys.modules
            assert "errdex.integrations.block" not in sys.modules
        """
    )
    pytester.runpytest_subprocess(*PLUGIN).assert_outcomes(passed=1)


def test_each_failure_and_error_gets_a_section(project: tuple[pytest.Pytester, Path]) -> None:
    pytester, db = project
    result = pytester.runpytest_subprocess(*PLUGIN, "--errdex", "--errdex-db", str(db))
    result.assert_outcomes(passed=1, failed=2, errors=1)
    found = sections(result)
    assert len(found) == 3
    assert any(GEAR_SITE in text for text in found)
    assert any(SPRING_SITE in text for text in found)  # the fixture's setup error
    assert any("KeyError" in text and "not catalogued" in text for text in found)
    assert f"errdex: catalogue {db}" in result.stdout.str()


def test_the_ini_option_turns_it_on(project: tuple[pytest.Pytester, Path]) -> None:
    pytester, db = project
    pytester.makeini("[pytest]\nerrdex = true\n")
    result = pytester.runpytest_subprocess(*PLUGIN, "--errdex-db", str(db), "-k", "gear or fine")
    result.assert_outcomes(passed=1, failed=1)
    (text,) = sections(result)
    assert GEAR_SITE in text


def test_json_lines_name_the_matched_records(project: tuple[pytest.Pytester, Path]) -> None:
    pytester, db = project
    out = pytester.path / "reports" / "errdex.jsonl"
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--errdex-json", str(out), "--errdex-db", str(db)
    )
    result.assert_outcomes(passed=1, failed=2, errors=1)
    lines = [json.loads(line) for line in out.read_text(encoding="utf-8").splitlines()]
    by_test = {line["nodeid"].split("::")[1]: line for line in lines}
    assert sorted(by_test) == ["test_gear", "test_setup_error", "test_uncatalogued"]

    gear = by_test["test_gear"]
    assert (gear["errorClass"], gear["status"], gear["when"]) == ("ValueError", "matched", "call")
    assert gear["message"] == "a gear needs at least 3 teeth, got 1"
    assert gear["candidates"][0]["id"] == record_id(db, GEAR_LINE)
    assert 0 < gear["candidates"][0]["confidence"] <= 1

    setup = by_test["test_setup_error"]
    assert (setup["errorClass"], setup["when"]) == ("TypeError", "setup")
    assert setup["candidates"][0]["id"] == record_id(db, SPRING_LINE)

    missing = by_test["test_uncatalogued"]
    assert (missing["errorClass"], missing["status"], missing["candidates"]) == (
        "KeyError",
        "not catalogued",
        [],
    )


def test_a_missing_catalogue_is_said_and_the_run_goes_on(pytester: pytest.Pytester) -> None:
    pytester.makepyfile("def test_boom():\n    raise RuntimeError('boom')\n")
    missing = pytester.path / "nowhere.db"
    out = pytester.path / "out.jsonl"
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--errdex", "--errdex-db", str(missing), "--errdex-json", str(out)
    )
    result.assert_outcomes(failed=1)
    assert f"errdex: catalogue {missing} does not exist" in result.stdout.str()
    (line,) = [json.loads(text) for text in out.read_text().splitlines()]
    assert (line["status"], line["candidates"]) == ("no catalogue", [])


def test_a_broken_catalogue_never_fails_the_run(project: tuple[pytest.Pytester, Path]) -> None:
    pytester, db = project
    db.write_bytes(b"this is not a sqlite database" * 100)
    result = pytester.runpytest_subprocess(*PLUGIN, "--errdex", "--errdex-db", str(db))
    result.assert_outcomes(passed=1, failed=2, errors=1)
    found = sections(result)
    assert len(found) == 3
    assert all("errdex could not explain this error" in text for text in found)
    assert "INTERNALERROR" not in result.stdout.str()


def _install_entry_point(pytester: pytest.Pytester, monkeypatch: pytest.MonkeyPatch) -> None:
    """The ``pytest11`` entry point that pyproject.toml declares, copied as it stands into a
    distribution's metadata on the runs' path (an editable install sees a new entry point
    only after a reinstall), as an installed errdex has it."""
    declared: dict[str, Any] = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    points = declared["project"]["entry-points"]["pytest11"]
    assert points == {"errdex": pytest_entry.__name__}
    site = pytester.path / "site"
    dist = site / "errdex_entry_probe-0.dist-info"
    dist.mkdir(parents=True)
    dist.joinpath("METADATA").write_text(
        "Metadata-Version: 2.1\nName: errdex-entry-probe\nVersion: 0\n"
    )
    lines = "".join(f"{name} = {target}\n" for name, target in points.items())
    dist.joinpath("entry_points.txt").write_text(f"[pytest11]\n{lines}")
    monkeypatch.setenv("PYTHONPATH", os.pathsep.join([str(site), os.environ["PYTHONPATH"]]))
    for name in ("CI", "BUILD_NUMBER"):  # pytest prints differently on CI
        monkeypatch.delenv(name, raising=False)


@pytest.mark.parametrize(
    ("args", "conftest", "autoload"),
    [
        pytest.param((), False, True, id="entry point"),
        pytest.param(("-p", "errdex"), False, True, id="-p errdex"),
        pytest.param(("-p", "errdex.integrations.pytest_plugin"), False, True, id="-p module"),
        pytest.param((), True, True, id="conftest pytest_plugins"),
        pytest.param(("-p", "errdex"), False, False, id="-p errdex, no autoload"),
        pytest.param(
            ("-p", "errdex.integrations.pytest_plugin"), False, False, id="-p module, no autoload"
        ),
    ],
)
def test_every_way_of_loading_the_plugin_works_beside_the_entry_point(
    project: tuple[pytest.Pytester, Path],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
    conftest: bool,
    autoload: bool,
) -> None:
    """With errdex installed (its entry point registered), naming the plugin again, by the
    entry point's name or by the module's, loads it once: pytest refused the module
    registered under two names ("Plugin already registered under a different name")."""
    pytester, db = project
    _install_entry_point(pytester, monkeypatch)
    if conftest:
        pytester.makeconftest('pytest_plugins = ["errdex.integrations.pytest_plugin"]\n')
    if not autoload:
        monkeypatch.setenv("PYTEST_DISABLE_PLUGIN_AUTOLOAD", "1")
    result = pytester.runpytest_subprocess(*args, "--errdex", "--errdex-db", str(db), "-k", "gear")
    assert "already registered" not in result.stderr.str() + result.stdout.str()
    result.assert_outcomes(failed=1, deselected=3)
    (text,) = sections(result)
    assert GEAR_SITE in text


def test_no_errdex_turns_the_entry_point_off(
    project: tuple[pytest.Pytester, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    pytester, _db = project
    _install_entry_point(pytester, monkeypatch)
    result = pytester.runpytest_subprocess("-p", "no:errdex", "-k", "gear")
    result.assert_outcomes(failed=1, deselected=3)
    result = pytester.runpytest_subprocess("-p", "no:errdex", "--errdex", "-k", "gear")
    assert result.ret == pytest.ExitCode.USAGE_ERROR  # the option is errdex's: not loaded
    assert "unrecognized arguments: --errdex" in result.stderr.str()


def test_the_section_is_titled_once(project: tuple[pytest.Pytester, Path]) -> None:
    """pytest titles the section "errdex"; the block under it starts with the raise site,
    not with a second errdex title rule."""
    pytester, db = project
    result = pytester.runpytest_subprocess(
        *PLUGIN, "--errdex", "--errdex-db", str(db), "-k", "gear"
    )
    result.assert_outcomes(failed=1, deselected=3)
    (text,) = sections(result)
    assert "── errdex" not in text
    assert text.lstrip("\n").startswith(f"ValueError raised at {GEAR_SITE}")


def test_json_lines_come_back_from_xdist_workers(project: tuple[pytest.Pytester, Path]) -> None:
    """Under pytest-xdist the reports are made in a worker and the line written by the
    controller, from what the report carried across."""
    pytester, db = project
    out = pytester.path / "errdex.jsonl"
    result = pytester.runpytest_subprocess(
        *PLUGIN, "-n", "1", "--errdex-json", str(out), "--errdex-db", str(db), "-k", "gear"
    )
    result.assert_outcomes(failed=1)
    assert len(sections(result)) == 1
    (line,) = [json.loads(text) for text in out.read_text(encoding="utf-8").splitlines()]
    assert line["nodeid"] == "test_widgets.py::test_gear"
    assert line["candidates"][0]["id"] == record_id(db, GEAR_LINE)
