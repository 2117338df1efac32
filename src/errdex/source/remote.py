"""Turn git remote URLs and project URLs into ``owner/name`` plus a forge URL.

Kept free of I/O so every URL shape (https, scp-style ssh, ``file://``,
a ``/tree/main`` browser link) can be tested in isolation.
"""

from __future__ import annotations

import logging
import re
from dataclasses import dataclass
from pathlib import PurePosixPath
from urllib.parse import unquote, urlsplit, urlunsplit

from .names import ForgeKind, forge_kind, repo_name_problem

__all__ = [
    "ForgeKind",
    "RemoteInfo",
    "forge_kind",
    "looks_like_git_url",
    "parse_remote_url",
    "redact_url",
    "repo_from_project_url",
    "split_ref",
]

log = logging.getLogger(__name__)

_SCP_RE = re.compile(r"^(?:(?P<user>[^@/:]+)@)?(?P<host>[^@/:]{2,}):(?P<path>(?!//).+)$")
_SCHEMES = ("http", "https", "git", "ssh", "file", "git+http", "git+https", "git+ssh", "git+file")
# First path segments on github.com that are pages, not owners.
_GITHUB_RESERVED = frozenset(
    {"sponsors", "orgs", "users", "apps", "marketplace", "topics", "features", "settings"}
)
# Segments that start the "browse" part of a GitLab URL without the ``/-/`` marker.
_GITLAB_BROWSE = frozenset({"tree", "blob", "issues", "merge_requests", "wikis", "commits"})
# Hosts whose Project-URLs are trusted to name the source repository.
_KNOWN_FORGES = ("github.com", "gitlab.com", "codeberg.org")
_LOCAL_PATH = "is a path on this machine, not a repository on a forge"


@dataclass(frozen=True)
class RemoteInfo:
    """What a remote URL says about the repository it points at."""

    host: str | None  # None for file:// and plain local paths
    repo: str | None  # 'owner/name' (GitLab: 'group/sub/name'), always a valid name
    forge_url: str | None  # 'https://host/owner/name', None when not on a web forge
    # Why ``repo`` is None although the URL seemed to name something: a
    # predicate to quote after the URL ("names a path on this machine, ...").
    problem: str | None = None


def redact_url(url: str) -> str:
    """Hide credentials in ``url`` so it can go into error messages."""
    try:
        parts = urlsplit(url)
    except ValueError:
        return url
    if parts.scheme and "@" in parts.netloc:
        creds, _, hostport = parts.netloc.rpartition("@")
        if ":" in creds:
            user = creds.split(":", 1)[0]
            return urlunsplit(parts._replace(netloc=f"{user}:***@{hostport}"))
    return url


def looks_like_git_url(target: str) -> bool:
    """True for URL-shaped targets (``https://``, ``file://``, ``git@host:o/n``)."""
    scheme, sep, _ = target.partition("://")
    if sep:
        return scheme.lower() in _SCHEMES
    return bool(_SCP_RE.match(target)) and "/" in target.partition(":")[2]


def split_ref(target: str) -> tuple[str, str | None]:
    """Split ``url@ref`` into ``(url, ref)``.

    Only an ``@`` in the path part counts, so ``git@github.com:o/n`` and
    ``https://user@host/o/n`` keep their user names.
    """
    scheme, sep, rest = target.partition("://")
    if sep:
        slash = rest.find("/")
        if slash < 0:
            return target, None
        path_start = len(scheme) + len(sep) + slash
    else:
        m = _SCP_RE.match(target)
        path_start = m.start("path") if m else 0
    at = target.rfind("@", path_start)
    if at < 0:
        return target, None
    ref = target[at + 1 :]
    return target[:at], (ref or None)


def _clean_segments(path: str) -> list[str]:
    segments = [unquote(s) for s in path.split("/") if s]
    if segments and segments[-1].endswith(".git"):
        segments[-1] = segments[-1][: -len(".git")]
    return [s for s in segments if s]


def _repo_segments(host: str, segments: list[str]) -> list[str]:
    """Cut browser suffixes (``/tree/main``, ``/-/issues``) off a repo path."""
    kind = forge_kind(host)
    if kind in ("github", "gitea", "bitbucket"):
        return segments[:2]
    if kind == "gitlab":
        if "-" in segments:
            segments = segments[: segments.index("-")]
        for i, seg in enumerate(segments[2:], start=2):
            if seg in _GITLAB_BROWSE:
                return segments[:i]
        return segments
    return segments


def parse_remote_url(url: str) -> RemoteInfo:
    """Parse any git remote URL into host, ``owner/name`` and a web URL.

    ``file://`` URLs and plain paths name no repository: their folder names
    are this machine's (``/work/main`` is not the repository ``work/main``).
    A name that is not valid on its forge (see :mod:`.names`) is dropped, and
    ``problem`` says why.
    """
    url = url.strip()
    if url.startswith("git+"):
        url = url[len("git+") :]
    host: str | None
    if "://" in url:
        parts = urlsplit(url)
        scheme = parts.scheme.lower()
        host = None if scheme == "file" else (parts.hostname or None)
        path = parts.path
    else:
        m = _SCP_RE.match(url)
        if m and not PurePosixPath(url).is_absolute():
            host, path = m.group("host"), m.group("path")
        else:
            host, path = None, url
    if host is None:
        # Its folder names are this machine's, not the repository's: not guessed.
        return RemoteInfo(None, None, None, _LOCAL_PATH)
    host = host.lower().removeprefix("www.")
    segments = _repo_segments(host, _clean_segments(path))
    if len(segments) < 2:
        return RemoteInfo(host, None, None)
    repo = "/".join(segments)
    problem = repo_name_problem(repo, host)
    if problem is not None:
        return RemoteInfo(
            host, None, None, f"names {repo!r}, which is not a repository name: {problem}"
        )
    return RemoteInfo(host, repo, f"https://{host}/{repo}")


def repo_from_project_url(url: str) -> RemoteInfo | None:
    """Accept a metadata URL only when it names a repository on a known forge.

    Documentation sites and sponsor pages are rejected so a package's
    ``Funding`` link never becomes its source repository.
    """
    try:
        parts = urlsplit(url.strip())
    except ValueError:
        return None
    host = (parts.hostname or "").lower().removeprefix("www.")
    if parts.scheme.lower() not in ("http", "https") or host not in _KNOWN_FORGES:
        return None
    info = parse_remote_url(url)
    if info.repo is None:
        if info.problem is not None:
            log.warning("ignoring the project URL %r: it %s", redact_url(url), info.problem)
        return None
    if host == "github.com" and info.repo.split("/", 1)[0].lower() in _GITHUB_RESERVED:
        return None
    return info
