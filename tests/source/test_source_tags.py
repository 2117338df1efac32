"""Release tags: the checked table, ``git ls-remote`` against a real file:// remote, the guess."""

from __future__ import annotations

import json
import socket
from collections.abc import Iterator
from importlib import metadata
from pathlib import Path

import pytest

from errdex.source import tags
from errdex.source.gitcmd import is_full_sha
from errdex.source.package import project_repo
from errdex.source.tags import (
    TagScheme,
    candidate_tags,
    load_schemes,
    ls_remote_tags,
    parse_ls_remote,
    release_ref,
    scheme_for,
)

from .helpers import commit_all, run_git, write


@pytest.fixture(autouse=True)
def _fresh_remote_cache() -> Iterator[None]:
    """Each test asks remotes afresh (the module remembers answers for one process)."""
    tags._listed.clear()
    tags._unreachable.clear()
    yield
    tags._listed.clear()
    tags._unreachable.clear()


@pytest.fixture
def tagged_remote(bare_remote: tuple[Path, Path]) -> tuple[str, dict[str, str]]:
    """The shared bare remote, served by file://, with tags v1.0 (annotated), 1.0 and pkg-1.0.

    Each tag is on its own commit. Returns the repository's forge-style URL (without
    ``.git``) and tag -> commit.
    """
    bare, work = bare_remote
    commits = {"v1.0": run_git(work, "rev-parse", "v1.0^{commit}")}
    commits["1.0"] = run_git(work, "rev-parse", "HEAD")
    run_git(work, "tag", "1.0")
    write(work, "pkg/mod.py", "VERSION = 3\n")
    commits["pkg-1.0"] = commit_all(work, "three")
    run_git(work, "tag", "pkg-1.0")
    run_git(work, "push", "-q", "origin", "main", "--tags")
    return bare.as_uri().removesuffix(".git"), commits


def _only(remote_tags: dict[str, str], keep: str, tmp_path: Path) -> str:
    """A copy of the remote holding only tag ``keep``; returns its forge-style URL."""
    bare = tmp_path / f"only-{keep}" / "owner" / "proj.git"
    bare.parent.mkdir(parents=True)
    run_git(tmp_path, "clone", "-q", "--bare", str(tmp_path / "remote/owner/proj.git"), str(bare))
    for tag in remote_tags:
        if tag != keep:
            run_git(bare, "tag", "-d", tag)
    return bare.as_uri().removesuffix(".git")


def test_ls_remote_lists_tags_with_the_commits_they_point_at(
    tagged_remote: tuple[str, dict[str, str]],
) -> None:
    url, commits = tagged_remote
    listed = ls_remote_tags(url + ".git")
    # the annotated v1.0 resolves to its commit, not to the tag object
    assert listed == commits


def test_parse_ls_remote_prefers_the_peeled_commit(
    tagged_remote: tuple[str, dict[str, str]],
) -> None:
    url, commits = tagged_remote
    out = run_git(Path.cwd(), "ls-remote", "--tags", url + ".git")
    tag_object = next(
        line.split("\t")[0] for line in out.splitlines() if line.endswith("refs/tags/v1.0")
    )
    assert tag_object != commits["v1.0"]  # annotated: the plain line names the tag object
    assert parse_ls_remote(out)["v1.0"] == commits["v1.0"]
    assert parse_ls_remote("garbage\nnot-a-sha\trefs/tags/x\n") == {}


@pytest.mark.parametrize("kept", ["v1.0", "1.0", "pkg-1.0"])
def test_release_found_by_ls_remote_under_each_scheme(
    tagged_remote: tuple[str, dict[str, str]], tmp_path: Path, kept: str
) -> None:
    _, commits = tagged_remote
    url = _only(commits, kept, tmp_path)
    ref = release_ref("pkg", "1.0", "owner/proj", url, schemes={})
    assert (ref.tag, ref.commit, ref.source) == (kept, commits[kept], "ls-remote")
    assert ref.note is None


def test_v_tag_wins_when_several_schemes_exist(tagged_remote: tuple[str, dict[str, str]]) -> None:
    url, commits = tagged_remote
    ref = release_ref("pkg", "1.0", "owner/proj", url, schemes={})
    assert (ref.tag, ref.commit) == ("v1.0", commits["v1.0"])


def test_no_matching_tag_is_a_guess_that_says_so(
    tagged_remote: tuple[str, dict[str, str]],
) -> None:
    url, _ = tagged_remote
    ref = release_ref("pkg", "2.0", "owner/proj", url, schemes={})
    assert (ref.tag, ref.commit, ref.source) == ("v2.0", None, "guessed")
    assert ref.note is not None and "no tag of the remote names version 2.0" in ref.note


def test_unreachable_remote_is_unknown_not_an_error(tmp_path: Path) -> None:
    url = (tmp_path / "missing" / "owner" / "proj").as_uri()
    assert ls_remote_tags(url + ".git") is None
    ref = release_ref("pkg", "1.0", "owner/proj", url, schemes={})
    assert (ref.tag, ref.commit, ref.source) == ("v1.0", None, "guessed")
    assert ref.note is not None and "could not be asked" in ref.note


