"""``errdex scan`` runs the static analyst; ``errdex analyze`` reruns it over a catalogue."""

from __future__ import annotations

import json
import os
import re
import shutil
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner, Result

from errdex.cli import main
from errdex.store import SqliteStore

from .geompkg import write_geompkg

REPO = "acme/geom"
_ANSI = re.compile(r"\x1b\[[0-9;?]*[A-Za-z]")


def invoke(*args: str | Path) -> Result:
    return CliRunner().invoke(main, [str(a) for a in args], catch_exceptions=False)


def flat(text: str) -> str:
    return " ".join(_ANSI.sub("", text).split())


def envelopes(db: Path) -> dict[str, dict[str, Any]]:
    with SqliteStore(db) as store:
        return {e["record"]["errorMessage"].split()[0]: e for e in store.iter_envelopes()}


@pytest.fixture
def scanned(tmp_path: Path) -> tuple[Path, Path]:
    """(source root, database) after ``errdex scan --no-analyze``."""
    root = write_geompkg(tmp_path / "src")
    db = tmp_path / "cat.db"
    result = invoke("scan", root, "--repo", REPO, "--db", db, "--no-analyze", "--json")
    assert result.exit_code == 0, result.output
    assert json.loads(result.output)["analysisSeconds"] == 0
    return root, db


def test_scan_analyzes_by_default(tmp_path: Path) -> None:
    root = write_geompkg(tmp_path / "src")
    db = tmp_path / "cat.db"
    result = invoke("scan", root, "--repo", REPO, "--db", db, "--json")
    assert result.exit_code == 0, result.output
    found = envelopes(db)
    assert {e["evidence"]["analysis"] for e in found.values()} == {"static"}
    assert (
        found["rows"]["evidence"]["tests"][0]["name"] == "tests/test_shapes.py::test_negative_rows"
    )


def test_analyze_fills_in_a_catalogue_scanned_without_it(scanned: tuple[Path, Path]) -> None:
    _, db = scanned
    assert {e["evidence"]["analysis"] for e in envelopes(db).values()} == {"extractor"}
    result = invoke("analyze", "--db", db, "--dry-run")
    assert result.exit_code == 0, result.output
    assert "would update 7 of 7 records" in flat(result.output)
    assert {e["evidence"]["analysis"] for e in envelopes(db).values()} == {"extractor"}

    result = invoke("analyze", "--db", db, "--only-missing", "--limit", "3")
    assert result.exit_code == 0, result.output
    assert "updated 3 of 3 records" in flat(result.output)
    analyses = [e["evidence"]["analysis"] for e in envelopes(db).values()]
    assert sorted(analyses) == ["extractor"] * 4 + ["static"] * 3

    result = invoke("analyze", "--db", db, "--repo", REPO, "--only-missing")
    assert "updated 4 of 4 records" in flat(result.output)
    found = envelopes(db)
    assert {e["evidence"]["analysis"] for e in found.values()} == {"static"}
    assert found["zero-area"]["evidence"]["tests"][0]["name"].endswith("test_zero_rect")


def test_changed_code_is_left_alone(scanned: tuple[Path, Path]) -> None:
    root, db = scanned
    path = root / "geompkg" / "_check.py"
    path.write_text("\n\n" + path.read_text())  # every line moves: the records are stale
    result = invoke("analyze", "--db", db)
    assert result.exit_code == 0, result.output
    out = flat(result.output)
    assert "updated 5 of 7 records" in out
    assert "2 record(s) left as they were: their code changed since the scan" in out
    assert "geompkg/_check.py" in out
    found = envelopes(db)
    assert found["fill"]["evidence"]["analysis"] == "extractor"
    assert found["rows"]["evidence"]["analysis"] == "static"


def test_source_gone_is_said_clearly(scanned: tuple[Path, Path]) -> None:
    root, db = scanned
    shutil.rmtree(root)
    result = invoke("analyze", "--db", db)
    assert result.exit_code == 1
    out = flat(result.output)
    assert "source not available" in out and "no longer exists" in out and str(root) in out


