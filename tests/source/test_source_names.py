"""Repository names: ``owner/name`` (GitLab: ``group/sub/name``), never guessed, never markup."""

from __future__ import annotations

import logging
from email.message import Message
from pathlib import Path

import pytest
from click.testing import CliRunner

from errdex.cli import main
from errdex.source import SourceError, open_source
from errdex.source.names import REPO_NAME_HELP, repo_name_problem
from errdex.source.package import project_repo
from errdex.source.remote import parse_remote_url

from .helpers import commit_all, run_git, write


@pytest.mark.parametrize(
    ("name", "host"),
    [
        ("pallets/click", None),
        ("jax-ml/jax", "github.com"),
        (".github/.github", "github.com"),
        ("Some_Org/my.lib-2", None),
        ("group/sub/name", "gitlab.com"),
        ("group/a/b/c/name", "gitlab.example.com"),
        ("group/sub/name", "git.example.org"),  # may be a self-hosted GitLab
    ],
)
def test_valid_names(name: str, host: str | None) -> None:
    assert repo_name_problem(name, host) is None


@pytest.mark.parametrize(
    ("name", "host", "why"),
    [
        ("owner/name\n", None, "more than letters"),
        ("owner/name\n<script>", None, "more than letters"),
        ("<b>owner</b>/name", None, "more than letters"),
        ("owner/na me", None, "more than letters"),
        ("owner/näme", None, "more than letters"),
        ("owner/", None, "more than letters"),
        ("owner/../name", "gitlab.com", "path step"),
        ("owner/..", None, "path step"),
        ("name", None, "no owner"),
        ("group/sub/name", None, "github.com has no subgroups"),
        ("group/sub/name", "github.com", "github.com has no subgroups"),
        ("group/sub/name", "codeberg.org", "codeberg.org has no subgroups"),
        ("/".join(["g"] * 22), "gitlab.com", "deeper"),
        ("owner/name", "ev<il>.com", "not a host name"),
    ],
)
def test_invalid_names_say_why(name: str, host: str | None, why: str) -> None:
    problem = repo_name_problem(name, host)
    assert problem is not None and why in problem


@pytest.mark.parametrize(
    "url",
    [
        "https://github.com/owner/na%0Ame",
        "https://github.com/owner/%3Cscript%3E",
        "git@github.com:owner/na%20me.git",
    ],
)
def test_remote_urls_with_invalid_names_name_nothing(url: str) -> None:
    info = parse_remote_url(url)
    assert (info.repo, info.forge_url) == (None, None)
    assert info.problem is not None and "not a repository name" in info.problem


def test_gitlab_subgroups_are_kept() -> None:
    info = parse_remote_url("https://gitlab.com/group/sub/name.git")
    assert (info.repo, info.forge_url) == ("group/sub/name", "https://gitlab.com/group/sub/name")


def _meta(*urls: str) -> Message:
    meta = Message()
    for url in urls:
        meta["Project-URL"] = url
    return meta


