"""The default catalogue: what the environment offers, and `errdex scan --environment`."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path

import pytest
from click.testing import CliRunner

import errdex.environment as environment
from errdex.cli import main
from errdex.environment import EnvironmentTarget, environment_targets
from errdex.source import open_source
from errdex.store import SqliteStore


def test_targets_start_with_the_stdlib_and_say_why_others_are_left_out() -> None:
    targets = list(environment_targets())
    assert targets[0].checkout is not None and targets[0].checkout.repo == "python/cpython"
    by_name = {t.name.lower(): t for t in targets}
    assert (
        by_name["click"].checkout is not None and by_name["click"].checkout.repo == "pallets/click"
    )
    repos = [t.checkout.repo for t in targets if t.checkout is not None]
    assert len(repos) == len(set(repos)), "one repository is scanned once"
    for target in targets:
        assert (target.checkout is None) == (target.reason is not None)


def test_scan_environment_builds_one_catalogue(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def few() -> Iterator[EnvironmentTarget]:
        yield EnvironmentTarget("click", open_source(package="click"))
        yield EnvironmentTarget("jinja2", open_source(package="jinja2"))
        yield EnvironmentTarget("mystery", None, "its metadata names no repository (Project-URL)")

    monkeypatch.setattr(environment, "environment_targets", few)
    db = tmp_path / "env.db"
    result = CliRunner().invoke(
        main, ["scan", "--environment", "--db", str(db), "--jobs", "2", "--json"]
    )
    assert result.exit_code == 0, result.output
    report = json.loads(result.output)
    rows = {row["name"]: row for row in report["targets"]}
    assert rows["mystery"] == {
        "name": "mystery",
        "skipped": "its metadata names no repository (Project-URL)",
    }
    assert rows["click"]["repo"] == "pallets/click" and rows["click"]["records"] > 50
    with SqliteStore(db) as store:
        stats = store.stats()
    assert {r["repo"] for r in stats["repos"]} == {"pallets/click", "pallets/jinja"}
    assert stats["records"] == rows["click"]["records"] + rows["jinja2"]["records"]
