"""The default catalogue: what the environment offers, and `errdex scan --environment`."""

from __future__ import annotations

import importlib
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
from tests.source.helpers import commit_all, run_git, write


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


def _editable_install(site: Path, name: str, project: Path) -> None:
    """A distribution installed editable from ``project``, as pip leaves it."""
    info = site / f"{name}-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text(f"Metadata-Version: 2.1\nName: {name}\nVersion: 0.1\n")
    (info / "RECORD").write_text(f"{name}-0.1.dist-info/METADATA,,\n")
    direct = {"url": project.as_uri(), "dir_info": {"editable": True}}
    (info / "direct_url.json").write_text(json.dumps(direct))


def test_an_editable_checkout_is_not_named_after_its_folders(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """errdex's own checkout, cloned from /work/main, was listed as ``work/main``."""
    upstream = tmp_path / "work" / "main"
    write(upstream, "editme/__init__.py", "raise ValueError('x')\n")
    run_git(upstream, "init", "-q", "-b", "main")
    commit_all(upstream)
    clone = tmp_path / "checkout"
    run_git(tmp_path, "clone", "-q", str(upstream), str(clone))
    site = tmp_path / "site"
    _editable_install(site, "editme", clone)
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()
    by_name = {t.name: t for t in environment_targets(include_stdlib=False)}
    target = by_name["editme"]
    assert target.checkout is None
    assert target.reason == (
        f"its git remote {str(upstream)!r} is a path on this machine, not a repository on a "
        "forge and its metadata names no repository (Project-URL)"
    )
    assert not any(t.checkout.repo == "work/main" for t in by_name.values() if t.checkout)
