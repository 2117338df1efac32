"""URL parsing: every remote and project-URL shape maps to owner/name and a forge."""

from __future__ import annotations

import pytest

from errdex.source.remote import (
    looks_like_git_url,
    parse_remote_url,
    redact_url,
    repo_from_project_url,
    split_ref,
)


@pytest.mark.parametrize(
    ("url", "repo", "forge"),
    [
        ("https://github.com/owner/name.git", "owner/name", "https://github.com/owner/name"),
        ("https://github.com/owner/name", "owner/name", "https://github.com/owner/name"),
        ("https://github.com/owner/name/", "owner/name", "https://github.com/owner/name"),
        ("git@github.com:owner/name.git", "owner/name", "https://github.com/owner/name"),
        ("git@github.com:owner/name", "owner/name", "https://github.com/owner/name"),
        ("ssh://git@github.com/owner/name.git", "owner/name", "https://github.com/owner/name"),
        ("ssh://git@github.com:22/owner/name", "owner/name", "https://github.com/owner/name"),
        ("git+https://github.com/owner/name.git", "owner/name", "https://github.com/owner/name"),
        ("https://user:tok@github.com/o/n.git", "o/n", "https://github.com/o/n"),
        ("http://www.github.com/o/n/tree/main/src", "o/n", "https://github.com/o/n"),
        (
            "git@gitlab.com:group/sub/name.git",
            "group/sub/name",
            "https://gitlab.com/group/sub/name",
        ),
        (
            "https://gitlab.com/group/sub/name/-/tree/main",
            "group/sub/name",
            "https://gitlab.com/group/sub/name",
        ),
        ("https://codeberg.org/o/n.git", "o/n", "https://codeberg.org/o/n"),
    ],
)
def test_parse_remote_url(url: str, repo: str, forge: str | None) -> None:
    info = parse_remote_url(url)
    assert info.repo == repo
    assert info.forge_url == forge


def test_parse_remote_url_without_repo_path() -> None:
    assert parse_remote_url("https://github.com/owner").repo is None


@pytest.mark.parametrize(
    "url", ["file:///srv/git/owner/name.git", "/srv/git/owner/name.git", "/work/main"]
)
def test_local_paths_name_no_repository(url: str) -> None:
    """Folder names on this machine are not guessed into ``owner/name`` (was ``work/main``)."""
    info = parse_remote_url(url)
    assert (info.repo, info.forge_url) == (None, None)
    assert info.problem == "is a path on this machine, not a repository on a forge"


@pytest.mark.parametrize(
    ("target", "url", "ref"),
    [
        ("https://github.com/o/n.git@v1.2", "https://github.com/o/n.git", "v1.2"),
        ("https://github.com/o/n.git", "https://github.com/o/n.git", None),
        ("https://me@github.com/o/n.git", "https://me@github.com/o/n.git", None),
        ("https://me@github.com/o/n.git@main", "https://me@github.com/o/n.git", "main"),
        ("git@github.com:o/n.git", "git@github.com:o/n.git", None),
        ("git@github.com:o/n.git@release/1.0", "git@github.com:o/n.git", "release/1.0"),
        ("file:///tmp/x.git@abc123", "file:///tmp/x.git", "abc123"),
        ("file:///tmp/x.git@" + "a" * 40, "file:///tmp/x.git", "a" * 40),
    ],
)
def test_split_ref(target: str, url: str, ref: str | None) -> None:
    assert split_ref(target) == (url, ref)


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("https://github.com/o/n", True),
        ("file:///tmp/x.git", True),
        ("git@github.com:o/n.git", True),
        ("ftp://example.com/x", False),
        ("some/local/dir", False),
        ("networkx", False),
    ],
)
def test_looks_like_git_url(text: str, expected: bool) -> None:
    assert looks_like_git_url(text) is expected


@pytest.mark.parametrize(
    ("url", "repo"),
    [
        ("https://github.com/pallets/click/", "pallets/click"),
        ("https://github.com/networkx/networkx/tree/main", "networkx/networkx"),
        ("https://github.com/o/n/issues", "o/n"),
        ("https://github.com/sponsors/someone", None),
        ("https://networkx.org/documentation", None),
        ("https://gitlab.com/g/sub/n", "g/sub/n"),
        ("not a url", None),
    ],
)
def test_repo_from_project_url(url: str, repo: str | None) -> None:
    info = repo_from_project_url(url)
    assert (info.repo if info else None) == repo


def test_redact_url_hides_password() -> None:
    assert redact_url("https://me:secret@host/o/n.git") == "https://me:***@host/o/n.git"
    assert redact_url("https://host/o/n.git") == "https://host/o/n.git"
