"""Scanning never runs a program the scanned repository names in its git configuration.

A repository's ``.git/config`` (and the ``.gitattributes`` in its tree) can make
git run programs: an fsmonitor hook, hooks, filter drivers, a pager, an ssh
command... Each test plants every such setting, pointing at a script that
leaves a marker, runs the real ``errdex scan`` in a subprocess and checks that
no marker appeared while the scan still worked.
"""

from __future__ import annotations

import json
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.source import open_source

from .helpers import commit_all, run_git, write

CODE = 'def check(x: int) -> int:\n    if x < 0:\n        raise ValueError("x must be >= 0")\n    return x\n'

_CLI = (sys.executable, "-m", "errdex.cli")  # a real process, with PYTHONPATH inherited

# Every hook git knows; each one is planted in .git/hooks and in core.hooksPath.
HOOKS = (
    "applypatch-msg",
    "pre-applypatch",
    "post-applypatch",
    "pre-commit",
    "pre-merge-commit",
    "prepare-commit-msg",
    "commit-msg",
    "post-commit",
    "pre-rebase",
    "post-checkout",
    "post-merge",
    "pre-push",
    "pre-receive",
    "update",
    "proc-receive",
    "post-receive",
    "post-update",
    "reference-transaction",
    "push-to-checkout",
    "pre-auto-gc",
    "post-rewrite",
    "sendemail-validate",
    "fsmonitor-watchman",
    "p4-changelist",
    "p4-prepare-changelist",
    "p4-post-changelist",
    "p4-pre-submit",
    "post-index-change",
)


def _tool(bin_dir: Path, marker: Path, name: str, body: str = "") -> str:
    """A script that appends its name to ``marker``, then runs ``body``; returns its path.

    Only filters read stdin (``body="cat"``): a filter process would wait for it forever.
    """
    path = bin_dir / name
    path.write_text(f'#!/bin/sh\necho "{name} $*" >> "{marker}"\n{body}\n')
    path.chmod(path.stat().st_mode | stat.S_IXUSR | stat.S_IXGRP | stat.S_IXOTH)
    return str(path)


def _plant(repo: Path, bin_dir: Path, marker: Path) -> None:
    """Point every program-running setting of ``repo`` at a marker script."""
    bin_dir.mkdir(exist_ok=True)

    def tool(name: str, body: str = "") -> str:
        return _tool(bin_dir, marker, name, body)

    hooks = repo / ".git" / "hooks"
    hooks_path = bin_dir / "hooks"
    hooks_path.mkdir(exist_ok=True)
    for hook in HOOKS:
        for where in (hooks, hooks_path):
            where.mkdir(exist_ok=True)
            _tool(where, marker, hook)
    settings = {
        "core.fsmonitor": tool("fsmonitor"),
        "core.hooksPath": str(hooks_path),
        "core.pager": tool("core-pager"),
        "pager.rev-parse": tool("pager-rev-parse"),
        "pager.ls-files": tool("pager-ls-files"),
        "pager.check-ignore": tool("pager-check-ignore"),
        "core.sshCommand": tool("ssh-command"),
        "core.askPass": tool("askpass"),
        "core.gitProxy": tool("git-proxy"),
        "core.editor": tool("editor"),
        "core.alternateRefsCommand": tool("alternate-refs"),
        "credential.helper": "!" + tool("credential-helper"),
        "filter.evil.clean": tool("filter-clean", "cat"),
        "filter.evil.smudge": tool("filter-smudge", "cat"),
        "filter.evil.process": tool("filter-process"),
        "filter.evil.required": "true",
        "diff.external": tool("diff-external"),
        "diff.evil.textconv": tool("textconv", "cat"),
        "merge.evil.driver": tool("merge-driver"),
        "gpg.program": tool("gpg"),
        "log.showSignature": "true",
        "sequence.editor": tool("sequence-editor"),
        "uploadpack.packObjectsHook": tool("pack-objects-hook"),
        "remote.origin.uploadpack": tool("remote-uploadpack"),
        "remote.origin.vcs": "errdexevil",
        "protocol.ext.allow": "always",
        "protocol.allow": "always",
        "alias.ls-files": "!" + tool("alias-ls-files"),
        "alias.rev-parse": "!" + tool("alias-rev-parse"),
        "include.path": str(repo / ".git" / "planted.cfg"),
        "includeIf.gitdir:/.path": str(repo / ".git" / "planted.cfg"),
        "safe.directory": "*",
    }
    for key, value in settings.items():
        run_git(repo, "config", key, value)
    run_git(repo, "config", "--add", "remote.origin.url", "ext::" + tool("ext-transport") + " %S")
    (repo / ".git" / "planted.cfg").write_text(
        f"[core]\n\tfsmonitor = {tool('included-fsmonitor')}\n"
    )
    _tool(bin_dir, marker, "git-remote-errdexevil")


