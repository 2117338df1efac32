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
