from __future__ import annotations

from pathlib import Path

from errdex.build.merge import merge_parts
from errdex.build.task import TaskOptions, run_package
from errdex.store import SqliteStore

from .conftest import make_repo


def test_parts_of_one_repository_become_one_scan_and_none_is_stale(tmp_path: Path) -> None:
    # two distributions built from one monorepo: writing them as two scans would mark
    # the first one's records stale
    one = make_repo(tmp_path / "a", "mono", "raise ValueError('first part')\n")
    two = make_repo(tmp_path / "b", "mono", "def f():\n    raise TypeError('second part')\n")
    options = TaskOptions(parts=str(tmp_path / "parts"), analyze=False)
    outcomes = [run_package(str(one), options), run_package(str(two), options)]
    assert [o["status"] for o in outcomes] == ["done", "done"]
    # both trees hold mono/__init__.py: the same path with two different raises
    noted: list[tuple[str, int]] = []
    with SqliteStore(tmp_path / "cat.db") as store:
        result = merge_parts(
            outcomes, store, merged=lambda o, scan: noted.append((o["spec"], scan))
        )
        scans = store.scans("acme/mono")
        live = [e["record"]["errorMessage"] for e in store.iter_envelopes("acme/mono")]
    assert result.repos == 1 and len(scans) == 1
    assert sorted(live) == ["first part", "second part"]
    assert [s for s, _ in noted] == [o["spec"] for o in outcomes]


def test_each_repository_keeps_its_own_scan(two_repos: tuple[Path, Path], tmp_path: Path) -> None:
    options = TaskOptions(parts=str(tmp_path / "parts"), analyze=False)
    outcomes = [run_package(str(r), options) for r in two_repos]
    with SqliteStore(tmp_path / "cat.db") as store:
        result = merge_parts(outcomes, store)
        repos = sorted({s["repo"] for s in store.scans()})
        count = sum(1 for _ in store.iter_envelopes())
    assert repos == ["acme/gadgets", "acme/widgets"]
    assert result.records == count == 3
