"""bench/_stdlib_cache.py: the stdlib's catalogue is scanned once per errdex source and
Python, and read back whole after that."""

from __future__ import annotations

import sys
from pathlib import Path
from typing import Any

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench"))

from _stdlib_cache import cache_key, cached_stdlib


def _package(root: Path) -> Path:
    package = root / "errdex"
    (package / "match").mkdir(parents=True)
    (package / "__init__.py").write_text("")
    (package / "match" / "rank.py").write_text("SCORE = 1\n")
    return package


def test_a_second_run_reuses_the_scan_and_a_change_to_errdex_scans_again(tmp_path: Path) -> None:
    package = _package(tmp_path)
    scans: list[int] = []

    def scan() -> list[dict[str, Any]]:
        scans.append(1)
        return [{"record": {"filePath": "Lib/json/decoder.py", "lineNumber": len(scans)}}]

    first, path, reused = cached_stdlib(scan, package, tmp_path / "cache")
    assert not reused and path.is_file() and len(scans) == 1
    again, same, reused = cached_stdlib(scan, package, tmp_path / "cache")
    assert reused and same == path and again == first and len(scans) == 1
    # compiled caches are no change; a source edit is
    (package / "match" / "__pycache__").mkdir()
    (package / "match" / "__pycache__" / "rank.cpython-311.pyc").write_bytes(b"\0")
    assert cached_stdlib(scan, package, tmp_path / "cache")[2]
    (package / "match" / "rank.py").write_text("SCORE = 2\n")
    fresh, other, reused = cached_stdlib(scan, package, tmp_path / "cache")
    assert not reused and other != path and len(scans) == 2
    assert fresh[0]["record"]["lineNumber"] == 2
    assert not list((tmp_path / "cache").glob("*.part"))


def test_the_key_names_the_python_version(tmp_path: Path) -> None:
    version = ".".join(str(p) for p in sys.version_info[:3])
    assert version in cache_key(_package(tmp_path))
