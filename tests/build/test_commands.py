"""`errdex build` end to end: real worker processes, a real local Ray cluster, a real catalogue."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from errdex.build.runner import Placement, run_tasks
from errdex.build.task import TaskOptions
from errdex.store import SqliteStore


def _build(*args: str, cwd: Path) -> tuple[int, dict[str, Any]]:
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "build", *args, "--json"],
        cwd=cwd,
        capture_output=True,
        text=True,
        timeout=600,
        env={**os.environ, "RAY_AUTH_MODE": "disabled"},
    )
    assert done.stdout.strip().startswith("{"), done.stderr[-2000:]
    return done.returncode, json.loads(done.stdout)


@pytest.mark.parametrize("ray", ["local", "off"])
def test_a_list_is_built_merged_and_resumed(
    ray: str, two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    listing = tmp_path / "list.txt"
    listing.write_text(
        f"# two repositories, one package the index lacks, one bad line\n{two_repos[0]}\n"
        f"{two_repos[1]}\nerrdex-no-such-package-7f3a==0.0.1\nrequests >= 2\n",
        encoding="utf-8",
    )
    status, summary = _build(
        str(listing), "--db", "cat.db", "--ray", ray, "--workers", "2", cwd=tmp_path
    )
    assert status == 1  # one entry failed
    assert (summary["built"], summary["failed"], summary["resumed"]) == (2, 1, 0)
    assert summary["failuresByCause"] == {"fetch": 1}
    assert [b["line"] for b in summary["badLines"]] == [5]
    with SqliteStore(tmp_path / "cat.db") as store:
        repos = sorted(s["repo"] for s in store.scans())
        records = sum(1 for _ in store.iter_envelopes())
    assert repos == ["acme/gadgets", "acme/widgets"]
    assert records == summary["recordsMerged"] == 3

    # the same command again builds only what failed, and writes no new scan
    status, again = _build(str(listing), "--db", "cat.db", "--ray", ray, cwd=tmp_path)
    assert (again["resumed"], again["failed"], again["recordsMerged"]) == (2, 1, 0)
    with SqliteStore(tmp_path / "cat.db") as store:
        assert len(store.scans()) == 2


def test_an_empty_list_is_a_usage_error(tmp_path: Path) -> None:
    (tmp_path / "list.txt").write_text("# nothing\n", encoding="utf-8")
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "build", "list.txt"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert done.returncode == 2
    assert "names nothing to build" in done.stderr


def test_a_timed_out_package_is_tried_again_then_reported(
    two_repos: tuple[Path, Path], tmp_path: Path
) -> None:
    seen: list[dict[str, Any]] = []
    run_tasks(
        [str(two_repos[0])],
        TaskOptions(parts=str(tmp_path), timeout=0.05),
        Placement(scheduler="local", retries=2),
        seen.append,
    )
    assert [(o["cause"], o["attempts"]) for o in seen] == [("timeout", 3)]
