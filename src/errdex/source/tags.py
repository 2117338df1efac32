"""Find the release tag (and its commit) an installed version was built from.

An installed distribution knows its version, not its commit, and projects tag
releases their own way (``8.1.7``, ``v2.31.0``, ``networkx-3.6.1``). A guessed
``v<version>`` gives permalinks that 404, so the tag comes from, in order: a
per-project table of checked facts (``errdex/data/tags.json``), the remote's
own tag list (``git ls-remote``, when the network allows), and only then a
guess, which says so.
"""

from __future__ import annotations

import json
import os
import re
from collections.abc import Mapping
from dataclasses import dataclass, field
from functools import lru_cache
from importlib import resources
from pathlib import Path
from typing import Any, Literal
from urllib.parse import urlsplit

from .errors import SourceError
from .gitcmd import is_full_sha, run_git

__all__ = [
    "LS_REMOTE_TIMEOUT",
    "OFFLINE_ENV",
    "RefSource",
    "ReleaseRef",
    "TagScheme",
    "candidate_tags",
    "load_schemes",
    "ls_remote_tags",
    "normalize_name",
    "parse_ls_remote",
    "release_ref",
    "scheme_for",
]

#: How the pinned ref was found; ``evidence.source.refSource``.
RefSource = Literal["given", "direct_url", "git", "build", "table", "ls-remote", "guessed", "none"]

#: Seconds one ``git ls-remote`` may take before errdex treats the tag list as unknown.
LS_REMOTE_TIMEOUT = 10.0
#: Set (to anything but ``0``) to never ask a remote over the network for its tags.
OFFLINE_ENV = "ERRDEX_OFFLINE"

_NAME_RUN = re.compile(r"[-_.]+")


def normalize_name(name: str) -> str:
    """PEP 503 name: ``Jinja2`` -> ``jinja2``, ``typing_extensions`` -> ``typing-extensions``."""
    return _NAME_RUN.sub("-", name).lower()


@dataclass(frozen=True)
class TagScheme:
    """One project's entry in the tag table."""

    repo: str
    tag: str  # template with ``{version}``
    path_prefix: str = ""
    tags: Mapping[str, str] = field(default_factory=dict)  # releases tagged otherwise
    commits: Mapping[str, str] = field(default_factory=dict)  # version -> commit of its tag

    def tag_for(self, version: str) -> str:
        return self.tags.get(version) or self.tag.replace("{version}", version)

    def commit_for(self, version: str) -> str | None:
        commit = self.commits.get(version)
        return commit.lower() if commit and is_full_sha(commit) else None


@dataclass(frozen=True)
class ReleaseRef:
    """The tag a release is pinned to, its commit when known, and how both were found."""

    tag: str
    commit: str | None
    source: RefSource
    path_prefix: str = ""
    note: str | None = None  # why ``commit`` is unknown


def _scheme(entry: Any) -> TagScheme | None:
    if not isinstance(entry, dict):
        return None
    repo, tag = entry.get("repo"), entry.get("tag")
    if not isinstance(repo, str) or not isinstance(tag, str) or "{version}" not in tag:
        return None
    prefix = entry.get("pathPrefix") or ""

    def strings(key: str) -> dict[str, str]:
        value = entry.get(key) or {}
        if not isinstance(value, dict):
            return {}
        return {str(k): v for k, v in value.items() if isinstance(v, str)}

    return TagScheme(
        repo=repo,
        tag=tag,
        path_prefix=prefix if isinstance(prefix, str) else "",
        tags=strings("tags"),
        commits=strings("commits"),
    )


def load_schemes(path: Path | None = None) -> dict[str, TagScheme]:
    """The tag table, keyed by normalized project name; malformed entries are left out."""
    if path is None:
        return dict(_default_schemes())
    return _parse_table(path.read_text(encoding="utf-8"))


def _parse_table(text: str) -> dict[str, TagScheme]:
    try:
        data = json.loads(text)
    except ValueError:
        return {}
    projects = data.get("projects") if isinstance(data, dict) else None
    out: dict[str, TagScheme] = {}
    for name, entry in (projects or {}).items():
        scheme = _scheme(entry)
        if scheme is not None:
            out[normalize_name(str(name))] = scheme
    return out


