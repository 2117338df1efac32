"""Run ``git`` as a subprocess and answer simple questions about work trees.

All git access goes through :func:`run_git`, so every call runs with the
configuration that keeps the scanned repository from running programs, and
failures become one kind of :class:`SourceError` with the command, git's own
message and a hint.
"""

from __future__ import annotations

import os
import shutil
import subprocess
from collections.abc import Sequence
from pathlib import Path

from .errors import SourceError
from .remote import redact_url

__all__ = [
    "git_available",
    "head_sha",
    "ignored_paths",
    "is_full_sha",
    "is_hex",
    "remote_url",
    "resolve_commit",
    "run_git",
    "work_tree_prefix",
]

_HEX = frozenset("0123456789abcdef")


def is_full_sha(text: str) -> bool:
    """True for a full 40-hex (SHA-1) or 64-hex (SHA-256) object name."""
    return len(text) in (40, 64) and set(text.lower()) <= _HEX


def is_hex(text: str) -> bool:
    """True for something that can only be an abbreviated or full object name."""
    return 4 <= len(text) <= 64 and set(text.lower()) <= _HEX


def git_available() -> bool:
    """Whether a ``git`` executable is on PATH (a missing git is not an error for plain dirs)."""
    return shutil.which("git") is not None


# Environment a calling git process (errdex run from a hook or an alias) leaves
# behind; it would point our commands at that repository instead of ``cwd``.
_REPO_ENV = frozenset(
    {
        "GIT_DIR",
        "GIT_WORK_TREE",
        "GIT_INDEX_FILE",
        "GIT_OBJECT_DIRECTORY",
        "GIT_ALTERNATE_OBJECT_DIRECTORIES",
        "GIT_COMMON_DIR",
        "GIT_NAMESPACE",
        "GIT_PREFIX",
        "GIT_IMPLICIT_WORK_TREE",
        "GIT_CONFIG",
    }
)

# Settings through which a repository's own config could make git run a
# program. Command-line config is read last, so it wins over the repository's
# .git/config and every file it includes. Not listed: what git already ignores
# outside the user's and system's config (safe.directory,
# uploadpack.packObjectsHook), aliases (they never shadow the built-ins run
# here), and diff/merge drivers, editors and gpg (no diff, log, merge or commit
# is run: a new call of those must add --no-ext-diff --no-textconv).
_NO_PROGRAMS = (
    "core.fsmonitor=false",
    f"core.hooksPath={os.devnull}",  # hooks are looked up in it: none exist
    "core.pager=cat",
    "core.askPass=",
    "protocol.ext.allow=never",
)
# Commands that read no remote also reach no transport, ssh command, proxy,
# remote helper or credential helper: none is needed for rev-parse and friends.
_OFFLINE = ("protocol.allow=never", "credential.helper=")
# Commands that may pass file contents through filter drivers (the tree's
# .gitattributes picks the driver, so a user's git-lfs would fetch what the
# tree's .lfsconfig names); their drivers are switched off one by one.
_FILTERING = frozenset(
    {"add", "checkout", "clone", "commit", "diff", "reset", "restore", "stash", "status"}
    | {"switch", "worktree"}
)


def _env() -> dict[str, str]:
    env = {key: value for key, value in os.environ.items() if key not in _REPO_ENV}
    # Never hang on a password prompt; parse git's output in one language.
    env["GIT_TERMINAL_PROMPT"] = "0"
    env["LC_ALL"] = "C"
    # Wins over any core.sshCommand; a user's own GIT_SSH_COMMAND is kept.
    env.setdefault("GIT_SSH_COMMAND", "ssh -o BatchMode=yes")
    # An empty value for the --config-env options that switch filters off.
    env["ERRDEX_GIT_EMPTY"] = ""
    env["ERRDEX_GIT_FALSE"] = "false"
    return env


