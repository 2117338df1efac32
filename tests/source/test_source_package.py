"""Installed distributions: files from RECORD, repo from metadata, commit or tag pin."""

from __future__ import annotations

import importlib
import json
from importlib import metadata
from pathlib import Path

import pytest

from errdex.evidence import source_evidence
from errdex.source import SourceError, iter_source_files, open_source, permalink
from errdex.source.gitcmd import is_full_sha
from errdex.source.package import top_level_names
from errdex.source.tags import load_schemes

from .helpers import commit_all, run_git, write

COMMIT = "89abcdef0123456789abcdef0123456789abcdef"


def _fake_dist(
    site: Path,
    monkeypatch: pytest.MonkeyPatch,
    *,
    name: str = "fakepkg",
    urls: tuple[str, ...] = (),
    home: str | None = None,
    direct_url: dict[str, object] | None = None,
    top_level: str | None = None,
) -> None:
    """A dist-info directory plus package files, importable from ``site``."""
    for rel in (
        f"{name}/__init__.py",
        f"{name}/core.py",
        f"{name}/tests/test_core.py",
        f"{name}/sub/conftest.py",
    ):
        write(site, rel, "raise ValueError('x')\n")
    write(site, f"{name}/__pycache__/core.cpython-311.pyc", "")
    info = site / f"{name}-1.2.3.dist-info"
    info.mkdir()
    lines = ["Metadata-Version: 2.1", f"Name: {name}", "Version: 1.2.3"]
    lines += [f"Project-URL: {u}" for u in urls]
    if home:
        lines.append(f"Home-page: {home}")
    (info / "METADATA").write_text("\n".join(lines) + "\n", encoding="utf-8")
    record = [
        f"{name}/__init__.py,,",
        f"{name}/core.py,sha256=abc,22",
        f"{name}/tests/test_core.py,,",
        f"{name}/sub/conftest.py,,",
        f"{name}/__pycache__/core.cpython-311.pyc,,",
        f"{name}/deleted.py,,",  # listed but no longer on disk
        f"{name}-1.2.3.dist-info/METADATA,,",
        f"{name}-1.2.3.dist-info/RECORD,,",
        "../../bin/fakepkg,,",
    ]
    (info / "RECORD").write_text("\n".join(record) + "\n", encoding="utf-8")
    if direct_url is not None:
        (info / "direct_url.json").write_text(json.dumps(direct_url), encoding="utf-8")
    if top_level is not None:
        (info / "top_level.txt").write_text(top_level, encoding="utf-8")
    monkeypatch.syspath_prepend(str(site))
    importlib.invalidate_caches()


SOURCE_URLS = (
    "Funding, https://github.com/sponsors/someone",
    "Documentation, https://fakepkg.readthedocs.io",
    "Source Code, https://github.com/fake-org/fakepkg/tree/main",
)


