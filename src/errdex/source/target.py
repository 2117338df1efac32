"""``open_source``: one entry point that picks directory, git URL or package."""

from __future__ import annotations

import os
from pathlib import Path

from .checkout import Checkout
from .errors import SourceError
from .git import open_git_url
from .local import open_directory
from .package import open_package
from .remote import looks_like_git_url

__all__ = ["open_source"]


def open_source(
    target: str | os.PathLike[str] | None = None,
    *,
    package: str | None = None,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    cache_dir: Path | None = None,
) -> Checkout:
    """Locate source code and what its permalinks should point at.

    ``target`` is a local directory (default: the current one) or a git URL,
    optionally ``@ref`` (``https://github.com/o/n.git@v1.2``); ``package``
    names an installed distribution instead. ``repo`` and ``sha`` override
    what is detected; ``ref`` is the tag to pin when no commit is known (for
    a git URL: the ref to check out). ``cache_dir`` holds git clones.
    """
    if package is not None:
        if target is not None:
            raise SourceError("give either a directory or git URL, or --package NAME, not both")
        return open_package(package, repo=repo, sha=sha, ref=ref)
    text = os.fspath(target) if target is not None else "."
    if not text.strip():
        raise SourceError("empty source target; give a directory, a git URL or --package NAME")
    is_url = "://" in text or (looks_like_git_url(text) and not os.path.exists(text))
    if is_url and looks_like_git_url(text):
        return open_git_url(text, repo=repo, sha=sha, ref=ref, cache_dir=cache_dir)
    if is_url:
        raise SourceError(
            f"unsupported URL {text!r}; use https://, ssh://, git@host:owner/name.git or file://"
        )
    return open_directory(text, repo=repo, sha=sha, ref=ref)
