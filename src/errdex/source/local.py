"""Open a local directory, reading repository and commit from git when present."""

from __future__ import annotations

from pathlib import Path

from .checkout import Checkout, Origin
from .errors import SourceError
from .gitcmd import head_sha, remote_url, resolve_commit, work_tree_prefix
from .identity import check_sha, pin, resolve_repo, unnamed_reason
from .remote import parse_remote_url, redact_url

__all__ = ["open_directory"]


def open_directory(
    path: str | Path,
    *,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    version: str | None = None,
    origin_fallback: str | None = None,
    origin: Origin = "dir",
) -> Checkout:
    """Describe the directory ``path``; ``repo``/``sha``/``ref`` override detection.

    Without git (or outside a work tree) repo and commit are simply unknown;
    deciding whether that is acceptable is the caller's job.
    ``origin_fallback`` is a repo URL to use when git names none (used for
    editable installs, whose metadata knows the project URL).
    """
    root = Path(path).expanduser()
    if not root.exists():
        raise SourceError(
            f"no such directory: {path}; give an existing directory, a git URL "
            "(https://host/owner/name.git@ref) or --package NAME for an installed distribution"
        )
    if not root.is_dir():
        raise SourceError(f"{path} is a file; give the directory that holds the source")
    root = root.resolve()
    prefix = work_tree_prefix(root)
    detected_sha: str | None = None
    remote = None
    unnamed = "it is not in a git work tree"
    if prefix is not None:
        detected_sha = head_sha(root)
        url = remote_url(root)
        remote = parse_remote_url(url) if url else None
        unnamed = (
            unnamed_reason(f"its git remote {redact_url(url)!r}", remote)
            if url
            else "its git work tree has no remote"
        )
        if sha is not None:
            full = resolve_commit(root, check_sha(sha))
            sha = full or sha
    if (remote is None or remote.repo is None) and origin_fallback:
        remote = parse_remote_url(origin_fallback)
    repo_name, forge_url = resolve_repo(remote, repo)
    pinned_sha, pinned_ref, kind = pin(detected_sha, sha, ref, None)
    return Checkout(
        root=root,
        repo=repo_name,
        sha=pinned_sha,
        ref=pinned_ref,
        ref_kind=kind,
        forge_url=forge_url,
        version=version,
        origin=origin,
        path_prefix=prefix or "",
        repo_problem=None if repo_name else unnamed,
        ref_source="given" if sha is not None or ref is not None else None,
    )
