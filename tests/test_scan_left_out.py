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
