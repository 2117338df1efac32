"""Local directories: repository and commit from git, user overrides, plain folders."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.source import SourceError, open_source, permalink

from .helpers import commit_all, run_git, write


@pytest.mark.parametrize(
    ("url", "repo", "forge"),
    [
        ("https://github.com/acme/widgets.git", "acme/widgets", "https://github.com/acme/widgets"),
        ("git@github.com:acme/widgets.git", "acme/widgets", "https://github.com/acme/widgets"),
        (
            "git@gitlab.com:acme/tools/widgets",
            "acme/tools/widgets",
            "https://gitlab.com/acme/tools/widgets",
        ),
    ],
)
def test_git_dir_detects_repo_and_sha(git_repo: Path, url: str, repo: str, forge: str) -> None:
    run_git(git_repo, "remote", "add", "origin", url)
    head = run_git(git_repo, "rev-parse", "HEAD")
    co = open_source(str(git_repo))
    assert (co.repo, co.forge_url, co.origin) == (repo, forge, "dir")
    assert co.sha == head and co.ref == head and co.ref_kind == "commit"
    assert co.root == git_repo.resolve()
    assert co.files is None and co.path_prefix == ""


def test_single_non_origin_remote_is_used(git_repo: Path) -> None:
    run_git(git_repo, "remote", "add", "upstream", "https://github.com/acme/up.git")
    assert open_source(str(git_repo)).repo == "acme/up"


def test_overrides_win(git_repo: Path) -> None:
    run_git(git_repo, "remote", "add", "origin", "git@gitlab.com:acme/widgets.git")
    first = run_git(git_repo, "rev-parse", "HEAD")
    commit_all(git_repo, "second")
    co = open_source(str(git_repo), repo="other/thing", sha=first[:10])
    assert co.repo == "other/thing"
    assert co.forge_url == "https://gitlab.com/other/thing"  # the detected host is kept
    assert co.sha == first  # abbreviated sha expanded by git
    assert co.ref_kind == "commit"


def test_repo_override_as_url(git_repo: Path) -> None:
    co = open_source(str(git_repo), repo="https://gitlab.com/g/sub/n")
    assert (co.repo, co.forge_url) == ("g/sub/n", "https://gitlab.com/g/sub/n")


def test_bad_overrides_are_clear(git_repo: Path) -> None:
    with pytest.raises(SourceError, match="owner/name"):
        open_source(str(git_repo), repo="not a repo")
    with pytest.raises(SourceError, match="hex"):
        open_source(str(git_repo), sha="v1.0")


def test_subdirectory_records_prefix(git_repo: Path) -> None:
    run_git(git_repo, "remote", "add", "origin", "https://github.com/o/n")
    write(git_repo, "src/pkg/a.py")
    sha = commit_all(git_repo)
    co = open_source(str(git_repo / "src"))
    assert co.path_prefix == "src/"
    assert permalink(co, "pkg/a.py", 1, 1) == f"https://github.com/o/n/blob/{sha}/src/pkg/a.py#L1"


def test_repository_without_commits(tmp_path: Path) -> None:
    run_git(tmp_path, "init", "-q")
    co = open_source(str(tmp_path))
    assert co.sha is None and co.ref_kind == "none" and co.repo is None


def test_plain_directory(tmp_path: Path) -> None:
    write(tmp_path, "m.py")
    co = open_source(tmp_path)
    assert (co.repo, co.sha, co.ref, co.ref_kind, co.forge_url) == (None, None, None, "none", None)
    assert permalink(co, "m.py", 1, 1) is None


def test_plain_directory_with_repo_and_tag(tmp_path: Path) -> None:
    co = open_source(str(tmp_path), repo="o/n", ref="v1.0")
    assert (co.repo, co.sha, co.ref, co.ref_kind) == ("o/n", None, "v1.0", "tag")
    assert permalink(co, "m.py", 2, 3) == "https://github.com/o/n/blob/v1.0/m.py#L2-L3"


def test_folder_ignored_by_enclosing_repo_is_not_that_repo(git_repo: Path) -> None:
    """A virtualenv inside a project is not the project's code."""
    run_git(git_repo, "remote", "add", "origin", "https://github.com/o/n")
    write(git_repo, ".gitignore", "venv-like/\n")
    commit_all(git_repo)
    write(git_repo, "venv-like/lib/site/m.py")
    co = open_source(str(git_repo / "venv-like" / "lib"))
    assert co.repo is None and co.sha is None


def test_default_target_is_cwd(git_repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(git_repo)
    assert open_source().root == git_repo.resolve()


def test_missing_directory(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="no such directory"):
        open_source(str(tmp_path / "nope"))


def test_file_instead_of_directory(tmp_path: Path) -> None:
    f = write(tmp_path, "a.py")
    with pytest.raises(SourceError, match="is a file"):
        open_source(str(f))


def test_target_and_package_conflict(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not both"):
        open_source(str(tmp_path), package="click")
