"""Open an installed distribution: its files from RECORD, its repo from metadata.

Scanning what is installed (rather than a clone) lets errdex catalogue the
exact code a user runs; metadata then says where that code lives upstream.
"""

from __future__ import annotations

import json
import os
from collections.abc import Iterable
from importlib import machinery, metadata
from pathlib import Path, PurePosixPath
from typing import Any
from urllib.parse import unquote, urlsplit

from .checkout import Checkout
from .errors import SourceError
from .gitcmd import is_full_sha
from .identity import pin, resolve_repo
from .local import open_directory
from .remote import RemoteInfo, parse_remote_url, repo_from_project_url
from .tags import ReleaseRef, release_ref

__all__ = [
    "check_has_source",
    "open_package",
    "package_files",
    "project_repo",
    "release_checkout",
    "top_level_names",
]

# Project-URL labels that usually point at the source, best first (normalised
# as PEP 753 does: lower case, no spaces, dashes, underscores or dots).
_PREFERRED_LABELS = ("source", "sourcecode", "repository", "github", "gitlab", "code", "homepage")
# Labels never to take a repository from even when they point at a forge.
_UNRELATED_LABELS = ("funding", "donate", "sponsor", "sponsors", "donation")


def _norm_label(label: str) -> str:
    return "".join(c for c in label.lower() if c.isalnum())


def _project_urls(meta: Any) -> list[tuple[str, str]]:
    out: list[tuple[str, str]] = []
    for entry in meta.get_all("Project-URL") or []:
        label, sep, url = str(entry).partition(",")
        if sep:
            out.append((_norm_label(label), url.strip()))
    return out


def project_repo(meta: Any) -> RemoteInfo | None:
    """Repository named by a distribution's ``Project-URL``/``Home-page`` metadata.

    Preferred labels come first, then ``Home-page``, then any other forge
    link (an ``Issues`` URL still names the repository).
    """
    urls = _project_urls(meta)
    candidates: list[str] = []
    for wanted in _PREFERRED_LABELS:
        candidates += [url for label, url in urls if label == wanted]
    home = meta.get("Home-page")
    if home:
        candidates.append(str(home).strip())
    candidates += [
        url
        for label, url in urls
        if label not in _PREFERRED_LABELS and label not in _UNRELATED_LABELS
    ]
    for url in candidates:
        info = repo_from_project_url(url)
        if info is not None:
            return info
    return None


def _direct_url(dist: metadata.Distribution) -> dict[str, Any]:
    text = dist.read_text("direct_url.json")
    if not text:
        return {}
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    return data if isinstance(data, dict) else {}


def _skip_record_entry(parts: tuple[str, ...]) -> bool:
    return (
        not parts
        or parts[0] in ("..", "")
        or parts[0].endswith((".dist-info", ".egg-info", ".data"))
        or "__pycache__" in parts
        or (len(parts) == 1 and parts[0].endswith(".pth"))
    )


def top_level_names(dist: metadata.Distribution) -> set[str]:
    """Top-level packages/modules a distribution installs.

    ``top_level.txt`` when the build backend wrote one (setuptools), else
    derived from RECORD (flit, hatch and others do not write it).
    """
    text = dist.read_text("top_level.txt")
    if text and text.strip():
        return {line.strip().replace("\\", "/") for line in text.splitlines() if line.strip()}
    names: set[str] = set()
    for file in dist.files or ():
        parts = PurePosixPath(str(file)).parts
        if _skip_record_entry(parts):
            continue
        names.add(parts[0] if len(parts) > 1 else _module_name(parts[0]))
    return names


def _module_name(file_name: str) -> str:
    """``ahocorasick.cpython-311-x86_64-linux-gnu.so`` -> ``ahocorasick``; ``six.py`` -> ``six``."""
    for suffix in sorted(machinery.EXTENSION_SUFFIXES, key=len, reverse=True):
        if file_name.endswith(suffix):
            return file_name[: -len(suffix)]
    return PurePosixPath(file_name).stem


def _under_top_level(parts: tuple[str, ...], tops: set[str]) -> bool:
    if len(parts) == 1:
        return _module_name(parts[0]) in tops or parts[0] in tops
    return parts[0] in tops or "/".join(parts[:2]) in tops


def package_files(dist: metadata.Distribution, root: Path) -> tuple[str, ...]:
    """Files of ``dist`` under its top-level packages that exist under ``root``."""
    tops = top_level_names(dist)
    if dist.files is None:
        return _walk_top_levels(root, tops)
    seen: set[str] = set()
    for file in dist.files:
        parts = PurePosixPath(str(file).replace("\\", "/")).parts
        if _skip_record_entry(parts) or not _under_top_level(parts, tops):
            continue
        rel = "/".join(parts)
        if rel not in seen and os.path.lexists(root / rel):
            seen.add(rel)
    return tuple(sorted(seen))


def _walk_top_levels(root: Path, tops: Iterable[str]) -> tuple[str, ...]:
    """File list for a distribution without RECORD: everything under its top levels."""
    found: list[str] = []
    for top in tops:
        if (root / f"{top}.py").is_file():
            found.append(f"{top}.py")
        for dirpath, dirnames, filenames in os.walk(root / top):
            dirnames[:] = [d for d in dirnames if d != "__pycache__"]
            rel_dir = Path(dirpath).relative_to(root).as_posix()
            found += [f"{rel_dir}/{name}" for name in filenames]
    if not found:
        raise SourceError(
            "the distribution lists no files (no RECORD or top_level.txt); "
            "reinstall it with a current pip, or scan its directory instead"
        )
    return tuple(sorted(found))


