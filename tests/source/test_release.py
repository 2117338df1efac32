"""A release from the package index (``NAME==VERSION``), fetched with pip, never installed.

The network tests ask the real package index for ``six`` (one module, tiny wheels) at
two releases; the archives are kept in the test cache, so reruns fetch nothing.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from errdex.source.errors import SourceError
from errdex.source.release import (
    fetch_release,
    is_release_spec,
    open_release,
    parse_release_spec,
)

ROOT = Path(__file__).resolve().parents[2]
TEST_CACHE = Path(os.environ.get("ERRDEX_TEST_CACHE", Path.home() / ".cache" / "errdex-test"))
RELEASES = TEST_CACHE / "release"


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("attrs==25.4.0", ("attrs", "25.4.0")),
        (" six == 1.16.0 ", ("six", "1.16.0")),
        ("typing_extensions==4.12.2", ("typing_extensions", "4.12.2")),
        ("pkg==1.0rc1", ("pkg", "1.0rc1")),
    ],
)
def test_parse_release_spec(text: str, expected: tuple[str, str]) -> None:
    assert parse_release_spec(text) == expected


@pytest.mark.parametrize(
    ("text", "says"),
    [
        ("attrs>=25", "one exact release as NAME==VERSION"),
        ("attrs===25.4.0", "one exact release as NAME==VERSION"),
        ("attrs==", "is not one version"),
        ("==25.4.0", "is not a package name"),
        ("att rs==1.0", "is not a package name"),
        ("attrs==1.0==2.0", "is not one version"),
        ("attrs==1.0,<2", "is not one version"),
        ("attrs==latest", "is not a PEP 440 version"),
    ],
)
def test_bad_specs_say_what_is_accepted(text: str, says: str) -> None:
    assert is_release_spec(text)
    with pytest.raises(SourceError, match=says):
        parse_release_spec(text)


def test_a_plain_name_is_not_a_release_spec() -> None:
    assert not is_release_spec("attrs")
    assert not is_release_spec("typing_extensions")


def _fake_wheel(folder: Path, name: str, version: str) -> Path:
    folder.mkdir(parents=True)
    path = folder / f"{name}-{version}-py3-none-any.whl"
    info = f"{name}-{version}.dist-info"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr(f"{name}.py", "raise ValueError('boom')\n")
        zf.writestr(f"{info}/METADATA", f"Metadata-Version: 2.1\nName: {name}\nVersion: 9.9\n")
        zf.writestr(f"{info}/RECORD", f"{name}.py,,\n{info}/METADATA,,\n{info}/RECORD,,\n")
    return path


def test_a_cached_wheel_of_another_version_is_refused(tmp_path: Path) -> None:
    _fake_wheel(tmp_path / "fakepkg-1.0", "fakepkg", "1.0")  # its METADATA says 9.9
    with pytest.raises(SourceError, match=r"is fakepkg 9\.9, not 1\.0; delete it"):
        open_release("fakepkg==1.0", cache_dir=tmp_path)


def test_unknown_version_lists_the_releases_there_are(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match=r"has no release 0\.0\.0\.1 of six; its latest") as err:
        fetch_release("six", "0.0.0.1", cache_dir=tmp_path)
    assert "1.16.0" in str(err.value)
    assert not list(tmp_path.glob("six-*"))  # nothing cached for a failure


def test_unknown_package_says_so(tmp_path: Path) -> None:
    with pytest.raises(SourceError, match="has no package named"):
        fetch_release("errdex-no-such-package-zz9", "1.0", cache_dir=tmp_path)


def test_no_network_says_so(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("PIP_INDEX_URL", "http://127.0.0.1:9/simple")  # nothing listens there
    monkeypatch.setenv("PIP_CONFIG_FILE", os.devnull)
    monkeypatch.setenv("PIP_RETRIES", "1")
    monkeypatch.setenv("PIP_TIMEOUT", "3")
    monkeypatch.setenv("PIP_NO_CACHE_DIR", "1")
    with pytest.raises(SourceError, match="cannot reach the package index"):
        fetch_release("six", "1.16.0", cache_dir=tmp_path)


def test_open_release_reads_a_wheel_not_installed() -> None:
    checkout = open_release("six==1.16.0", cache_dir=RELEASES)
    assert checkout.version == "1.16.0"
    assert checkout.repo == "benjaminp/six"
    assert checkout.files == ("six.py",)
    assert checkout.origin == "package"
    assert (checkout.root / "six.py").is_file()
    archive = next((RELEASES / "six-1.16.0").glob("*.whl"))
    stamp = archive.stat().st_mtime_ns
    open_release("six==1.16.0", cache_dir=RELEASES)  # reused, not fetched again
    assert archive.stat().st_mtime_ns == stamp


def _errdex(*args: str, cache: Path) -> subprocess.CompletedProcess[str]:
    env = {
        **os.environ,
        "PYTHONPATH": str(ROOT / "src"),
        "XDG_CACHE_HOME": str(cache),
        "ERRDEX_OFFLINE": "1",
    }
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_cli_scans_two_releases_into_one_catalogue(tmp_path: Path) -> None:
    cache = tmp_path / "xdg"
    release_cache = cache / "errdex" / "release"
    release_cache.mkdir(parents=True)
    for version in ("1.16.0", "1.17.0"):  # the test cache's archives, fetched once
        open_release(f"six=={version}", cache_dir=RELEASES)
        (release_cache / f"six-{version}").symlink_to(RELEASES / f"six-{version}")
    db = tmp_path / "six.db"
    summaries = []
    for version in ("1.16.0", "1.17.0"):
        done = _errdex(
            "scan", "--package", f"six=={version}", "--db", str(db), "--json", cache=cache
        )
        assert done.returncode == 0, done.stderr
        summaries.append(json.loads(done.stdout))
    assert [s["version"] for s in summaries] == ["1.16.0", "1.17.0"]
    assert all(s["records"] > 10 for s in summaries)
    with sqlite3.connect(db) as conn:
        versions = [r[0] for r in conn.execute("SELECT version FROM scans ORDER BY id")]
        assert versions == ["1.16.0", "1.17.0"]
        both = conn.execute(
            "SELECT COUNT(*) FROM (SELECT record_id FROM record_versions "
            "GROUP BY record_id HAVING COUNT(*) = 2)"
        ).fetchone()[0]
        moved = conn.execute(
            "SELECT COUNT(DISTINCT a.record_id) FROM record_versions a JOIN record_versions b "
            "ON a.record_id = b.record_id AND a.pin < b.pin AND a.line_number != b.line_number"
        ).fetchone()[0]
    # the same raise keeps its id across the two releases, even where its line moved
    assert both > 10
    assert moved > 0


def test_cli_bad_spec_and_unknown_version_exit_2(tmp_path: Path) -> None:
    bad = _errdex("scan", "--package", "six>=1", "--db", str(tmp_path / "x.db"), cache=tmp_path)
    assert bad.returncode == 2
    assert "NAME==VERSION" in bad.stderr
    unknown = _errdex(
        "scan", "--package", "six==0.0.0.1", "--db", str(tmp_path / "x.db"), cache=tmp_path
    )
    assert unknown.returncode == 2
    assert "has no release 0.0.0.1 of six" in unknown.stderr
    assert "Traceback" not in unknown.stderr