def test_llm_without_the_model_analyst_is_a_clear_error(
    scanned: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, db = scanned
    monkeypatch.setitem(sys.modules, "errdex.analyze.llm.runner", None)  # import fails
    result = invoke("analyze", "--db", db, "--llm", "openai:gpt-4.1-mini")
    assert result.exit_code == 2
    assert "LLM analyst is not available" in flat(result.output)


def test_base_url_needs_llm(scanned: tuple[Path, Path]) -> None:
    _, db = scanned
    result = invoke("analyze", "--db", db, "--base-url", "http://localhost:1")
    assert result.exit_code == 2
    assert "--base-url only applies with --llm" in flat(result.output)


def test_help_lists_the_options() -> None:
    out = flat(invoke("analyze", "--help").output)
    for option in (
        "--db",
        "--repo OWNER/NAME",
        "--llm PROVIDER:MODEL",
        "--concurrency",
        "--limit N",
        "--only-missing",
        "--dry-run",
        "--base-url URL",
    ):
        assert option in out
    assert "--no-analyze" in flat(invoke("scan", "--help").output)


def test_llm_without_a_key_for_a_remote_provider_is_a_clean_error(
    scanned: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, db = scanned
    monkeypatch.delenv("OPENAI_API_KEY", raising=False)
    monkeypatch.delenv("OPENAI_BASE_URL", raising=False)
    result = invoke("analyze", "--db", db, "--llm", "openai:gpt-4.1-mini")
    assert result.exit_code == 2
    assert "OPENAI_API_KEY is not set" in flat(result.output)
    assert "Traceback" not in result.output


def _errdex(seed: str, *args: str | Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONHASHSEED": seed}
    return subprocess.run(
        [sys.executable, "-m", "errdex.cli", *map(str, args)],
        env=env,
        capture_output=True,
        text=True,
        check=True,
    )


def _rows(db: Path) -> tuple[int, dict[str, tuple[str, str]]]:
    with SqliteStore(db) as store:
        version = store.data_version()
        rows = store.connection.execute("SELECT id, record, evidence FROM records").fetchall()
    return version, {row[0]: (row[1], row[2]) for row in rows}


def test_analyze_is_deterministic_on_unchanged_records(tmp_path: Path) -> None:
    root = write_geompkg(tmp_path / "src")
    # messages with two literal runs of one length: a set's order (hash seed) once chose
    # which of them the handling code checks for
    (root / "geompkg" / "ties.py").write_text(
        "def tie(x):\n"
        + "".join(
            f"    if x == {i}:\n        raise ValueError(f'{a} {{x}} {b}')\n"
            for i, (a, b) in enumerate(
                [("left", "wing"), ("abcd", "wxyz"), ("path is", "on disk"), ("one", "two")]
                + [(f"head{i}", f"tail{i}") for i in range(6)]
            )
        )
    )
    db = tmp_path / "cat.db"
    _errdex("1", "scan", root, "--repo", REPO, "--db", db)
    _errdex("2", "analyze", "--db", db)
    before = _rows(db)
    out = _errdex("3", "analyze", "--db", db).stdout
    after = _rows(db)
    assert after[1] == before[1]  # no record rewritten
    assert after[0] == before[0]  # and the data version kept
    assert "analysed to the same result" in flat(out)


def test_analyze_keeps_files_over_the_budget_and_says_so(
    scanned: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    _, db = scanned
    monkeypatch.setenv("ERRDEX_ANALYSIS_BUDGET", "1e-9")
    result = invoke("analyze", "--db", db)
    assert result.exit_code == 0, result.output
    assert "over the analysis budget kept as they were" in flat(result.output)
    assert "geompkg/shapes.py" in flat(result.output)
    assert {e["evidence"]["analysis"] for e in envelopes(db).values()} == {"extractor"}
