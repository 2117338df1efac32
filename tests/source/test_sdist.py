"""Source distributions: fetched with pip into errdex's cache, unpacked safely, checked."""

from __future__ import annotations

import io
import os
import subprocess
import sys
import tarfile
import zipfile
from importlib import metadata
from pathlib import Path

import pytest

from errdex.source.errors import SourceError
from errdex.source.sdist import (
    check_version,
    fetch_sdist,
    open_sdist,
    pip_failure,
    sdist_cache_dir,
    sdist_tests,
    unpack_sdist,
    unpacked_once,
)

ROOT = Path(__file__).resolve().parents[2]
TEST_CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-test"))


def _tar(path: Path, members: dict[str, bytes], links: dict[str, str] | None = None) -> Path:
    with tarfile.open(path, "w:gz") as tar:
        for name, data in members.items():
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tar.addfile(info, io.BytesIO(data))
        for name, target in (links or {}).items():
            info = tarfile.TarInfo(name)
            info.type = tarfile.SYMTYPE
            info.linkname = target
            tar.addfile(info)
    return path


def test_cache_dir_honours_xdg(monkeypatch: pytest.MonkeyPatch, tmp_path: Path) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert sdist_cache_dir() == tmp_path / "errdex" / "sdist"
    monkeypatch.setenv("XDG_CACHE_HOME", "relative/not/used")
    assert sdist_cache_dir() == Path.home() / ".cache" / "errdex" / "sdist"


def test_unpack_keeps_every_member_inside(tmp_path: Path) -> None:
    outside = tmp_path / "evil.txt"
    archive = _tar(
        tmp_path / "pkg-1.0.tar.gz",
        {
            "pkg-1.0/PKG-INFO": b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n",
            "pkg-1.0/pkg/_x.pyx": b"raise ValueError('x')\n",
            "pkg-1.0/../../evil.txt": b"escaped",
            "/tmp/absolute-evil.txt": b"escaped",
        },
        links={"pkg-1.0/link": "/etc/passwd"},
    )
    root = unpack_sdist(archive, tmp_path / "out" / "unpacked")
    assert root == tmp_path / "out" / "unpacked" / "pkg-1.0"
    assert (root / "pkg" / "_x.pyx").read_text() == "raise ValueError('x')\n"
    assert not outside.exists()
    assert not (root / "link").exists() and not (root / "link").is_symlink()
    assert sorted(p.name for p in (tmp_path / "out" / "unpacked").iterdir()) == ["pkg-1.0"]


def test_unpack_a_zip_refuses_traversal_and_links(tmp_path: Path) -> None:
    archive = tmp_path / "pkg-1.0.zip"
    with zipfile.ZipFile(archive, "w") as zf:
        zf.writestr("pkg-1.0/pkg/a.pyx", "raise X\n")
        zf.writestr("../escaped.txt", "x")
        link = zipfile.ZipInfo("pkg-1.0/link")
        link.external_attr = 0o120777 << 16
        zf.writestr(link, "/etc/passwd")
    root = unpack_sdist(archive, tmp_path / "unpacked")
    assert (root / "pkg" / "a.pyx").is_file()
    assert not (tmp_path / "escaped.txt").exists()
    assert not (root / "link").exists()


def test_unpack_refuses_an_archive_over_the_cap(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "big-1.0.tar.gz", {"big-1.0/blob": b"0" * 4096})
    with pytest.raises(SourceError, match="over errdex's cap"):
        unpack_sdist(archive, tmp_path / "unpacked", max_bytes=1024)
    assert not (tmp_path / "unpacked").exists()


def test_unpack_a_corrupt_archive_says_so(tmp_path: Path) -> None:
    archive = tmp_path / "pkg-1.0.tar.gz"
    archive.write_bytes(b"not a tar file")
    with pytest.raises(SourceError, match=r"cannot unpack pkg-1\.0\.tar\.gz"):
        unpack_sdist(archive, tmp_path / "unpacked")


def test_version_must_be_the_installed_one(tmp_path: Path) -> None:
    (tmp_path / "PKG-INFO").write_text("Metadata-Version: 2.1\nName: pkg\nVersion: 1.0.0\n")
    check_version(tmp_path, "pkg", "1.0")  # the same version, normalised
    with pytest.raises(SourceError, match=r"version 1\.0\.0, but 1\.1 is installed"):
        check_version(tmp_path, "pkg", "1.1")
    (tmp_path / "PKG-INFO").unlink()
    with pytest.raises(SourceError, match="no PKG-INFO"):
        check_version(tmp_path, "pkg", "1.0")


def test_no_such_sdist_on_the_index_says_what_to_do(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"has no source distribution of msgpack 0\.0\.0\.1"):
        fetch_sdist("msgpack", "0.0.0.1", cache_dir=tmp_path)


def test_no_network_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)  # no extra (local) indexes
    monkeypatch.setenv("PIP_RETRIES", "1")
    monkeypatch.setenv("PIP_TIMEOUT", "3")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    with pytest.raises(SourceError, match="cannot reach the package index"):
        fetch_sdist("msgpack", "1.1.0", cache_dir=tmp_path)


