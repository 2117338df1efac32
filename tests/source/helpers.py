"""Helpers shared by the source tests: real git repositories in tmp_path."""

from __future__ import annotations

import os
import subprocess
from pathlib import Path


def _git_env() -> dict[str, str]:
    env = dict(os.environ)
    env.update(
        GIT_AUTHOR_NAME="errdex",
        GIT_AUTHOR_EMAIL="errdex@example.invalid",
        GIT_COMMITTER_NAME="errdex",
        GIT_COMMITTER_EMAIL="errdex@example.invalid",
        GIT_CONFIG_NOSYSTEM="1",
        LC_ALL="C",
    )
    return env


def run_git(cwd: Path, *args: str) -> str:
    """Run git in ``cwd`` for test setup and return stdout (stripped)."""
    proc = subprocess.run(
        ["git", *args], cwd=cwd, env=_git_env(), capture_output=True, text=True, check=True
    )
    return proc.stdout.strip()


def commit_all(repo: Path, message: str = "commit") -> str:
    """Commit everything in ``repo`` and return the new HEAD sha."""
    run_git(repo, "add", "-A")
    run_git(repo, "commit", "-q", "--allow-empty", "-m", message)
    return run_git(repo, "rev-parse", "HEAD")


def write(root: Path, rel: str, text: str = "x = 1\n") -> Path:
    """Create ``root/rel`` with ``text``, making parent folders."""
    path = root / rel
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path