def test_a_remote_that_never_answers_times_out_and_is_not_asked_again(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.delenv(tags.OFFLINE_ENV, raising=False)  # loopback only: not the network
    # a real TCP listener that accepts connections but never speaks HTTP back
    with socket.socket() as server:
        server.bind(("127.0.0.1", 0))
        server.listen(8)
        port = server.getsockname()[1]
        url = f"http://127.0.0.1:{port}/owner/proj.git"
        assert ls_remote_tags(url, timeout=1.0) is None
        assert "127.0.0.1" in tags._unreachable
        other = f"http://127.0.0.1:{port}/owner/other.git"
        assert ls_remote_tags(other, timeout=1.0) is None
        assert other not in tags._listed  # the host was not asked a second time


def test_offline_setting_skips_network_remotes_only(
    tagged_remote: tuple[str, dict[str, str]], monkeypatch: pytest.MonkeyPatch
) -> None:
    url, commits = tagged_remote
    monkeypatch.setenv(tags.OFFLINE_ENV, "1")
    assert ls_remote_tags("https://127.0.0.1:9/owner/proj.git") is None
    assert "https://127.0.0.1:9/owner/proj.git" not in tags._listed
    assert ls_remote_tags(url + ".git") == commits  # file:// is not the network


def test_table_entry_gives_tag_prefix_and_commit_without_asking(tmp_path: Path) -> None:
    commit = "0123456789abcdef0123456789abcdef01234567"
    table = {
        "pkg": TagScheme(
            "owner/proj",
            "pkg-{version}",
            "src/",
            tags={"4.9.0": "4.9"},
            commits={"1.0": commit},
        )
    }
    url = (tmp_path / "nowhere" / "owner" / "proj").as_uri()
    ref = release_ref("Pkg", "1.0", "owner/proj", url, schemes=table)
    assert (ref.tag, ref.commit, ref.source, ref.path_prefix) == (
        "pkg-1.0",
        commit,
        "table",
        "src/",
    )
    assert url + ".git" not in tags._listed  # the table knew the commit: no git call
    odd = release_ref("pkg", "4.9.0", "owner/proj", url, schemes=table)
    assert (odd.tag, odd.commit, odd.source) == ("4.9", None, "table")
    assert odd.note is not None and "the remote could not be asked" in odd.note


def test_table_tag_with_commit_from_ls_remote(tagged_remote: tuple[str, dict[str, str]]) -> None:
    url, commits = tagged_remote
    table = {"pkg": TagScheme("owner/proj", "{version}")}
    ref = release_ref("pkg", "1.0", "owner/proj", url, schemes=table)
    assert (ref.tag, ref.commit, ref.source) == ("1.0", commits["1.0"], "table")


def test_table_entry_for_another_repository_is_not_used() -> None:
    table = {"pkg": TagScheme("owner/proj", "{version}")}
    assert scheme_for("pkg", "OWNER/Proj", table) is not None
    assert scheme_for("pkg", "fork/proj", table) is None
    assert scheme_for("pkg", None, table) is None


def test_candidate_tags_cover_common_schemes() -> None:
    assert candidate_tags("Foo_Bar", "2.1") == [
        "v2.1",
        "2.1",
        "Foo_Bar-2.1",
        "foo-bar-2.1",
        "foo_bar-2.1",
    ]


def test_malformed_table_entries_are_left_out(tmp_path: Path) -> None:
    path = tmp_path / "tags.json"
    path.write_text(
        json.dumps(
            {
                "projects": {
                    "Good_Name": {"repo": "o/n", "tag": "v{version}", "commits": {"1": "x"}},
                    "no-template": {"repo": "o/n", "tag": "v1"},
                    "not-a-dict": "v{version}",
                }
            }
        ),
        encoding="utf-8",
    )
    schemes = load_schemes(path)
    assert set(schemes) == {"good-name"}
    assert schemes["good-name"].commit_for("1") is None  # not a full sha: ignored
    path.write_text("{not json", encoding="utf-8")
    assert load_schemes(path) == {}


# -- the shipped table -------------------------------------------------------------------


def test_shipped_table_is_well_formed() -> None:
    raw = json.loads(
        (Path(tags.__file__).parent.parent / "data" / "tags.json").read_text(encoding="utf-8")
    )["projects"]
    schemes = load_schemes()
    assert set(schemes) == set(raw) and len(schemes) > 30
    for name, entry in raw.items():
        assert tags.normalize_name(name) == name
        assert "{version}" in entry["tag"] and entry["checked"]
        assert entry.get("pathPrefix", "").endswith("/") or "pathPrefix" not in entry
        for version, commit in entry.get("commits", {}).items():
            assert is_full_sha(commit) and commit == commit.lower(), (name, version)


def test_shipped_table_names_the_repositories_installed_distributions_name() -> None:
    schemes = load_schemes()
    checked = 0
    for dist in metadata.distributions():
        scheme = schemes.get(tags.normalize_name(dist.metadata["Name"]))
        if scheme is None:
            continue
        info = project_repo(dist.metadata)
        assert info is not None and info.repo is not None
        assert info.repo.lower() == scheme.repo.lower(), dist.metadata["Name"]
        checked += 1
    assert checked >= 10


def test_a_remote_without_tags_is_an_answer_not_an_unreachable_remote(
    bare_remote: tuple[Path, Path],
) -> None:
    bare, _ = bare_remote
    run_git(bare, "tag", "-d", "v1.0")
    url = bare.as_uri().removesuffix(".git")
    assert ls_remote_tags(url + ".git") == {}
    guess = release_ref("pkg", "1.0", "owner/proj", url, schemes={})
    assert guess.note == "tag guessed: no tag of the remote names version 1.0"
    table = {"pkg": TagScheme("owner/proj", "{version}")}
    tabled = release_ref("pkg", "1.0", "owner/proj", url, schemes=table)
    assert tabled.note is not None and tabled.note.endswith("the remote does not list it")
