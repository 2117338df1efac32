"""Fetch a git URL (``https://host/o/n.git@v1.2``) into a local cache and check it out.

Layout under the cache directory, one folder per URL (keyed by its hash)::

    <name>-<hash>/repo.git        bare clone, fetched again on reuse
    <name>-<hash>/trees/<sha>/    one detached work tree per commit

A work tree per commit means a :class:`Checkout` never changes under its
user's feet when another ref of the same URL is opened later, and the
network is skipped entirely when a full sha is already cached.
"""

from __future__ import annotations

import contextlib
import hashlib
import logging
import os
import re
import shutil
from pathlib import Path

from .cachelock import locked_file
from .checkout import Checkout
from .errors import SourceError
from .gitcmd import head_sha, is_full_sha, is_hex, resolve_commit, run_git
from .identity import check_ref, resolve_repo, unnamed_reason
from .remote import parse_remote_url, redact_url, split_ref

__all__ = ["default_cache_dir", "open_git_url"]

log = logging.getLogger(__name__)

_HINT_NET = "Check the URL, your network and your credentials for this host."


def default_cache_dir() -> Path:
    """``$XDG_CACHE_HOME/errdex/git``, else ``~/.cache/errdex/git``."""
    xdg = os.environ.get("XDG_CACHE_HOME", "")
    base = Path(xdg) if xdg and os.path.isabs(xdg) else Path.home() / ".cache"
    return base / "errdex" / "git"


def _cache_key(url: str) -> str:
    name = re.sub(r"[^\w.-]+", "_", url.rstrip("/").rsplit("/", 1)[-1].removesuffix(".git"))
    digest = hashlib.sha256(url.rstrip("/").encode("utf-8")).hexdigest()[:16]
    return f"{name[:40] or 'repo'}-{digest}"


def _clone(url: str, bare: Path) -> None:
    """Bare-clone ``url``; blobless for network URLs so big histories stay cheap."""
    tmp = bare.with_name(f"{bare.name}.tmp-{os.getpid()}")
    shutil.rmtree(tmp, ignore_errors=True)
    args = ["clone", "--bare", "--quiet"]
    if not url.startswith("file://"):
        args.append("--filter=blob:none")
    try:
        run_git([*args, "--", url, str(tmp)], hint=_HINT_NET, network=True)
    except SourceError:
        shutil.rmtree(tmp, ignore_errors=True)
        raise
    os.replace(tmp, bare)


def _fetch(bare: Path, *refs: str) -> None:
    """Update branches and tags (or fetch ``refs``) from ``origin``, keeping its blob filter."""
    refspecs = list(refs) or ["+refs/heads/*:refs/heads/*", "+refs/tags/*:refs/tags/*"]
    prune = [] if refs else ["--prune"]
    run_git(
        ["fetch", "--quiet", "--force", "--update-head-ok", *prune, "origin", *refspecs],
        cwd=bare,
        hint=_HINT_NET,
        network=True,
    )


def _resolve(bare: Path, url: str, want: str | None, fresh: bool) -> str:
    """Commit for ``want`` (None: the default branch), fetching only when needed."""
    if want is not None and is_full_sha(want) and (sha := resolve_commit(bare, want)):
        return sha  # commits are immutable: no network needed
    if not fresh:
        try:
            _fetch(bare)
        except SourceError as exc:
            # Offline use of a cached clone is fine; a stale branch is the price.
            if resolve_commit(bare, want or "HEAD") is None:
                raise
            log.warning("using cached %s without update: %s", redact_url(url), exc)
    sha = resolve_commit(bare, want or "HEAD")
    if sha is None and want is not None and is_full_sha(want):
        # A commit no branch or tag points at; servers allow fetching it by id.
        with contextlib.suppress(SourceError):
            _fetch(bare, want)
        sha = resolve_commit(bare, want)
    if sha is None:
        if want is None:
            raise SourceError(f"{redact_url(url)} has no default branch (empty repository?)")
        extra = (
            " (abbreviated shas only work for commits on a branch or tag)" if is_hex(want) else ""
        )
        raise SourceError(
            f"ref {want!r} not found in {redact_url(url)}{extra}; check the tag or branch "
            "name, or give the full 40-hex commit"
        )
    return sha


def _work_tree(bare: Path, trees: Path, sha: str) -> Path:
    """A detached work tree at ``sha``, reused when a previous run made it."""
    tree = trees / sha
    if tree.is_dir() and (tree / ".git").exists() and head_sha(tree) == sha:
        return tree
    if tree.exists():  # left over from an interrupted run
        shutil.rmtree(tree)
    run_git(["worktree", "prune"], cwd=bare, check=False)
    trees.mkdir(parents=True, exist_ok=True)
    # network: a blobless clone fetches the blobs of the files it checks out
    run_git(
        ["worktree", "add", "--quiet", "--detach", "--force", str(tree), sha],
        cwd=bare,
        network=True,
    )
    return tree


def open_git_url(
    target: str,
    *,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    cache_dir: Path | None = None,
) -> Checkout:
    """Clone (or reuse) ``target`` and check out its ``@ref``, ``ref`` or ``sha``.

    Without any of them the remote's default branch is used. ``repo``
    overrides the ``owner/name`` read from the URL.
    """
    url, at_ref = split_ref(target.strip())
    url = url.removeprefix("git+")
    wanted = [w for w in (at_ref, ref, sha) if w is not None]
    if len({w.lower() if is_hex(w) else w for w in wanted}) > 1:
        raise SourceError(
            f"conflicting refs for {redact_url(url)}: {', '.join(wanted)}; give only one"
        )
    want = check_ref(wanted[0]) if wanted else None
    base = (cache_dir or default_cache_dir()).expanduser() / _cache_key(url)
    try:
        base.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise SourceError(
            f"cannot create the git cache {base}: {exc}; pass cache_dir= a writable directory"
        ) from exc
    bare = base / "repo.git"
    with locked_file(base / ".lock"):
        fresh = not (bare / "HEAD").is_file()
        if fresh:
            shutil.rmtree(bare, ignore_errors=True)
            _clone(url, bare)
        commit = _resolve(bare, url, want, fresh)
        tree = _work_tree(bare, base / "trees", commit)
    detected = parse_remote_url(url)
    repo_name, forge_url = resolve_repo(detected, repo)
    return Checkout(
        root=tree,
        repo=repo_name,
        sha=commit,
        ref=commit,
        ref_kind="commit",
        forge_url=forge_url,
        version=None,
        origin="git",
        repo_problem=None if repo_name else unnamed_reason("the URL", detected),
    )
