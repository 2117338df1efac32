"""``errdex scan`` with the scan cache: the errdex command in a subprocess, a real git
repository, the real catalogue and cache files."""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from .source.helpers import commit_all, run_git, write

CORE = "def check(x):\n    if x < 0:\n        raise ValueError(f'negative: {x}')\n"
OTHER = "def other(n):\n    raise TypeError('n must not be None')\n"


@pytest.fixture
def tree(tmp_path: Path) -> Path:
    root = tmp_path / "proj"
    root.mkdir()
    run_git(root, "init", "-q", "-b", "main")
    write(root, "pkg/__init__.py", "")
    write(root, "pkg/core.py", CORE)
    write(root, "pkg/other.py", OTHER)
    commit_all(root)
    past = (os.stat(root).st_mtime_ns // 1_000_000_000 - 60) * 1_000_000_000
    for path in root.rglob("*.py"):
        os.utime(path, ns=(past, past))
    return root


def _argv(tree: Path, db: Path, *extra: str) -> list[str]:
    return [sys.executable, "-m", "errdex.cli", "scan", str(tree), "--repo", "owner/proj",
            "--db", str(db), *extra]  # fmt: skip


def _scan(tree: Path, db: Path, *extra: str) -> dict[str, Any]:
    proc = subprocess.run(
        _argv(tree, db, "--json", *extra),
        capture_output=True,
        text=True,
        check=True,
    )
    summary: dict[str, Any] = json.loads(proc.stdout)
    return summary


def _records(db: Path) -> dict[str, tuple[str, int]]:
    """Current records: id -> (message, scan id)."""
    conn = sqlite3.connect(db)
    rows = conn.execute("SELECT id, record, scan_id FROM records WHERE stale = 0").fetchall()
    conn.close()
    return {r[0]: (json.loads(r[1])["errorMessage"], r[2]) for r in rows}


def test_a_rescan_reuses_the_catalogue_and_an_edit_reads_one_file(
    tree: Path, tmp_path: Path
) -> None:
    db = tmp_path / "c.db"
    first = _scan(tree, db)
    assert first["cache"]["reused"] == "files" and first["cache"]["filesReused"] == 0
    stored = _records(db)
    again = _scan(tree, db)
    assert again["cache"]["reused"] == "catalogue"
    assert again["cache"]["filesReread"] == 0 and again["records"] == first["records"]
    after = _records(db)
    assert {k: v[0] for k, v in after.items()} == {k: v[0] for k, v in stored.items()}
    assert {v[1] for v in after.values()} == {max(v[1] for v in stored.values()) + 1}

    write(tree, "pkg/other.py", OTHER.replace("must not be None", "is required"))
    edited = _scan(tree, db)
    assert (edited["cache"]["filesReused"], edited["cache"]["filesReread"]) == (2, 1)
    messages = {v[0] for v in _records(db).values()}
    assert "n is required" in messages and "n must not be None" not in messages


def test_a_deleted_file_leaves_no_current_record(tree: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    _scan(tree, db)
    (tree / "pkg/other.py").unlink()
    _scan(tree, db)
    assert {v[0] for v in _records(db).values()} == {"negative: {x}"}


def test_no_cache_reads_every_file(tree: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    _scan(tree, db)
    full = _scan(tree, db, "--no-cache")
    assert (full["cache"]["filesReused"], full["cache"]["filesReread"]) == (0, 3)
    assert full["records"] == 2


def test_the_summary_says_how_many_files_were_reused(tree: Path, tmp_path: Path) -> None:
    db = tmp_path / "c.db"
    _scan(tree, db)
    proc = subprocess.run(
        _argv(tree, db, "--no-progress"),
        capture_output=True,
        text=True,
        check=True,
        env={**os.environ, "COLUMNS": "200"},
    )
    assert "3 files reused, 0 re-read" in proc.stdout