@lru_cache(maxsize=1)
def _default_schemes() -> dict[str, TagScheme]:
    try:
        text = resources.files("errdex").joinpath("data/tags.json").read_text(encoding="utf-8")
    except OSError:
        return {}
    return _parse_table(text)


def scheme_for(
    name: str, repo: str | None, schemes: Mapping[str, TagScheme] | None = None
) -> TagScheme | None:
    """The table's entry for ``name``, only when it describes the same repository."""
    table = _default_schemes() if schemes is None else schemes
    scheme = table.get(normalize_name(name))
    if scheme is None or repo is None or scheme.repo.lower() != repo.strip("/").lower():
        return None
    return scheme


def parse_ls_remote(text: str) -> dict[str, str]:
    """``tag -> commit`` from ``git ls-remote --tags`` output; an annotated tag's peeled line wins."""
    tags: dict[str, str] = {}
    peeled: dict[str, str] = {}
    for line in text.splitlines():
        sha, sep, ref = line.strip().partition("\t")
        if not sep or not is_full_sha(sha) or not ref.startswith("refs/tags/"):
            continue
        name = ref.removeprefix("refs/tags/")
        if name.endswith("^{}"):
            peeled[name[:-3]] = sha.lower()
        else:
            tags[name] = sha.lower()
    tags.update(peeled)
    return tags


# hosts git could not reach in this process: one failure is enough to stop asking
_unreachable: set[str] = set()
_listed: dict[str, dict[str, str] | None] = {}


def _network_failure(message: str) -> bool:
    text = message.lower()
    return (
        "unable to access" in text or "did not finish within" in text or "could not resolve" in text
    )


def ls_remote_tags(url: str, *, timeout: float = LS_REMOTE_TIMEOUT) -> dict[str, str] | None:
    """The remote's tags and their commits, None when it cannot be asked or did not answer.

    Never raises: an unreachable remote, a missing repository or a timeout is an
    unknown answer, and a host that could not be reached is not asked again.
    """
    parts = urlsplit(url)
    if parts.scheme not in ("https", "http", "file") or url.startswith("-"):
        return None
    if parts.scheme != "file" and os.environ.get(OFFLINE_ENV, "0") not in ("", "0"):
        return None
    host = parts.hostname or parts.scheme
    if host in _unreachable:
        return None
    if url in _listed:
        return _listed[url]
    result: dict[str, str] | None = None
    try:
        proc = run_git(["ls-remote", "--tags", url], check=False, network=True, timeout=timeout)
    except SourceError as exc:
        message = str(exc)
    else:
        message = proc.stderr
        if proc.returncode == 0:
            result = parse_ls_remote(proc.stdout)
    if result is None and _network_failure(message) and parts.scheme != "file":
        _unreachable.add(host)
    _listed[url] = result
    return result


def candidate_tags(name: str, version: str) -> list[str]:
    """Tags a release is commonly given, most common first."""
    names = dict.fromkeys((name, normalize_name(name), name.lower()))
    return [f"v{version}", version, *(f"{n}-{version}" for n in names)]


def release_ref(
    name: str,
    version: str,
    repo: str | None,
    forge_url: str | None,
    *,
    schemes: Mapping[str, TagScheme] | None = None,
) -> ReleaseRef:
    """Where release ``version`` of ``name`` lives: the table, the remote's tags, else a guess."""
    remote = f"{forge_url.rstrip('/')}.git" if forge_url else None
    scheme = scheme_for(name, repo, schemes)
    if scheme is not None:
        tag = scheme.tag_for(version)
        commit = scheme.commit_for(version)
        note = None
        if commit is None:
            listed = ls_remote_tags(remote) if remote else None
            commit = (listed or {}).get(tag)
            if commit is None:
                note = f"errdex's tag table gives the tag {tag} but not its commit, and " + (
                    "the remote does not list it"
                    if listed is not None
                    else "the remote could not be asked"
                )
        return ReleaseRef(tag, commit, "table", scheme.path_prefix, note)
    listed = ls_remote_tags(remote) if remote else None
    if listed:
        for tag in candidate_tags(name, version):
            if tag in listed:
                return ReleaseRef(tag, listed[tag], "ls-remote")
    why = (
        f"no tag of the remote names version {version}"
        if listed is not None
        else "the project is not in errdex's tag table and its remote could not be asked"
    )
    return ReleaseRef(f"v{version}", None, "guessed", note=f"tag guessed: {why}")
