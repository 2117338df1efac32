"""Real C/C++ extension sources for the C extractor's tests: sdists fetched once with pip
into errdex's test cache, and the same versions' wheels installed beside them so their
compiled code raises real errors."""

from __future__ import annotations

import os
import subprocess
import sys
import tarfile
from pathlib import Path

import pytest

from errdex.extract.site import ErrorSite
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

#: Sources and wheels of the same versions, so the C lines match what runs.
PACKAGES = {"simplejson": "4.3.0", "ujson": "6.1.0", "pybind11": "3.1.0", "markupsafe": "3.0.4"}


def cache_dir() -> Path:
    root = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-test"))
    root.mkdir(parents=True, exist_ok=True)
    return root


def _pip(*args: str) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "pip", "--disable-pip-version-check", *args],
        capture_output=True,
        text=True,
        timeout=600,
    )
    if done.returncode != 0:
        pytest.skip(f"pip cannot fetch the sources here: {done.stderr.strip()[-300:]}")


def sdist(name: str) -> Path:
    """The unpacked sdist of ``name`` at its pinned version (downloaded once)."""
    version = PACKAGES[name]
    root = cache_dir() / "sdist"
    unpacked = root / f"{name}-{version}"
    if unpacked.is_dir():
        return unpacked
    archive = root / f"{name}-{version}.tar.gz"
    if not archive.exists():
        root.mkdir(parents=True, exist_ok=True)
        _pip("download", "--no-deps", "--no-binary", ":all:", "-d", str(root), f"{name}=={version}")
    with tarfile.open(archive) as tar:
        tar.extractall(root, filter="data")
    return unpacked


def wheels(*names: str) -> Path:
    """A folder holding the pinned wheels of ``names`` (with their compiled speedups)."""
    target = cache_dir() / "c-libs"
    missing = [n for n in names if not any(target.glob(f"{n}-{PACKAGES[n]}.dist-info"))]
    if missing:
        _pip(
            "install", "--no-deps", "--only-binary", ":all:", "--target", str(target),
            "--upgrade", *(f"{n}=={PACKAGES[n]}" for n in missing),
        )  # fmt: skip
    return target


def store_compiled(store: SqliteStore, sha: str) -> None:
    """Catalogue simplejson's and ujson's sdists (ujson's vendored libraries left out)."""
    for name, repo in (("simplejson", "simplejson/simplejson"), ("ujson", "ultrajson/ultrajson")):
        checkout = open_source(str(sdist(name)), repo=repo, sha=sha)
        result = scan_checkout(checkout, repo=repo, exclude=["**/deps/**"])
        store_scan(store, checkout, repo, result, "2026-12-01T00:00:00.000Z")


def site_at(sites: list[ErrorSite], source: str, needle: str) -> ErrorSite:
    """The one site whose call spans the one line of ``source`` holding ``needle``."""
    (line,) = [n for n, text in enumerate(source.splitlines(), 1) if needle in text]
    found = [s for s in sites if s.line <= line <= s.end_line]
    assert len(found) == 1, found
    return found[0]
