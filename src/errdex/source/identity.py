"""Combine detected and user-given repository names and pins.

Every origin (dir, git URL, package) detects a repository and a commit or
tag its own way, then lets ``repo=``/``sha=``/``ref=`` override; the rules
for that live here once.
"""

from __future__ import annotations

from .checkout import RefKind
from .errors import SourceError
from .gitcmd import is_full_sha, is_hex
from .names import REPO_NAME_HELP, repo_name_problem
from .remote import RemoteInfo, looks_like_git_url, parse_remote_url

__all__ = ["Pin", "check_ref", "check_sha", "pin", "resolve_repo", "unnamed_reason"]

Pin = tuple[str | None, str | None, RefKind]  # (sha, ref, ref_kind)


def resolve_repo(
    detected: RemoteInfo | None, override: str | None
) -> tuple[str | None, str | None]:
    """Return ``(repo, forge_url)``; an override keeps the detected forge host.

    ``override`` may be ``owner/name``, ``host/owner/name`` (``gitlab.com/g/n``)
    or a full URL; one that is not a valid name raises :class:`SourceError`
    saying what a valid name looks like. Detected names are valid already
    (:func:`parse_remote_url` drops the others).
    """
    if override is None:
        if detected is None:
            return None, None
        return detected.repo, detected.forge_url
    text = override.strip().strip("/")
    first, _, rest = text.partition("/")
    if looks_like_git_url(text) or ("." in first and "/" in rest):
        info = parse_remote_url(text if looks_like_git_url(text) else f"https://{text}")
        if info.repo is None:
            why = info.problem or "names no owner/name"
            raise SourceError(f"repo {override!r} {why}; {REPO_NAME_HELP}")
        return info.repo, info.forge_url
    text = text.removesuffix(".git")
    host = detected.host if detected is not None and detected.forge_url else None
    problem = repo_name_problem(text, host)
    if problem is not None:
        raise SourceError(
            f"repo {override!r} is not a repository name: {problem}; {REPO_NAME_HELP}"
        )
    return text, f"https://{host or 'github.com'}/{text}"


def unnamed_reason(subject: str, detected: RemoteInfo | None) -> str:
    """Why ``subject`` (``"its git remote 'URL'"``) gave no repository name, for the user."""
    problem = detected.problem if detected is not None else None
    return f"{subject} {problem or 'names no owner/name'}"


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
