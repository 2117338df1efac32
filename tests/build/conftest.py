"""Fixtures for the build tests: small real git repositories that name their upstream."""

from __future__ import annotations

import subprocess
from pathlib import Path

import pytest


def make_repo(root: Path, name: str, body: str) -> Path:
    """A git work tree whose origin names ``acme/NAME`` on GitHub, with one module."""
    repo = root / name
    (repo / name).mkdir(parents=True)
    (repo / name / "__init__.py").write_text(body, encoding="utf-8")
    for args in (
        ["init", "-q", "-b", "main"],
        ["remote", "add", "origin", f"https://github.com/acme/{name}.git"],
        ["add", "-A"],
        ["-c", "user.name=t", "-c", "user.email=t@e", "commit", "-q", "-m", "one"],
    ):
        subprocess.run(["git", *args], cwd=repo, check=True, capture_output=True)
    return repo


@pytest.fixture
def two_repos(tmp_path: Path) -> tuple[Path, Path]:
    first = make_repo(
        tmp_path,
        "widgets",
        "def make(size):\n    if size < 0:\n        raise ValueError(f'size must be >= 0, got {size}')\n"
        "    return size\n",
    )
    second = make_repo(
        tmp_path,
        "gadgets",
        "def load(name):\n    raise KeyError(f'no gadget named {name!r}')\n\n"
        "def spin(n):\n    if not n:\n        raise RuntimeError('cannot spin zero times')\n",
    )
    return first, second
