"""The running interpreter's standard library, as ``python/cpython`` at its release tag."""

from __future__ import annotations

import sys
import sysconfig
from pathlib import Path

from errdex.source.checkout import Checkout
from errdex.source.tags import release_ref

__all__ = ["STDLIB_PREFIX", "STDLIB_REPO", "stdlib_checkout", "stdlib_tag"]

STDLIB_REPO = "python/cpython"
#: Where the installed ``lib/python3.X`` lives in the CPython repository.
STDLIB_PREFIX = "Lib/"


def stdlib_tag() -> str:
    """``v3.11.7``; pre-releases as CPython tags them (``v3.13.0rc2``)."""
    v = sys.version_info
    tag = f"v{v.major}.{v.minor}.{v.micro}"
    if v.releaselevel != "final":
        tag += {"alpha": "a", "beta": "b", "candidate": "rc"}[v.releaselevel] + str(v.serial)
    return tag


def stdlib_checkout() -> Checkout:
    """The standard library of the Python running errdex, pinned to its commit where known.

    The commit comes from the build (``sys._git``), else from errdex's tag table
    or the remote's tags for the release tag; otherwise the record pins the tag
    and says why the commit is unknown.
    """
    root = Path(sysconfig.get_paths()["stdlib"])
    forge = f"https://github.com/{STDLIB_REPO}"
    git_info = getattr(sys, "_git", ("", "", ""))
    built = git_info[2] if len(git_info) > 2 and len(git_info[2]) == 40 else None
    tag = stdlib_tag()
    if built:
        sha, source, note = built, "build", None
    else:
        release = release_ref("cpython", tag.removeprefix("v"), STDLIB_REPO, forge)
        tag, sha, source, note = release.tag, release.commit, release.source, release.note
    return Checkout(
        root=root,
        repo=STDLIB_REPO,
        sha=sha,
        ref=sha or tag,
        ref_kind="commit" if sha else "tag",
        forge_url=forge,
        version=sys.version.split()[0],
        origin="stdlib",
        path_prefix=STDLIB_PREFIX,
        ref_source=source,
        tag=tag,
        commit_note=note,
    )
