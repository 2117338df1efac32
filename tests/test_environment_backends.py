"""``errdex scan --environment --db`` on either backend, and ``errdex analyze`` after it:
the environment's sources are remembered by the store, PostgreSQL's as SQLite's."""

from __future__ import annotations

import json
from collections.abc import Iterator

import pytest
from click.testing import CliRunner

from errdex import environment
from errdex.cli import main
from errdex.environment import EnvironmentTarget
from errdex.source import open_source
from errdex.store import open_store
from tests.store.conftest import db  # noqa: F401  # the two-backend fixture


def test_environment_scan_then_analyze_on_either_backend(
    db: str,  # noqa: F811
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    def one() -> Iterator[EnvironmentTarget]:
        yield EnvironmentTarget("click", open_source(package="click"))

    monkeypatch.setattr(environment, "environment_targets", one)
    result = CliRunner().invoke(
        main, ["scan", "--environment", "--db", db, "--no-analyze", "--json"]
    )
    assert result.exit_code == 0, result.output
    rows = {row["name"]: row for row in json.loads(result.output)["targets"]}
    assert rows["click"]["repo"] == "pallets/click" and rows["click"]["records"] > 50
    with open_store(db) as store:
        assert store.stats()["records"] == rows["click"]["records"]
        assert store.noted_source("pallets/click") is not None

    result = CliRunner().invoke(main, ["analyze", "--db", db, "--repo", "pallets/click"])
    assert result.exit_code == 0, result.output
    assert f"updated {rows['click']['records']:,} of" in " ".join(result.output.split())
    with open_store(db) as store:
        assert {e["evidence"]["analysis"] for e in store.iter_envelopes()} == {"static"}
