"""``evidence.source``: how the pin of a checkout was found, and why a commit is unknown."""

from __future__ import annotations

from pathlib import Path

from errdex.evidence import source_evidence
from errdex.source import open_source
from tests.source.helpers import commit_all, run_git, write


def test_git_work_tree_says_git(tmp_path: Path) -> None:
    run_git(tmp_path, "init", "-q", "-b", "main")
    write(tmp_path, "pkg/mod.py")
    sha = commit_all(tmp_path)
    source = source_evidence(open_source(str(tmp_path), repo="o/n"))
    assert source == {
        "origin": "dir",
        "refKind": "commit",
        "ref": sha,
        "version": None,
        "refSource": "git",
        "tag": None,
        "commit": sha,
        "commitNote": None,
    }


def test_plain_directory_has_no_pin_and_says_why(tmp_path: Path) -> None:
    write(tmp_path, "pkg/mod.py")
    source = source_evidence(open_source(str(tmp_path), repo="o/n"))
    assert (source["refKind"], source["refSource"], source["commit"]) == ("none", "none", None)
    assert source["commitNote"] == "no commit: the files are not in a git work tree"


def test_a_given_sha_is_marked_given(tmp_path: Path) -> None:
    write(tmp_path, "pkg/mod.py")
    sha = "0123456789abcdef0123456789abcdef01234567"
    source = source_evidence(open_source(str(tmp_path), repo="o/n", sha=sha))
    assert (source["refSource"], source["commit"], source["commitNote"]) == ("given", sha, None)