def _find_distribution(name: str) -> metadata.Distribution:
    try:
        return metadata.distribution(name)
    except metadata.PackageNotFoundError:
        pass
    # An import name (``yaml``) instead of a distribution name (``PyYAML``)?
    owners = metadata.packages_distributions().get(name, [])
    if len(set(owners)) == 1:
        return metadata.distribution(owners[0])
    also = (
        f" (import name {name!r} is provided by {', '.join(sorted(set(owners)))})" if owners else ""
    )
    raise SourceError(
        f"package {name!r} is not installed in this Python environment{also}; "
        f"install it (`python -m pip install {name}`) in the environment errdex runs in, "
        "or scan a source checkout or git URL instead"
    )


def _editable_dir(direct: dict[str, Any]) -> Path | None:
    dir_info = direct.get("dir_info")
    url = direct.get("url")
    if not isinstance(dir_info, dict) or not dir_info.get("editable") or not isinstance(url, str):
        return None
    parts = urlsplit(url)
    if parts.scheme != "file":
        return None
    path = Path(unquote(parts.path))
    return path if path.is_dir() else None


def open_package(
    name: str,
    *,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
) -> Checkout:
    """Describe installed distribution ``name``.

    The commit comes from ``direct_url.json`` (pip records it for VCS
    installs); otherwise from the release tag that :func:`release_ref` finds
    (the tag table, the remote's tags, else a guessed ``v{version}``, marked
    so), unless ``sha``/``ref`` say. An editable install is opened as its
    project directory, where git knows the commit.
    """
    dist = _find_distribution(name)
    version = dist.version
    meta_repo = project_repo(dist.metadata)
    direct = _direct_url(dist)
    editable = _editable_dir(direct)
    if editable is not None:
        return open_directory(
            editable,
            repo=repo,
            sha=sha,
            ref=ref,
            version=version,
            origin_fallback=meta_repo.forge_url if meta_repo else None,
            origin="package",
        )
    detected = meta_repo
    commit: str | None = None
    vcs = direct.get("vcs_info")
    if isinstance(vcs, dict):
        commit_id = vcs.get("commit_id")
        if isinstance(commit_id, str) and is_full_sha(commit_id):
            commit = commit_id.lower()
        url = direct.get("url")
        if isinstance(url, str):
            vcs_repo = parse_remote_url(url)
            if vcs_repo.repo is not None and vcs_repo.forge_url is not None:
                detected = vcs_repo  # where the code was actually installed from
    root = Path(str(dist.locate_file(""))).resolve()
    files = package_files(dist, root)
    check_has_source(name, version, root, files)
    return release_checkout(
        dist.metadata["Name"] or name,
        version,
        root,
        files,
        detected=detected,
        repo=repo,
        sha=sha,
        ref=ref,
        commit=commit,
    )


def release_checkout(
    name: str,
    version: str,
    root: Path,
    files: tuple[str, ...] | None,
    *,
    detected: RemoteInfo | None,
    repo: str | None = None,
    sha: str | None = None,
    ref: str | None = None,
    commit: str | None = None,
) -> Checkout:
    """A release's files under ``root`` pinned as :func:`open_package` pins them.

    Shared by an installed distribution and a downloaded release (a wheel's tree):
    the repository from ``detected`` (or ``repo``), the commit or tag from
    :func:`release_ref` unless ``commit``/``sha``/``ref`` say, and the tag table's
    path prefix, so a record's ``filePath`` (and so its id) is the repository's.
    """
    repo_name, forge_url = resolve_repo(detected, repo)
    release: ReleaseRef | None = None
    if commit is None and sha is None and ref is None and version and repo_name:
        release = release_ref(name, version, repo_name, forge_url)
        if release.commit is not None:
            commit = release.commit
    default_tag = release.tag if release else (f"v{version}" if version else None)
    pinned_sha, pinned_ref, kind = pin(commit, sha, ref, default_tag)
    return Checkout(
        root=root,
        repo=repo_name,
        sha=pinned_sha,
        ref=pinned_ref,
        ref_kind=kind,
        forge_url=forge_url,
        version=version,
        origin="package",
        files=files,
        path_prefix=release.path_prefix if release else "",
        ref_source=_ref_source(release, given=sha is not None or ref is not None, kind=kind),
        tag=release.tag if release else (pinned_ref if kind == "tag" else None),
        commit_note=release.note if release else _commit_note(kind),
    )


def _ref_source(release: ReleaseRef | None, *, given: bool, kind: str) -> str:
    if given:
        return "given"
    if release is not None:
        return release.source
    if kind == "commit":
        return "direct_url"
    return "guessed" if kind == "tag" else "none"


def _commit_note(kind: str) -> str | None:
    if kind == "commit":
        return None
    if kind == "tag":
        return "read from a release: the tag's commit is not known"
    return "the distribution names no repository, so there is no commit to pin"


_PYTHON_SOURCE = (".py", ".pyi", ".pyx", ".pxd", ".pxi")


def check_has_source(name: str, version: str, root: Path, files: tuple[str, ...]) -> None:
    """Refuse a distribution with nothing to read, saying what it holds instead."""
    if any(f.endswith(_PYTHON_SOURCE) for f in files):
        return
    compiled = [f for f in files if f.endswith(tuple(machinery.EXTENSION_SUFFIXES))]
    if compiled:
        shown = ", ".join(compiled[:3]) + (
            f" and {len(compiled) - 3} more" if len(compiled) > 3 else ""
        )
        raise SourceError(
            f"package {name!r} {version} is a compiled extension ({shown}): it installs no "
            "Python source to scan; scan its source repository instead"
        )
    if files:
        raise SourceError(
            f"package {name!r} {version} installs no Python source under {root} "
            f"({len(files)} other file(s)); scan its source repository instead"
        )
    raise SourceError(
        f"package {name!r} {version} has no importable files under {root}; "
        "is it a metadata-only or namespace-only distribution?"
    )
