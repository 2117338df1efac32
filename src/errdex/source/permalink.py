"""Build forge permalinks (GitHub, GitLab, Gitea/Codeberg, Bitbucket) to line ranges."""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import quote, urlsplit

from .checkout import Checkout
from .remote import forge_kind

__all__ = ["forge_base", "permalink", "permalinker"]


def forge_base(checkout: Checkout) -> str | None:
    """Web URL of the repository: the detected forge, else GitHub for a bare ``owner/name``."""
    if checkout.forge_url:
        return checkout.forge_url.rstrip("/")
    if checkout.repo:
        return f"https://github.com/{checkout.repo.strip('/')}"
    return None


def _quote(text: str) -> str:
    # '/' stays a separator; everything else (space, '#', '?', unicode) is escaped.
    return quote(text, safe="/", encoding="utf-8", errors="surrogateescape")


def permalink(checkout: Checkout, path: str, start: int, end: int) -> str | None:
    """Link to lines ``start``-``end`` of ``path`` (relative to ``checkout.root``).

    Pins the commit when known, else the tag; None when there is no
    repository, nothing to pin, or the forge's URL scheme is unknown.
    A ``start`` below 1 links the whole file.
    """
    link = permalinker(checkout, path)
    return None if link is None else link(start, end)


def permalinker(checkout: Checkout, path: str) -> Callable[[int, int], str] | None:
    """A function from a line range to its link, for many links into one file.

    The forge, pin and quoted path are worked out once; None when no link can be made.
    """
    base = forge_base(checkout)
    pin = checkout.sha or (checkout.ref if checkout.ref_kind != "none" else None)
    if base is None or not pin:
        return None
    kind = forge_kind(urlsplit(base).hostname)
    rel = (checkout.path_prefix.strip("/") + "/" + path.replace("\\", "/").lstrip("/")).lstrip("/")
    rel = rel.removeprefix("./")
    file_part, ref_part = _quote(rel), _quote(pin)
    is_commit = checkout.sha is not None or checkout.ref_kind == "commit"
    if kind == "github":
        url, single, span = f"{base}/blob/{ref_part}/{file_part}", "#L{0}", "#L{0}-L{1}"
    elif kind == "gitlab":
        url, single, span = f"{base}/-/blob/{ref_part}/{file_part}", "#L{0}", "#L{0}-{1}"
    elif kind == "gitea":
        url = f"{base}/src/{'commit' if is_commit else 'tag'}/{ref_part}/{file_part}"
        single, span = "#L{0}", "#L{0}-L{1}"
    elif kind == "bitbucket":
        url, single, span = f"{base}/src/{ref_part}/{file_part}", "#lines-{0}", "#lines-{0}:{1}"
    else:
        return None

    def link(start: int, end: int) -> str:
        end = max(start, end)
        if start < 1:
            return url
        return url + (single.format(start) if start == end else span.format(start, end))

    return link
