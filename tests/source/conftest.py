"""Fixtures for the source tests: real git repositories in tmp_path, no network."""

from __future__ import annotations

from pathlib import Path

import pytest

from .helpers import commit_all, run_git, write


@pytest.fixture
def git_repo(tmp_path: Path) -> Path:
    """A work tree with one commit on ``main`` and no remote."""
    repo = tmp_path / "work"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    write(repo, "pkg/__init__.py")
    commit_all(repo, "initial")
    return repo


@pytest.fixture
def bare_remote(tmp_path: Path) -> tuple[Path, Path]:
    """A bare repository ``owner/proj.git`` and a work tree pushing to it.

    History: tag ``v1.0`` (pkg/mod.py says ``VERSION = 1``), then ``main``
    one commit ahead (``VERSION = 2``).
    """
    bare = tmp_path / "remote" / "owner" / "proj.git"
    bare.parent.mkdir(parents=True)
    run_git(tmp_path, "init", "-q", "--bare", "-b", "main", str(bare))
    work = tmp_path / "pusher"
    work.mkdir()
    run_git(work, "init", "-q", "-b", "main")
    run_git(work, "remote", "add", "origin", bare.as_uri())
    write(work, "pkg/mod.py", "VERSION = 1\n")
    commit_all(work, "one")
    run_git(work, "tag", "-a", "v1.0", "-m", "release 1.0")
    write(work, "pkg/mod.py", "VERSION = 2\n")
    commit_all(work, "two")
    run_git(work, "push", "-q", "origin", "main", "--tags")
    return bare, work
