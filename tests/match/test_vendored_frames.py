"""A package that vendors another (``pip/_vendor/…``): scanned as installed, its vendored
copy is catalogued, and a traceback through the vendored frame resolves to that file,
not to a copy elsewhere that raises the same message."""

from __future__ import annotations

import importlib
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.match import answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from .conftest import SHA

PARSE = """\
def parse(text):
    if not text.isdigit():
        raise ValueError(f"tinyparse cannot read {text!r} as a number")
    return int(text)
"""

FILES = {
    "vendpkg/__init__.py": "",
    "vendpkg/api.py": "from vendpkg._vendor.tinyparse.core import parse\n\n\n"
    "def load(text):\n    return parse(text)\n",
    "vendpkg/fallback.py": PARSE,  # the same raise outside the vendored copy
    "vendpkg/_vendor/__init__.py": "",
    "vendpkg/_vendor/tinyparse/__init__.py": "",
    "vendpkg/_vendor/tinyparse/core.py": PARSE,
}


def _install(site: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """``vendpkg`` as pip installs it: its files and a dist-info whose RECORD lists them."""
    for rel, text in FILES.items():
        (site / rel).parent.mkdir(parents=True, exist_ok=True)
        (site / rel).write_text(text, encoding="utf-8")
    info = site / "vendpkg-1.0.dist-info"
    info.mkdir()
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: vendpkg\nVersion: 1.0\n")
    record = [f"{rel},," for rel in FILES] + ["vendpkg-1.0.dist-info/RECORD,,"]
    (info / "RECORD").write_text("\n".join(record) + "\n", encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()


def test_a_vendored_frame_resolves_to_the_vendored_file(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    site = tmp_path / "site-packages"
    _install(site, monkeypatch)
    checkout = open_source(package="vendpkg", repo="example/vendpkg", sha=SHA)
    result = scan_checkout(checkout, repo="example/vendpkg")
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "example/vendpkg", result, "2026-12-06T00:00:00.000Z")
    code = "from vendpkg.api import load\nload('x1')\n"
    run = subprocess.run([sys.executable, "-c", code], cwd=site, capture_output=True, text=True)
    assert "vendpkg/_vendor/tinyparse/core.py" in run.stderr
    (answer,) = answers(run.stderr, db=db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("vendpkg/_vendor/tinyparse/core.py", 3)
    assert best.confidence >= 0.9
    assert best.holes == {"text": "'x1'"}
    # the message alone cannot tell the vendored copy from the package's own
    (alone,) = answers("ValueError: tinyparse cannot read 'x1' as a number", db=db)
    assert {c.filePath for c in alone.group} == {
        "vendpkg/_vendor/tinyparse/core.py",
        "vendpkg/fallback.py",
    }
