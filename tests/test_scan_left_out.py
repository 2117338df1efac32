"""The parts of read files a scan left out are named again by a scan that reuses the
catalogue's records (``cache.reused == "catalogue"``), as its skipped files are."""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest
from click.testing import CliRunner

from errdex.cli import main
from tests.extract.test_cython_signature import unread_one

PYX = "def one(a, b):\n    return a\n\ndef two(a):\n    raise ValueError('boom')\n"


def _scan(tmp_path: Path) -> dict[str, Any]:
    args = [str(tmp_path / "src"), "--repo", "o/pkg", "--db", str(tmp_path / "e.db"), "--json"]
    out = CliRunner().invoke(main, ["scan", *args])
    assert out.exit_code == 0, out.output
    data: dict[str, Any] = json.loads(out.stdout)
    return data


def test_a_scan_over_the_catalogue_names_the_parts_left_out(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    unread_one(monkeypatch)
    monkeypatch.setenv("ERRDEX_SCAN_CACHE", str(tmp_path / "cache.sqlite"))
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "m.pyx").write_text(PYX)
    (tmp_path / "src" / "pkg" / "bad.pyx").write_text("def f(:\n    raise ValueError('x')\n")
    first = _scan(tmp_path)
    again = _scan(tmp_path)
    assert again["cache"]["reused"] == "catalogue"
    assert [s["path"] for s in again["skipped"]] == ["pkg/bad.pyx"]
    (part,) = first["partsLeftOut"]
    assert "argument errors of one() at line 1 not read" in part["what"]
    assert again["partsLeftOut"] == first["partsLeftOut"]


def _results(cache: Path) -> dict[str, Any]:
    import pickle
    import sqlite3

    with sqlite3.connect(cache) as conn:
        rows = conn.execute("SELECT key, blob FROM results").fetchall()
    return {key: pickle.loads(blob) for key, blob in rows}


def test_a_scan_with_no_whole_result_keeps_the_last_one(
    monkeypatch: pytest.MonkeyPatch, tmp_path: Path
) -> None:
    """A scan that analysed nothing but left parts out stored them in place of the last
    whole result (same key), so the next scan had none to reuse."""
    unread_one(monkeypatch)
    cache = tmp_path / "cache.sqlite"
    monkeypatch.setenv("ERRDEX_SCAN_CACHE", str(cache))
    (tmp_path / "src" / "pkg").mkdir(parents=True)
    (tmp_path / "src" / "pkg" / "m.pyx").write_text(PYX)
    py = tmp_path / "src" / "pkg" / "a.py"
    py.write_text("def f(x):\n    if x:\n        raise ValueError('bad x')\n")
    _scan(tmp_path)
    whole = {k for k, v in _results(cache).items() if "analyzed_at" in v}
    assert whole
    py.unlink()
    second = _scan(tmp_path)
    assert second["partsLeftOut"]
    after = _results(cache)
    assert all("analyzed_at" in after[k] for k in whole)
    assert _scan(tmp_path)["partsLeftOut"] == second["partsLeftOut"]
