"""The tags of a git repository that match a glob, each opened as a checkout of its own.

``errdex scan URL_OR_PATH --tags 'v0.9.*'`` catalogues a range of releases: each tag
is checked out in errdex's git cache (:func:`errdex.source.git.open_git_url`; a local
work tree is cloned from ``file://``, so the user's tree is never touched) and carries
its release as ``version`` (the caller's reading of the tag; the tag itself by default). A local work tree's repository name, forge and
sub-directory are those of the tree, whichever tag is read.
"""

from __future__ import annotations

import fnmatch
import os
from dataclasses import replace
from pathlib import Path

from .checkout import Checkout
from .errors import SourceError
from .git import open_git_url
from .gitcmd import run_git
from .local import open_directory
from .remote import looks_like_git_url, redact_url, split_ref
from .tags import parse_ls_remote

__all__ = ["TaggedSource", "open_tag", "tagged_source"]


class TaggedSource:
    """A repository (local work tree or git URL) and its tags matching a glob."""

    def __init__(self, url: str, tags: list[str], local: Checkout | None) -> None:
        self.url = url
        #: matching tags, in git's order (creation date locally, name for a remote)
        self.tags = tags
        self.local = local


def _local_tags(root: Path) -> list[str]:
    proc = run_git(
        [
            "for-each-ref",
            "--sort=creatordate",
            "--format=%(refname:strip=2)",
            "refs/tags/",
        ],
        cwd=root,
    )
    return [line for line in proc.stdout.splitlines() if line]


def _remote_tags(url: str) -> list[str]:
    proc = run_git(
        ["ls-remote", "--tags", "--end-of-options", url],
        hint="Check the URL, your network and your credentials for this host.",
        network=True,
    )
    return sorted(parse_ls_remote(proc.stdout))


def tagged_source(target: str, pattern: str, *, repo: str | None = None) -> TaggedSource:
    """List ``target``'s tags matching ``pattern`` (shell glob: ``v0.9.*``, ``*``).

    Raises :class:`SourceError` for a target that is neither a git work tree nor a
    git URL, a URL that already names a ref, or a glob that matches no tag.
    """
    if not pattern.strip():
        raise SourceError("--tags needs a glob of tag names ('v1.*', '*')")
    text = target.strip()
    local: Checkout | None = None
    if os.path.isdir(text):
        local = open_directory(text, repo=repo)
        if local.ref_kind != "commit":
            raise SourceError(f"{text} is not in a git work tree, so it has no tags to scan")
        top = Path(local.root)
        for _ in local.path_prefix.strip("/").split("/") if local.path_prefix else ():
            top = top.parent
        url = top.as_uri()
        names = _local_tags(top)
    elif looks_like_git_url(text):
        url, at_ref = split_ref(text)
        if at_ref is not None:
            raise SourceError(
                f"{redact_url(text)} names a ref (@{at_ref}) and --tags a range; give one"
            )
        names = _remote_tags(url)
    else:
        raise SourceError(f"--tags reads a git work tree or a git URL, and {text!r} is neither")
    matching = [name for name in names if fnmatch.fnmatchcase(name, pattern)]
    if not matching:
        shown = ", ".join(names[-8:]) if names else "none"
        raise SourceError(
            f"no tag of {redact_url(text)} matches {pattern!r} (its latest tags: {shown})"
        )
    return TaggedSource(url, matching, local)


def open_tag(
    source: TaggedSource,
    tag: str,
    *,
    version: str | None = None,
    repo: str | None = None,
    cache_dir: Path | None = None,
) -> Checkout:
    """Check out ``tag`` of ``source`` in errdex's git cache, as release ``version``."""
    checkout = open_git_url(f"{source.url}@{tag}", repo=repo, cache_dir=cache_dir)
    checkout = replace(checkout, version=version or tag, tag=tag)
    local = source.local
    if local is None:
        return checkout
    root = checkout.root / local.path_prefix if local.path_prefix else checkout.root
    if not root.is_dir():
        raise SourceError(f"tag {tag} has no {local.path_prefix.rstrip('/')} folder")
    return replace(
        checkout,
        root=root,
        repo=local.repo,
        forge_url=local.forge_url,
        path_prefix=local.path_prefix,
        repo_problem=local.repo_problem,
    )