def _planted_repo(tmp_path: Path) -> tuple[Path, Path]:
    """A committed repository whose config plants every program-running setting."""
    repo = tmp_path / "planted"
    repo.mkdir()
    run_git(repo, "init", "-q", "-b", "main")
    write(repo, "pkg/__init__.py", "")
    write(repo, "pkg/core.py", CODE)
    write(repo, ".gitattributes", "* filter=evil diff=evil merge=evil\n")
    write(repo, ".gitignore", "build/\n")
    commit_all(repo, "one")
    run_git(repo, "tag", "v1")
    marker = tmp_path / "marker.txt"
    _plant(repo, tmp_path / "bin", marker)
    # A tracked file changed after the index was written: git status would
    # have to run the clean filter to compare it.
    write(repo, "pkg/core.py", CODE + "\n")
    return repo, marker


def _scan(target: str, tmp_path: Path, *extra: str) -> dict[str, object]:
    env = dict(os.environ)
    env["XDG_CACHE_HOME"] = str(tmp_path / "xdg-cache")
    env["PATH"] = f"{tmp_path / 'bin'}{os.pathsep}{env.get('PATH', '')}"
    db = str(tmp_path / "cat.db")
    proc = subprocess.run(
        [*_CLI, "scan", target, "--db", db, "--repo", "acme/planted", "--json", *extra],
        env=env,
        capture_output=True,
        text=True,
        check=False,
        timeout=300,
    )
    assert proc.returncode == 0, proc.stderr
    summary: dict[str, object] = json.loads(proc.stdout)
    return summary


def _ran(marker: Path) -> list[str]:
    return marker.read_text().splitlines() if marker.exists() else []


def test_the_planted_settings_do_run_programs_under_plain_git(tmp_path: Path) -> None:
    """Control: the planting works, so the tests below can fail."""
    repo, marker = _planted_repo(tmp_path)
    # ``add`` hashes the changed file through the filter, whatever the clock says
    for args in (["status"], ["add", "pkg/core.py"], ["update-ref", "refs/heads/other", "HEAD"]):
        subprocess.run(["git", *args], cwd=repo, capture_output=True, check=False, timeout=60)
    ran = {line.split()[0] for line in _ran(marker)}
    assert {"included-fsmonitor", "filter-process", "reference-transaction"} <= ran


def test_scanning_a_directory_runs_nothing_from_it(tmp_path: Path) -> None:
    repo, marker = _planted_repo(tmp_path)
    summary = _scan(str(repo), tmp_path)
    assert summary["repo"] == "acme/planted" and summary["records"] == 1
    assert _ran(marker) == []


def test_scanning_a_file_url_runs_nothing_from_it(tmp_path: Path) -> None:
    repo, marker = _planted_repo(tmp_path)
    summary = _scan(f"{repo.as_uri()}@v1", tmp_path)
    assert summary["repo"] == "acme/planted" and summary["records"] == 1
    summary = _scan(repo.as_uri(), tmp_path)  # again: the cached clone is fetched
    assert summary["records"] == 1
    assert _ran(marker) == []


def test_a_users_filter_driver_is_not_run_on_checkout(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The tree's .gitattributes picks which driver runs (git-lfs would fetch .lfsconfig's URL)."""
    repo, marker = _planted_repo(tmp_path)
    user_config = tmp_path / "user.gitconfig"
    tools = tmp_path / "bin"
    user_config.write_text(
        '[filter "evil"]\n'
        f"\tsmudge = {_tool(tools, marker, 'user-smudge', 'cat')}\n"
        f"\tprocess = {_tool(tools, marker, 'user-process')}\n"
        "\trequired = true\n"
    )
    monkeypatch.setenv("GIT_CONFIG_GLOBAL", str(user_config))
    summary = _scan(repo.as_uri(), tmp_path)
    assert summary["records"] == 1
    assert _ran(marker) == []


def test_git_environment_of_a_calling_git_is_ignored(
    git_repo: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """errdex run from a hook inherits GIT_DIR and GIT_INDEX_FILE; they name another repository."""
    run_git(git_repo, "remote", "add", "origin", "https://github.com/acme/widgets.git")
    other = tmp_path / "other"
    other.mkdir()
    run_git(other, "init", "-q", "-b", "main")
    run_git(other, "remote", "add", "origin", "https://github.com/evil/other.git")
    head = run_git(git_repo, "rev-parse", "HEAD")
    monkeypatch.setenv("GIT_DIR", str(other / ".git"))
    monkeypatch.setenv("GIT_INDEX_FILE", str(other / ".git" / "index"))
    checkout = open_source(str(git_repo))
    assert checkout.repo == "acme/widgets"
    assert checkout.sha == head
