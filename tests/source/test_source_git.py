"""Git URLs: clone a bare repository over file:// into the cache, at tag, sha or branch."""

from __future__ import annotations

import logging
import shutil
from pathlib import Path

import pytest

from errdex.source import SourceError, default_cache_dir, iter_source_files, open_source, permalink

from .helpers import commit_all, run_git, write


def _read(root: Path) -> str:
    return (root / "pkg" / "mod.py").read_text(encoding="utf-8")


def test_clone_at_tag(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, work = bare_remote
    tagged = run_git(work, "rev-parse", "v1.0^{commit}")
    co = open_source(f"{bare.as_uri()}@v1.0", repo="owner/proj", cache_dir=tmp_path / "cache")
    assert co.origin == "git"
    assert co.sha == tagged and co.ref == tagged and co.ref_kind == "commit"
    assert co.repo == "owner/proj" and co.repo_problem is None
    assert co.forge_url == "https://github.com/owner/proj"
    assert _read(co.root) == "VERSION = 1\n"
    assert co.root.is_relative_to(tmp_path / "cache")
    assert run_git(co.root, "rev-parse", "--abbrev-ref", "HEAD") == "HEAD"  # detached
    assert (
        permalink(co, "pkg/mod.py", 1, 1)
        == f"https://github.com/owner/proj/blob/{tagged}/pkg/mod.py#L1"
    )
    assert iter_source_files(co).files == ["pkg/mod.py"]


def test_clone_at_sha_and_default_branch(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, work = bare_remote
    first = run_git(work, "rev-parse", "HEAD~1")
    head = run_git(work, "rev-parse", "HEAD")
    at_sha = open_source(f"{bare.as_uri()}@{first}", cache_dir=tmp_path / "cache")
    default = open_source(bare.as_uri(), cache_dir=tmp_path / "cache")
    assert at_sha.sha == first and _read(at_sha.root) == "VERSION = 1\n"
    assert default.sha == head and _read(default.root) == "VERSION = 2\n"
    # one work tree per commit: the first checkout is untouched by the second
    assert at_sha.root != default.root and _read(at_sha.root) == "VERSION = 1\n"


def test_file_url_names_no_repository(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    """Its folders are this machine's: ``.../owner/proj.git`` is not guessed into owner/proj."""
    co = open_source(f"{bare_remote[0].as_uri()}@v1.0", cache_dir=tmp_path / "cache")
    assert (co.repo, co.forge_url) == (None, None)
    assert co.repo_problem == "the URL is a path on this machine, not a repository on a forge"
    assert permalink(co, "pkg/mod.py", 1, 1) is None


def test_short_sha_and_sha_keyword(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, work = bare_remote
    first = run_git(work, "rev-parse", "HEAD~1")
    assert open_source(f"{bare.as_uri()}@{first[:8]}", cache_dir=tmp_path / "c").sha == first
    assert open_source(bare.as_uri(), sha=first, cache_dir=tmp_path / "c").sha == first


def test_repo_override(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, _ = bare_remote
    co = open_source(f"{bare.as_uri()}@v1.0", repo="gitlab.com/grp/proj", cache_dir=tmp_path / "c")
    assert (co.repo, co.forge_url) == ("grp/proj", "https://gitlab.com/grp/proj")


def test_cache_is_reused_and_fetched(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, work = bare_remote
    cache = tmp_path / "cache"
    before = open_source(f"{bare.as_uri()}@main", cache_dir=cache)
    entries = list(cache.iterdir())
    write(work, "pkg/mod.py", "VERSION = 3\n")
    newest = commit_all(work, "three")
    run_git(work, "push", "-q", "origin", "main")
    after = open_source(f"{bare.as_uri()}@main", cache_dir=cache)
    assert list(cache.iterdir()) == entries  # same cache entry (keyed by URL)
    assert after.sha == newest != before.sha
    assert _read(after.root) == "VERSION = 3\n"


def test_cached_commit_needs_no_remote(
    bare_remote: tuple[Path, Path], tmp_path: Path, caplog: pytest.LogCaptureFixture
) -> None:
    bare, work = bare_remote
    head = run_git(work, "rev-parse", "HEAD")
    cache = tmp_path / "cache"
    url = bare.as_uri()
    open_source(f"{url}@{head}", cache_dir=cache)
    shutil.move(bare, tmp_path / "gone.git")  # the remote disappears
    assert open_source(f"{url}@{head}", cache_dir=cache).sha == head
    with caplog.at_level(logging.WARNING):
        assert open_source(f"{url}@v1.0", cache_dir=cache).sha == run_git(
            work, "rev-parse", "v1.0^{}"
        )
    assert "without update" in caplog.text
    with pytest.raises(SourceError, match=r"not found|failed"):
        open_source(f"{url}@v9", cache_dir=cache)


def test_default_cache_dir_follows_xdg(
    bare_remote: tuple[Path, Path], tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path / "xdg"))
    assert default_cache_dir() == tmp_path / "xdg" / "errdex" / "git"
    co = open_source(f"{bare_remote[0].as_uri()}@v1.0")
    assert co.root.is_relative_to(tmp_path / "xdg" / "errdex" / "git")


def test_default_cache_dir_without_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.delenv("XDG_CACHE_HOME", raising=False)
    monkeypatch.setenv("HOME", str(tmp_path))
    assert default_cache_dir() == tmp_path / ".cache" / "errdex" / "git"


def test_unknown_ref_is_clear(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"ref 'nope' not found"):
        open_source(f"{bare_remote[0].as_uri()}@nope", cache_dir=tmp_path / "c")


def test_unreachable_url_is_clear(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="git clone") as info:
        open_source((tmp_path / "missing.git").as_uri() + "@v1", cache_dir=tmp_path / "c")
    assert "Check the URL" in str(info.value)


def test_option_like_ref_is_rejected(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="not a valid git ref"):
        open_source(f"{bare_remote[0].as_uri()}@--upload-pack=touch", cache_dir=tmp_path / "c")


def test_conflicting_refs(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="conflicting"):
        open_source(f"{bare_remote[0].as_uri()}@v1.0", ref="main", cache_dir=tmp_path / "c")


def test_interrupted_work_tree_is_rebuilt(bare_remote: tuple[Path, Path], tmp_path: Path) -> None:
    bare, _ = bare_remote
    co = open_source(f"{bare.as_uri()}@v1.0", cache_dir=tmp_path / "c")
    shutil.rmtree(co.root)
    co.root.mkdir()  # an empty leftover, as after a crash
    again = open_source(f"{bare.as_uri()}@v1.0", cache_dir=tmp_path / "c")
    assert again.root == co.root and _read(again.root) == "VERSION = 1\n"
