"""The :class:`Checkout` record: where scanned code lives and how to link to it."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Literal

__all__ = ["Checkout", "Origin", "RefKind"]

RefKind = Literal["commit", "tag", "none"]
Origin = Literal["dir", "git", "package", "stdlib"]


@dataclass(frozen=True)
class Checkout:
    """A tree of source files plus what is known about its upstream.

    Kept separate from how it was obtained so that listing files and building
    permalinks work the same for a local directory, a cached clone and an
    installed distribution.

    ``ref`` is always what permalinks pin: the commit when ``sha`` is known
    (``ref_kind == "commit"``), else a tag (``"tag"``), else nothing
    (``"none"``, no permalinks). ``path_prefix`` is prepended to paths
    relative to ``root`` to get paths relative to the repository top, for a
    ``root`` that is a sub-directory of a work tree (``"src/"``).
    ``origin`` says how it was obtained; ``"stdlib"`` is the running
    interpreter's standard library (see :mod:`errdex.source.stdlib`).
    ``ref_source`` says how the pin was found (see :mod:`errdex.source.tags`;
    None: from git or as given), ``tag`` is the release tag when known or
    guessed, and ``commit_note`` says why ``sha`` is unknown.
    ``repo_problem`` says why ``repo`` is None, for the user.
    """

    root: Path
    repo: str | None
    sha: str | None
    ref: str | None
    ref_kind: RefKind
    forge_url: str | None
    version: str | None
    origin: Origin
    files: tuple[str, ...] | None = None
    path_prefix: str = ""
    ref_source: str | None = None
    tag: str | None = None
    commit_note: str | None = None
    repo_problem: str | None = None