def test_fake_distribution_pins_release_tag(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _fake_dist(tmp_path, monkeypatch, urls=SOURCE_URLS)
    co = open_source(package="fakepkg")
    assert co.origin == "package" and co.version == "1.2.3"
    assert co.root == tmp_path.resolve()
    assert (co.repo, co.forge_url) == ("fake-org/fakepkg", "https://github.com/fake-org/fakepkg")
    assert (co.sha, co.ref, co.ref_kind) == (None, "v1.2.3", "tag")
    # not in the tag table, no remote to ask: the tag is a guess, and the record says so
    source = source_evidence(co)
    assert (source["refSource"], source["tag"], source["commit"]) == ("guessed", "v1.2.3", None)
    assert "tag guessed" in (source["commitNote"] or "")
    assert co.files == (
        "fakepkg/__init__.py",
        "fakepkg/core.py",
        "fakepkg/sub/conftest.py",
        "fakepkg/tests/test_core.py",
    )
    listing = iter_source_files(co)
    assert listing.files == ["fakepkg/__init__.py", "fakepkg/core.py"]
    assert listing.excluded == 2 and listing.skipped == []
    assert (
        permalink(co, "fakepkg/core.py", 1, 1)
        == "https://github.com/fake-org/fakepkg/blob/v1.2.3/fakepkg/core.py#L1"
    )


def test_fake_distribution_tag_told(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_dist(tmp_path, monkeypatch, urls=SOURCE_URLS)
    co = open_source(package="fakepkg", ref="fakepkg-1.2.3")
    assert (co.ref, co.ref_kind) == ("fakepkg-1.2.3", "tag")
    assert source_evidence(co)["refSource"] == "given"


def test_fake_distribution_with_commit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    direct: dict[str, object] = {
        "url": "https://github.com/fork-owner/fakepkg.git",
        "vcs_info": {"vcs": "git", "commit_id": COMMIT, "requested_revision": "main"},
    }
    _fake_dist(tmp_path, monkeypatch, urls=SOURCE_URLS, direct_url=direct)
    co = open_source(package="fakepkg")
    assert (co.sha, co.ref, co.ref_kind) == (COMMIT, COMMIT, "commit")
    assert co.repo == "fork-owner/fakepkg"  # where it was actually installed from
    source = source_evidence(co)
    assert (source["refSource"], source["commit"], source["commitNote"]) == (
        "direct_url",
        COMMIT,
        None,
    )
    assert permalink(co, "fakepkg/core.py", 2, 4) == (
        f"https://github.com/fork-owner/fakepkg/blob/{COMMIT}/fakepkg/core.py#L2-L4"
    )


def test_gitlab_home_page(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_dist(tmp_path, monkeypatch, home="https://gitlab.com/grp/sub/fakepkg")
    co = open_source(package="fakepkg")
    assert (co.repo, co.forge_url) == ("grp/sub/fakepkg", "https://gitlab.com/grp/sub/fakepkg")
    assert permalink(co, "fakepkg/core.py", 1, 2) == (
        "https://gitlab.com/grp/sub/fakepkg/-/blob/v1.2.3/fakepkg/core.py#L1-2"
    )


def test_no_forge_in_metadata(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_dist(tmp_path, monkeypatch, urls=("Documentation, https://example.org",))
    co = open_source(package="fakepkg")
    assert co.repo is None and permalink(co, "fakepkg/core.py", 1, 1) is None
    assert open_source(package="fakepkg", repo="me/fakepkg").repo == "me/fakepkg"


def test_top_level_txt_is_respected(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    _fake_dist(tmp_path, monkeypatch, top_level="fakepkg\n")
    write(tmp_path, "stray/x.py")
    assert all(f.startswith("fakepkg/") for f in open_source(package="fakepkg").files or ())


def test_editable_install_opens_the_project(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    project = tmp_path / "project"
    project.mkdir()
    run_git(project, "init", "-q", "-b", "main")
    run_git(project, "remote", "add", "origin", "git@github.com:fake-org/fakepkg.git")
    write(project, "src/fakepkg/__init__.py")
    sha = commit_all(project)
    site = tmp_path / "site"
    _fake_dist(
        site, monkeypatch, direct_url={"url": project.as_uri(), "dir_info": {"editable": True}}
    )
    co = open_source(package="fakepkg")
    assert co.origin == "package" and co.version == "1.2.3"
    assert co.root == project.resolve() and co.files is None
    assert (co.repo, co.sha) == ("fake-org/fakepkg", sha)


def test_real_installed_package() -> None:
    co = open_source(package="click")
    version = metadata.version("click")
    assert co.origin == "package" and co.version == version
    assert co.repo == "pallets/click" and co.forge_url == "https://github.com/pallets/click"
    # click tags releases without a ``v`` and keeps its package under src/ (the tag table)
    scheme = load_schemes()["click"]
    assert (co.tag, co.path_prefix) == (version, "src/")
    if scheme.commit_for(version) is None:
        assert (co.ref, co.ref_kind, co.sha) == (version, "tag", None)
        assert permalink(co, "click/core.py", 3, 5) == (
            f"https://github.com/pallets/click/blob/{version}/src/click/core.py#L3-L5"
        )
    source = source_evidence(co)
    assert source["refSource"] == "table" and source["tag"] == version
    assert co.files is not None and "click/core.py" in co.files
    assert not any(".dist-info" in f or "__pycache__" in f for f in co.files)
    assert (co.root / "click" / "core.py").is_file()
    listing = iter_source_files(co)
    assert "click/core.py" in listing.files and listing.skipped == []


def test_import_name_resolves_to_distribution() -> None:
    # google-re2 installs the import package ``re2``
    assert open_source(package="re2").files == open_source(package="google-re2").files


def test_missing_package_says_what_to_do() -> None:
    with pytest.raises(SourceError, match=r"not installed.*pip install"):
        open_source(package="surely-not-installed-errdex-xyz")


def test_release_commit_from_the_tag_table_pins_the_commit() -> None:
    # networkx 3.6.1 (a dev dependency) is in the table with the commit of networkx-3.6.1
    version = metadata.version("networkx")
    commit = load_schemes()["networkx"].commit_for(version)
    assert commit is not None and is_full_sha(commit), f"the table lacks networkx {version}"
    co = open_source(package="networkx")
    assert (co.sha, co.ref, co.ref_kind, co.tag) == (
        commit,
        commit,
        "commit",
        f"networkx-{version}",
    )
    source = source_evidence(co)
    assert (source["refSource"], source["commit"], source["commitNote"]) == ("table", commit, None)
    assert permalink(co, "networkx/exception.py", 1, 2) == (
        f"https://github.com/networkx/networkx/blob/{commit}/networkx/exception.py#L1-L2"
    )


def test_compiled_extension_is_not_called_metadata_only() -> None:
    # pyahocorasick installs one extension module, ahocorasick.cpython-*.so, and no Python
    dist = metadata.distribution("pyahocorasick")
    assert "ahocorasick" in top_level_names(dist)
    with pytest.raises(SourceError) as info:
        open_source(package="pyahocorasick")
    message = str(info.value)
    assert "compiled extension" in message and "no Python source" in message
    assert "ahocorasick." in message and "metadata-only" not in message


def test_single_file_extension_module_is_listed(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from importlib import machinery

    suffix = machinery.EXTENSION_SUFFIXES[0]
    # setuptools writes the module's import name to top_level.txt, not its file name
    _fake_dist(tmp_path, monkeypatch, urls=SOURCE_URLS, top_level="fakepkg\n_fastfake\n")
    info = tmp_path / "fakepkg-1.2.3.dist-info"
    (tmp_path / f"_fastfake{suffix}").write_bytes(b"\x7fELF")
    with (info / "RECORD").open("a", encoding="utf-8") as record:
        record.write(f"_fastfake{suffix},,\n")
    co = open_source(package="fakepkg")
    assert f"_fastfake{suffix}" in (co.files or ())
    assert "fakepkg/core.py" in (co.files or ())
