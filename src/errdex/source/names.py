"""What a repository name may be: ``owner/name``, or ``group/sub/name`` on GitLab.

A name goes into URLs, page titles, file names and every record id, so it is
checked once, here, wherever it comes from (``--repo``, a git remote, a
package's Project-URL): letters, digits, ``.``, ``-`` and ``_`` only, never a
newline or markup, and exactly as many levels as the forge has.
"""

from __future__ import annotations

import re
from typing import Literal

__all__ = ["REPO_NAME_HELP", "ForgeKind", "forge_kind", "repo_name_problem"]

ForgeKind = Literal["github", "gitlab", "gitea", "bitbucket"]

REPO_NAME_HELP = (
    "a repository name is owner/name made of letters, digits, '.', '-' and '_' "
    "(on GitLab also group/subgroup/name; give the host for a forge other than "
    "GitHub: gitlab.com/group/name, or its URL)"
)

_SEGMENT = re.compile(r"[A-Za-z0-9_.-]{1,255}", re.ASCII)
_HOST = re.compile(
    r"[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?(?:\.[a-z0-9](?:[a-z0-9-]{0,61}[a-z0-9])?)*"
)
_GITLAB_MAX_LEVELS = 21  # a group nests at most 20 subgroups deep, then the project


def forge_kind(host: str | None) -> ForgeKind | None:
    """Which permalink flavour a host speaks, guessed from its name."""
    if not host:
        return None
    host = host.lower()
    if "github" in host:
        return "github"
    if "gitlab" in host:
        return "gitlab"
    if host == "codeberg.org" or "gitea" in host or "forgejo" in host:
        return "gitea"
    if host == "bitbucket.org":
        return "bitbucket"
    return None


def repo_name_problem(name: str, host: str | None = None) -> str | None:
    """Why ``name`` cannot name a repository on ``host``, or None when it can.

    ``host`` None means the default forge, GitHub. An unknown host may be a
    self-hosted GitLab, so it may have subgroups; GitHub, Gitea and Bitbucket
    have none. The answer is a clause to quote after the name.
    """
    if host is not None and not _HOST.fullmatch(host):
        return f"its host {host!r} is not a host name"
    segments = name.split("/")
    if len(segments) < 2:
        return "it has no owner part"
    for segment in segments:
        if not _SEGMENT.fullmatch(segment):
            return f"{segment!r} holds more than letters, digits, '.', '-' and '_'"
        if not segment.strip("."):
            return f"{segment!r} is a path step, not a name"
    if len(segments) > 2:
        if host is None or forge_kind(host) in ("github", "gitea", "bitbucket"):
            where = host or "github.com"
            return f"it has {len(segments)} levels, and {where} has no subgroups"
        if len(segments) > _GITLAB_MAX_LEVELS:
            return f"it nests deeper than the {_GITLAB_MAX_LEVELS} levels GitLab allows"
    return None
