"""Permalinks for each forge, pinned to commit or tag, with safely quoted paths."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.source import Checkout, permalink
from errdex.source.checkout import RefKind

SHA = "0123456789abcdef0123456789abcdef01234567"


def _checkout(
    *,
    repo: str | None = "o/n",
    forge_url: str | None = None,
    sha: str | None = SHA,
    ref: str | None = None,
    ref_kind: RefKind = "commit",
    prefix: str = "",
) -> Checkout:
    return Checkout(
        root=Path("/nowhere"),
        repo=repo,
        sha=sha,
        ref=ref if ref is not None else sha,
        ref_kind=ref_kind,
        forge_url=forge_url,
        version=None,
        origin="dir",
        path_prefix=prefix,
    )


def test_github_range_and_single_line() -> None:
    co = _checkout(forge_url="https://github.com/o/n")
    assert (
        permalink(co, "pkg/mod.py", 10, 20)
        == f"https://github.com/o/n/blob/{SHA}/pkg/mod.py#L10-L20"
    )
    assert (
        permalink(co, "pkg/mod.py", 10, 10) == f"https://github.com/o/n/blob/{SHA}/pkg/mod.py#L10"
    )


def test_default_forge_is_github() -> None:
    assert permalink(_checkout(), "a.py", 1, 2) == f"https://github.com/o/n/blob/{SHA}/a.py#L1-L2"


def test_tag_pin() -> None:
    co = _checkout(sha=None, ref="networkx-3.6.1", ref_kind="tag")
    assert (
        permalink(co, "networkx/classes/graph.py", 5, 7)
        == "https://github.com/o/n/blob/networkx-3.6.1/networkx/classes/graph.py#L5-L7"
    )


def test_gitlab() -> None:
    co = _checkout(
        repo="g/sub/n", forge_url="https://gitlab.com/g/sub/n", sha=None, ref="v1", ref_kind="tag"
    )
    assert (
        permalink(co, "src/a.py", 10, 20) == "https://gitlab.com/g/sub/n/-/blob/v1/src/a.py#L10-20"
    )
    assert permalink(co, "src/a.py", 3, 3) == "https://gitlab.com/g/sub/n/-/blob/v1/src/a.py#L3"


def test_codeberg_commit_and_tag() -> None:
    co = _checkout(forge_url="https://codeberg.org/o/n")
    assert permalink(co, "a.py", 1, 3) == f"https://codeberg.org/o/n/src/commit/{SHA}/a.py#L1-L3"
    tag = _checkout(forge_url="https://codeberg.org/o/n", sha=None, ref="v2", ref_kind="tag")
    assert permalink(tag, "a.py", 4, 4) == "https://codeberg.org/o/n/src/tag/v2/a.py#L4"


def test_quoting_keeps_slashes() -> None:
    co = _checkout()
    link = permalink(co, "dir with space/ünï#code?.py", 1, 1)
    assert (
        link
        == f"https://github.com/o/n/blob/{SHA}/dir%20with%20space/%C3%BCn%C3%AF%23code%3F.py#L1"
    )


def test_path_prefix_of_a_subdirectory_checkout() -> None:
    co = _checkout(prefix="src/")
    assert (
        permalink(co, "pkg/a.py", 2, 3) == f"https://github.com/o/n/blob/{SHA}/src/pkg/a.py#L2-L3"
    )


def test_whole_file_when_no_line() -> None:
    assert permalink(_checkout(), "a.py", 0, 0) == f"https://github.com/o/n/blob/{SHA}/a.py"


@pytest.mark.parametrize(
    "co",
    [
        _checkout(repo=None),
        _checkout(sha=None, ref=None, ref_kind="none"),
        _checkout(forge_url="https://git.example.org/o/n"),
    ],
    ids=["no-repo", "no-ref", "unknown-forge"],
)
def test_none_when_no_link_possible(co: Checkout) -> None:
    assert permalink(co, "a.py", 1, 2) is None