def test_open_sdist_reads_the_installed_version_from_pip(monkeypatch: pytest.MonkeyPatch) -> None:
    """PyYAML (installed here with its compiled ``_yaml``): its sdist holds ``_yaml.pyx``."""
    version = metadata.version("PyYAML")
    cache = TEST_CACHE / "sdist"
    monkeypatch.setenv("ERRDEX_OFFLINE", "1")
    checkout = open_sdist("PyYAML", cache_dir=cache)
    assert checkout.version == version
    assert checkout.repo == "yaml/pyyaml"
    assert checkout.files is None and checkout.path_prefix == ""
    assert (checkout.root / "yaml" / "_yaml.pyx").is_file()
    assert (checkout.root / "lib" / "yaml" / "__init__.py").is_file()
    # the archive is reused: a second open fetches nothing
    archive = next((cache / f"pyyaml-{version}").glob("*.tar.gz"))
    stamp = archive.stat().st_mtime_ns
    open_sdist("PyYAML", cache_dir=cache)
    assert archive.stat().st_mtime_ns == stamp


def test_cli_sdist_needs_package(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "scan", "--sdist", "--db", str(tmp_path / "x.db")],
        env={**os.environ, "PYTHONPATH": str(ROOT / "src")},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode != 0
    assert "--sdist goes with --package NAME" in done.stderr


OFFLINE_PIP = (
    "WARNING: Retrying after connection broken by 'NewConnectionError': "
    "Failed to establish a new connection: [Errno 111] Connection refused\n"
    "ERROR: Could not find a version that satisfies the requirement six==9 (from versions: none)\n"
    "ERROR: No matching distribution found for six==9\n"
)
MISSING_PIP = (
    "ERROR: Could not find a version that satisfies the requirement six==9 "
    "(from versions: 1.15.0, 1.16.0, 1.17.0)\nERROR: No matching distribution found for six==9\n"
)


def test_pip_failure_is_one_reading_with_each_callers_advice() -> None:
    # no network comes first, even where pip also lists no versions
    offline = pip_failure(OFFLINE_PIP, "six 9", missing="none", offline=", or scan a checkout")
    assert offline == (
        "cannot reach the package index to fetch six 9 (no network?); connect, or point pip "
        "at an index or mirror (PIP_INDEX_URL), or scan a checkout"
    )
    assert pip_failure(OFFLINE_PIP, "six 9", missing="none").endswith("(PIP_INDEX_URL)")
    # the index lacks it: the caller's own advice, unless its reading of the output says more
    assert pip_failure(MISSING_PIP, "six 9", missing="only wheels?") == "only wheels?"
    listed = pip_failure(MISSING_PIP, "six 9", missing="x", cause=lambda out: out[-30:-1])
    assert listed == MISSING_PIP[-30:-1]
    assert pip_failure(MISSING_PIP, "six 9", missing="plain", cause=lambda out: None) == "plain"
    # anything else: pip's last lines
    odd = pip_failure("a\nb\nc\nd\n", "six 9", missing="x")
    assert odd == "pip could not fetch six 9: b | c | d"


def test_sdist_tests_are_the_test_folders_of_the_cached_sdist(tmp_path: Path) -> None:
    folder = tmp_path / "pkg-1.0"
    folder.mkdir()
    _tar(
        folder / "pkg-1.0.tar.gz",
        {
            "pkg-1.0/PKG-INFO": b"Metadata-Version: 2.1\nName: pkg\nVersion: 1.0\n",
            "pkg-1.0/tests/test_x.py": b"def test_x():\n    pass\n",
            "pkg-1.0/src/pkg/__init__.py": b"",
        },
    )

    def no_pip(*args: object, **kwargs: object) -> subprocess.CompletedProcess[str]:
        raise AssertionError("the cached archive is used, pip is not run")

    (found,) = sdist_tests("pkg", "1.0", cache_dir=tmp_path, runner=no_pip)
    assert found == folder / "unpacked" / "pkg-1.0" / "tests"
    assert (found / "test_x.py").is_file()
    assert sdist_tests("pkg", "1.0", cache_dir=tmp_path, runner=no_pip) == [found]  # unpacked once
    with pytest.raises(SourceError, match=r"version 1\.0, but 2\.0 is installed"):
        (tmp_path / "pkg-2.0").mkdir()
        (folder / "pkg-1.0.tar.gz").rename(tmp_path / "pkg-2.0" / "pkg-1.0.tar.gz")
        sdist_tests("pkg", "2.0", cache_dir=tmp_path, runner=no_pip)


def test_unpacked_once_reuses_only_a_finished_unpack_of_the_same_archive(tmp_path: Path) -> None:
    archive = _tar(tmp_path / "pkg-1.0.tar.gz", {"pkg-1.0/PKG-INFO": b"Version: 1.0\n"})
    root = unpacked_once(archive)
    assert root == tmp_path / "unpacked" / "pkg-1.0"
    (root / "scratch").write_text("kept while the archive is unchanged")
    assert unpacked_once(archive) == root and (root / "scratch").is_file()

    # an interrupted unpack (no marker) is redone, not read half-written
    (tmp_path / ".unpacked").unlink()
    assert unpacked_once(archive) == root and not (root / "scratch").exists()

    # a replaced archive is unpacked afresh
    _tar(archive, {"pkg-1.0/PKG-INFO": b"Version: 1.0\n", "pkg-1.0/new.py": b"x = 1\n"})
    assert (unpacked_once(archive) / "new.py").is_file()


def test_unpacked_once_and_unpack_agree_on_the_root_of_a_flat_sdist(tmp_path: Path) -> None:
    # a folder beside a loose file: the tree's root is the unpack folder itself
    archive = _tar(tmp_path / "flat.tar.gz", {"PKG-INFO": b"Version: 1.0\n", "tests/t.py": b""})
    first = unpacked_once(archive)
    assert first == tmp_path / "unpacked"
    assert unpacked_once(archive) == first