def _spawn(
    args: Sequence[str],
    cwd: Path | None,
    env: dict[str, str],
    options: Sequence[str],
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    try:
        return subprocess.run(
            ["git", *options, *args],
            cwd=cwd,
            env=env,
            stdin=subprocess.DEVNULL,
            capture_output=True,
            text=True,
            encoding="utf-8",
            errors="surrogateescape",
            check=False,
            timeout=timeout,
        )
    except subprocess.TimeoutExpired as exc:
        shown = " ".join(redact_url(a) for a in ["git", *args])
        raise SourceError(f"`{shown}` did not finish within {timeout:g} s") from exc
    except FileNotFoundError as exc:
        raise SourceError(
            "git is not installed or not on PATH; install git to use git repositories"
        ) from exc


def _filter_options(cwd: Path | None, env: dict[str, str], base: Sequence[str]) -> list[str]:
    """Options that switch off every filter driver any config in reach defines.

    Driver names may hold ``=`` or spaces, so they go through ``--config-env``
    (git splits its ``NAME=ENVVAR`` at the last ``=``), never ``-c``.
    """
    proc = _spawn(["config", "--null", "--name-only", "--get-regexp", r"^filter\."], cwd, env, base)
    drivers = {
        key[len("filter.") :].rpartition(".")[0]
        for key in proc.stdout.split("\0")
        if key.startswith("filter.") and key.count(".") >= 2
    }
    options: list[str] = []
    for driver in sorted(drivers):
        for var in ("clean", "smudge", "process"):
            options.append(f"--config-env=filter.{driver}.{var}=ERRDEX_GIT_EMPTY")
        # a required driver with no command is a fatal error: not required, then
        options.append(f"--config-env=filter.{driver}.required=ERRDEX_GIT_FALSE")
    return options


def run_git(
    args: Sequence[str],
    *,
    cwd: Path | None = None,
    check: bool = True,
    hint: str = "",
    network: bool = False,
    timeout: float | None = None,
) -> subprocess.CompletedProcess[str]:
    """Run ``git *args`` so that nothing in the repository it reads can run a program.

    With ``check`` a non-zero exit raises :class:`SourceError` quoting git's
    stderr; ``hint`` says what the user can do about it. Only ``network``
    commands (clone, fetch, and checkouts that fetch missing blobs) may reach
    a remote; they run in errdex's own cache, whose config the scanned
    repository never writes. The user's global and system config are still
    read: they are the user's (credential helpers, proxies, ``insteadOf``
    for private clones), and the dangerous keys are overridden anyway.
    """
    env = _env()
    options = ["--no-pager", "--no-optional-locks"]
    for setting in (*_NO_PROGRAMS, *(() if network else _OFFLINE)):
        options += ["-c", setting]
    if args and args[0] in _FILTERING:
        options += _filter_options(cwd, env, options)
    proc = _spawn(args, cwd, env, options, timeout)
    if check and proc.returncode != 0:
        msg = proc.stderr.strip() or proc.stdout.strip() or f"exit status {proc.returncode}"
        where = f" (in {cwd})" if cwd else ""
        shown = " ".join(redact_url(a) for a in ["git", *args])
        text = f"`{shown}` failed{where}: {msg}"
        if "dubious ownership" in msg:
            text += (
                "\nThe repository belongs to another user; mark it safe with "
                "`git config --global --add safe.directory <path>`."
            )
        if hint:
            text += f"\n{hint}"
        raise SourceError(text)
    return proc


def work_tree_prefix(path: Path) -> str | None:
    """Path of ``path`` inside its git work tree (``''`` at the top), None outside git.

    A folder the enclosing repository ignores counts as outside git.
    "Not a git repository" is an answer here, not an error; anything else
    (such as an unsafe repository owner) still raises.
    """
    if not git_available():
        return None
    proc = run_git(["rev-parse", "--is-inside-work-tree", "--show-prefix"], cwd=path, check=False)
    if proc.returncode != 0:
        if "not a git repository" in proc.stderr.lower():
            return None
        run_git(["rev-parse", "--is-inside-work-tree"], cwd=path)  # raises with the message
        return None
    lines = proc.stdout.splitlines()
    if not lines or lines[0].strip() != "true":
        return None  # inside a .git directory or a bare repository
    prefix = lines[1] if len(lines) > 1 else ""
    if prefix and run_git(["check-ignore", "-q", "."], cwd=path, check=False).returncode == 0:
        # e.g. a virtualenv or ~/.pyenv/versions inside some repository: the
        # files are not that repository's, so it says nothing about them.
        return None
    return prefix


def head_sha(path: Path) -> str | None:
    """The commit checked out at ``path``, None for a repository without commits."""
    proc = run_git(["rev-parse", "--verify", "--quiet", "HEAD^{commit}"], cwd=path, check=False)
    sha = proc.stdout.strip()
    return sha if proc.returncode == 0 and is_full_sha(sha) else None


def resolve_commit(path: Path, ref: str) -> str | None:
    """Full commit id for ``ref`` in the repository at ``path``, None if unknown."""
    proc = run_git(
        ["rev-parse", "--verify", "--quiet", "--end-of-options", f"{ref}^{{commit}}"],
        cwd=path,
        check=False,
    )
    sha = proc.stdout.strip()
    return sha if proc.returncode == 0 and is_full_sha(sha) else None


def remote_url(path: Path) -> str | None:
    """URL of ``origin``, or of the only remote when there is no ``origin``."""
    proc = run_git(["remote", "get-url", "origin"], cwd=path, check=False)
    if proc.returncode == 0 and proc.stdout.strip():
        return proc.stdout.strip()
    remotes = run_git(["remote"], cwd=path, check=False).stdout.split()
    if len(remotes) == 1:
        proc = run_git(["remote", "get-url", remotes[0]], cwd=path, check=False)
        if proc.returncode == 0 and proc.stdout.strip():
            return proc.stdout.strip()
    return None


def ignored_paths(path: Path) -> tuple[frozenset[str], frozenset[str]] | None:
    """Files and directories git ignores under ``path``, relative to it.

    Returns ``(files, dirs)``, or None when ``path`` is not in a work tree
    (see :func:`work_tree_prefix`). One git call for the whole tree;
    ``--directory`` collapses ignored folders so ``.venv`` costs one line.
    """
    if work_tree_prefix(path) is None:
        return None
    proc = run_git(
        ["ls-files", "--others", "--ignored", "--exclude-standard", "--directory", "-z"],
        cwd=path,
    )
    files: set[str] = set()
    dirs: set[str] = set()
    for entry in proc.stdout.split("\0"):
        if not entry:
            continue
        if entry == "./":
            return None
        if entry.endswith("/"):
            dirs.add(entry.rstrip("/"))
        else:
            files.add(entry)
    return frozenset(files), frozenset(dirs)
