"""The task runs a real worker process per package: real scans, real failures."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.build.fetch import FetchError, newest_release
from errdex.build.task import TaskOptions, run_package
from errdex.store import SqliteStore


def test_a_repository_is_built_into_its_own_part_file(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    widgets, _ = two_repos
    outcome = run_package(str(widgets), TaskOptions(parts=str(tmp_path / "parts")))
    assert outcome["status"] == "done", outcome
    assert outcome["repo"] == "acme/widgets"
    with SqliteStore(outcome["part"]) as part:
        records = [e["record"] for e in part.iter_envelopes()]
    assert [(r["filePath"], r["lineNumber"], r["errorClass"]) for r in records] == [
        ("widgets/__init__.py", 3, "ValueError")
    ]
    assert outcome["records"] == 1


def test_a_repository_that_names_no_upstream_fails_with_its_cause(tmp_path: Path) -> None:
    plain = tmp_path / "plain"
    plain.mkdir()
    (plain / "m.py").write_text("raise ValueError('x')\n", encoding="utf-8")
    outcome = run_package(str(plain), TaskOptions(parts=str(tmp_path / "parts")))
    assert (outcome["status"], outcome["cause"]) == ("failed", "no-repo")


def test_a_package_the_index_does_not_have_fails_as_a_fetch(tmp_path: Path) -> None:
    outcome = run_package("errdex-no-such-package-7f3a==0.0.1", TaskOptions(parts=str(tmp_path)))
    assert (outcome["status"], outcome["cause"]) == ("failed", "fetch")
    assert "errdex-no-such-package-7f3a" in outcome["message"]


def test_a_worker_over_its_time_limit_is_stopped_and_said_to_time_out(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    widgets, _ = two_repos
    outcome = run_package(str(widgets), TaskOptions(parts=str(tmp_path), timeout=0.05))
    assert (outcome["status"], outcome["cause"]) == ("failed", "timeout")


def test_a_worker_over_its_memory_limit_fails_without_harming_the_caller(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    widgets, _ = two_repos
    outcome = run_package(str(widgets), TaskOptions(parts=str(tmp_path), memory_mb=32))
    assert (outcome["status"], outcome["cause"]) == ("failed", "memory"), outcome


def test_a_package_named_without_a_version_is_pinned_to_the_newest_release(tmp_path: Path) -> None:
    # the real package index: six is small, pure Python and names its repository
    outcome = run_package("six", TaskOptions(parts=str(tmp_path), analyze=False))
    assert outcome["status"] == "done", outcome
    assert outcome["repo"] == "benjaminp/six"
    pinned = run_package(
        f"six=={outcome['version']}", TaskOptions(parts=str(tmp_path), analyze=False)
    )
    assert (pinned["status"], pinned["version"], pinned["records"]) == (
        "done",
        outcome["version"],
        outcome["records"],
    )


def test_a_bare_name_the_index_lacks_fails_as_a_fetch_not_worth_retrying(tmp_path: Path) -> None:
    with pytest.raises(FetchError, match="errdex-no-such-package-7f3a") as info:
        newest_release("errdex-no-such-package-7f3a", cache_dir=tmp_path)
    assert info.value.transient is False
    assert [p.name for p in tmp_path.iterdir()] == []  # nothing left in the cache