def test_an_invalid_project_url_is_dropped_with_a_reason(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        info = project_repo(
            _meta(
                "Source, https://github.com/evil/%3Cimg%20src=x%3E",
                "Issues, https://github.com/good-org/good/issues",
            )
        )
    assert info is not None and info.repo == "good-org/good"
    assert "ignoring the project URL" in caplog.text and "not a repository name" in caplog.text


@pytest.mark.parametrize(
    ("override", "why"),
    [
        ("not a repo", "no owner"),
        ("owner/not a repo", "more than letters"),
        ("owner/name\n<script>", "more than letters"),
        ("name", "no owner"),
        ("group/sub/name", "no subgroups"),  # no host given: GitHub has no subgroups
        ("https://github.com/owner", "names no owner/name"),
        ("file:///srv/owner/name.git", "path on this machine"),
    ],
)
def test_bad_repo_overrides_say_what_a_name_looks_like(
    git_repo: Path, override: str, why: str
) -> None:
    with pytest.raises(SourceError) as info:
        open_source(str(git_repo), repo=override)
    assert why in str(info.value) and REPO_NAME_HELP in str(info.value)


@pytest.mark.parametrize(
    ("override", "repo", "forge"),
    [
        ("gitlab.com/group/sub/name", "group/sub/name", "https://gitlab.com/group/sub/name"),
        ("https://gitlab.com/g/sub/n/-/tree/main", "g/sub/n", "https://gitlab.com/g/sub/n"),
        (" acme/widgets.git ", "acme/widgets", "https://github.com/acme/widgets"),
    ],
)
def test_good_repo_overrides(git_repo: Path, override: str, repo: str, forge: str) -> None:
    co = open_source(str(git_repo), repo=override)
    assert (co.repo, co.forge_url, co.repo_problem) == (repo, forge, None)


def test_subgroups_on_a_detected_gitlab_host(git_repo: Path) -> None:
    run_git(git_repo, "remote", "add", "origin", "git@gitlab.example.com:team/proj.git")
    co = open_source(str(git_repo), repo="team/sub/proj")
    assert co.forge_url == "https://gitlab.example.com/team/sub/proj"


def test_a_remote_that_is_a_local_path_names_nothing(git_repo: Path, tmp_path: Path) -> None:
    """A clone of /work/main used to be catalogued as ``work/main``."""
    clone = tmp_path / "clone"
    run_git(tmp_path, "clone", "-q", str(git_repo), str(clone))
    co = open_source(str(clone))
    assert (co.repo, co.forge_url) == (None, None)
    assert co.repo_problem == (
        f"its git remote {str(git_repo)!r} is a path on this machine, not a repository on a forge"
    )


def _scan(*args: str) -> tuple[int, str]:
    result = CliRunner().invoke(main, ["scan", *args])
    assert "Traceback" not in result.output
    return result.exit_code, " ".join(result.output.split())


def test_cli_asks_for_repo_for_a_file_url_as_for_a_directory(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "cache"))
    work = tmp_path / "newcomer" / "mini"
    write(work, "mini.py", "raise ValueError('x')\n")
    run_git(work, "init", "-q", "-b", "main")
    commit_all(work)
    db = str(tmp_path / "cat.db")
    code, directory = _scan(str(work), "--db", db)
    assert code == 2 and "Name it with --repo OWNER/NAME" in directory
    assert "its git work tree has no remote" in directory
    code, url = _scan(work.as_uri(), "--db", db)
    assert code == 2 and "Name it with --repo OWNER/NAME" in url
    assert "the URL is a path on this machine" in url
    assert not Path(db).exists() or "newcomer/mini" not in Path(db).read_bytes().decode("latin-1")
    code, _ = _scan(work.as_uri(), "--db", db, "--repo", "newcomer/mini", "--no-analyze")
    assert code == 0


@pytest.mark.parametrize("repo", ["a/b\n<script>alert(1)</script>", "x", "g/s/n", "a/b c"])
def test_cli_rejects_bad_repo_names_with_what_a_name_looks_like(
    git_repo: Path, tmp_path: Path, repo: str
) -> None:
    code, message = _scan(str(git_repo), "--repo", repo, "--db", str(tmp_path / "c.db"))
    assert code == 2 and "a repository name is owner/name" in message
    assert not (tmp_path / "c.db").exists()


def test_cli_shows_markup_in_a_repo_name_as_text(git_repo: Path, tmp_path: Path) -> None:
    code, message = _scan(
        str(git_repo), "--repo", "[bold]x[/bold]/y", "--db", str(tmp_path / "c.db")
    )
    assert code == 2 and "'[bold]x[/bold]/y'" in message


def test_cli_checks_repo_for_the_stdlib_too(tmp_path: Path) -> None:
    code, message = _scan("--stdlib", "--repo", "py\nthon/cpython", "--db", str(tmp_path / "c.db"))
    assert code == 2 and "a repository name is owner/name" in message
