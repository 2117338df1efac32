"""Combine detected and user-given repository names and pins.

Every origin (dir, git URL, package) detects a repository and a commit or
tag its own way, then lets ``repo=``/``sha=``/``ref=`` override; the rules
for that live here once.
"""

from __future__ import annotations

import re

from .checkout import RefKind
from .errors import SourceError
from .gitcmd import is_full_sha, is_hex
from .remote import RemoteInfo, looks_like_git_url, parse_remote_url

__all__ = ["Pin", "check_ref", "check_sha", "pin", "resolve_repo"]

_REPO_RE = re.compile(r"^[\w.-]+(?:/[\w.-]+)+$")

Pin = tuple[str | None, str | None, RefKind]  # (sha, ref, ref_kind)


def resolve_repo(
    detected: RemoteInfo | None, override: str | None
) -> tuple[str | None, str | None]:
    """Return ``(repo, forge_url)``; an override keeps the detected forge host.

    ``override`` may be ``owner/name``, ``host/owner/name`` (``gitlab.com/g/n``)
    or a full URL.
    """
    if override is None:
        if detected is None:
            return None, None
        return detected.repo, detected.forge_url
    text = override.strip().strip("/")
    if looks_like_git_url(text):
        info = parse_remote_url(text)
        if info.repo is None:
            raise SourceError(f"repo {override!r} does not name a repository (expected owner/name)")
        return info.repo, info.forge_url
    if text.endswith(".git"):
        text = text[: -len(".git")]
    if not _REPO_RE.match(text) or ".." in text.split("/"):
        raise SourceError(
            f"repo {override!r} is not a repository name; give it as owner/name "
            "(or group/sub/name, or a URL such as https://gitlab.com/group/name)"
        )
    first, rest = text.split("/", 1)
    if "." in first and "/" in rest:
        return parse_remote_url(f"https://{text}").repo, f"https://{text}"
    host = detected.host if detected is not None and detected.forge_url else None
    return text, f"https://{host or 'github.com'}/{text}"


def check_ref(ref: str, what: str = "ref") -> str:
    """Reject refs git would read as options or that cannot be names."""
    ref = ref.strip()
    if not ref or ref.startswith("-") or any(c.isspace() or ord(c) < 32 for c in ref):
        raise SourceError(f"{what} {ref!r} is not a valid git ref, tag or commit")
    return ref


def check_sha(sha: str) -> str:
    """Accept hex commit ids only, so a tag is never passed off as a commit."""
    sha = sha.strip().lower()
    if not is_hex(sha) or len(sha) < 7:
        raise SourceError(
            f"sha {sha!r} is not a commit id; give 7 to 40 hex digits (a tag goes in the URL: URL@TAG)"
        )
    return sha


def pin(detected_sha: str | None, sha: str | None, ref: str | None, default_ref: str | None) -> Pin:
    """Decide what permalinks pin: given sha > given ref > detected sha > default tag."""
    if sha is not None:
        sha = check_sha(sha)
        return sha, sha, "commit"
    if ref is not None:
        ref = check_ref(ref)
        if is_full_sha(ref):
            return ref.lower(), ref.lower(), "commit"
        return None, ref, "tag"
    if detected_sha is not None:
        return detected_sha, detected_sha, "commit"
    if default_ref is not None:
        return None, default_ref, "tag"
    return None, None, "none"
