"""``errdex scan PATH --tags GLOB`` on a real git repository whose tags the test makes."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.scan_tags import ordered_tags
from errdex.source.errors import SourceError
from errdex.source.tagged import tagged_source
from errdex.store.sqlite import SqliteStore
from errdex.versions import version_ranges
from tests.source.helpers import commit_all, run_git, write

ROOT = Path(__file__).resolve().parents[1]
REPO = "acme/proj"

KEEP = "def keep(x):\n    if x < 0:\n        raise ValueError(f'negative: {x}')\n"
GONE = "def gone():\n    raise RuntimeError('gone in 1.10')\n"
ADDED = "def added():\n    raise TypeError('added in 1.9')\n"


def _release(work: Path, tag: str, padding: int, *parts: str) -> None:
    """Commit ``pkg/mod.py`` as ``padding`` comment lines then ``parts``, and tag it."""
    write(work, "pkg/mod.py", "# pad\n" * padding + "\n".join(parts))
    commit_all(work, tag)
    run_git(work, "tag", "-a", tag, "-m", f"release {tag}")


@pytest.fixture
def tagged_repo(tmp_path: Path) -> Path:
    """Tags made oldest release first: v1.2, v1.9, v1.10 (so name order would be wrong),
    a non-release tag, and a broken ``v1.5-broken`` that names a tree, not a commit."""
    work = tmp_path / "proj"
    work.mkdir()
    run_git(work, "init", "-q", "-b", "main")
    _release(work, "v1.2", 0, KEEP, GONE)
    _release(work, "v1.9", 3, KEEP, GONE, ADDED)
    _release(work, "v1.10", 7, ADDED, KEEP)
    run_git(work, "tag", "v1.5-broken", "HEAD^{tree}")
    run_git(work, "tag", "docs-1")
    return work


def _errdex(*args: str, tmp_path: Path) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "PYTHONPATH": str(ROOT / "src"), "XDG_CACHE_HOME": str(tmp_path / "xdg")}
    return subprocess.run(
        [sys.executable, "-m", "errdex", *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=600,
        check=False,
    )


def test_ordered_tags_is_release_order() -> None:
    # a tag that is no version follows the release listed (made) just before it
    assert ordered_tags(["v1.10", "v1.2", "nightly", "v1.9"]) == [
        "v1.2",
        "nightly",
        "v1.9",
        "v1.10",
    ]


def test_tagged_source_filters_by_glob_and_says_when_none_match(tagged_repo: Path) -> None:
    source = tagged_source(str(tagged_repo), "v1.*")
    assert sorted(source.tags) == ["v1.10", "v1.2", "v1.5-broken", "v1.9"]
    with pytest.raises(SourceError, match=r"no tag of .* matches 'v2\.\*' \(its latest tags:"):
        tagged_source(str(tagged_repo), "v2.*")
    with pytest.raises(SourceError, match="names a ref"):
        tagged_source(tagged_repo.as_uri() + "@v1.2", "v1.*")


def test_a_git_url_lists_its_tags_from_the_remote(tagged_repo: Path, tmp_path: Path) -> None:
    source = tagged_source(tagged_repo.as_uri(), "v1.*")
    assert source.local is None
    assert source.tags == sorted(["v1.10", "v1.2", "v1.5-broken", "v1.9"])
    db = tmp_path / "url.db"
    done = _errdex(
        "scan", tagged_repo.as_uri(), "--tags", "v1.[19]*", "--repo", REPO, "--db", str(db),
        "--no-analyze", "--json", tmp_path=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    assert [t["tag"] for t in json.loads(done.stdout)["tags"]] == ["v1.9", "v1.10"]


def test_scan_tags_oldest_first_skips_a_broken_tag_and_keeps_ids(
    tagged_repo: Path, tmp_path: Path
) -> None:
    db = tmp_path / "tags.db"
    done = _errdex(
        "scan", str(tagged_repo), "--tags", "v1.*", "--repo", REPO, "--db", str(db),
        "--no-analyze", tmp_path=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    scanned = [line.split(" ", 1)[0].rstrip(":") for line in lines if line.startswith("v1.")]
    # the broken tag names a tree, which has no date: git lists it first
    assert scanned == ["v1.5-broken", "v1.2", "v1.9", "v1.10"]
    assert any(line.startswith("v1.5-broken: skipped:") for line in lines)
    assert "3 of 4 tag(s) scanned" in done.stdout and "1 skipped" in done.stdout
    assert "[1/4] scanning" in done.stderr  # progress, per tag
    assert "1 new, 0 gone" in next(line for line in lines if line.startswith("v1.9 "))
    assert "0 new, 1 gone" in next(line for line in lines if line.startswith("v1.10 "))

    with SqliteStore(db) as store:
        scans = store.scans(REPO)
        assert [s["version"] for s in reversed(scans)] == ["1.2", "1.9", "1.10"]
        by_message = {
            env["record"]["errorMessage"]: env["record"]["id"]
            for env in store.iter_envelopes(REPO, include_stale=True)
        }
        keep = store.status(by_message["negative: {x}"])
        gone = store.status(by_message["gone in 1.10"])
        added = store.status(by_message["added in 1.9"])
        assert keep is not None and gone is not None and added is not None
        keep_versions = version_ranges(scans, keep)
        # one id across the three releases although its line moved each time
        assert [(p["version"], p["lineNumber"]) for p in keep_versions["places"]] == [
            ("1.2", 3),
            ("1.9", 6),
            ("1.10", 13),  # 7 pad lines, added() and a blank line above it
        ]
        assert keep_versions["ranges"] == [
            {"introduced": "1.2", "last_affected": "1.10", "fixed": None}
        ]
        assert version_ranges(scans, gone)["events"] == [{"introduced": "1.2"}, {"fixed": "1.10"}]
        assert version_ranges(scans, added)["events"] == [{"introduced": "1.9"}]
        assert gone["stale"] is True and keep["stale"] is False


def test_scan_tags_json_and_all_failing_exit_2(tagged_repo: Path, tmp_path: Path) -> None:
    db = str(tmp_path / "j.db")
    done = _errdex(
        "scan", str(tagged_repo), "--tags", "v1.1*", "--repo", REPO, "--db", db, "--json",
        "--no-analyze", tmp_path=tmp_path,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    data = json.loads(done.stdout)
    assert [t["tag"] for t in data["tags"]] == ["v1.10"]
    assert data["tags"][0]["records"] == 2 and data["tags"][0]["error"] is None
    broken = _errdex(
        "scan", str(tagged_repo), "--tags", "*-broken", "--repo", REPO, "--db", db,
        tmp_path=tmp_path,
    )  # fmt: skip
    assert broken.returncode == 2
    assert "v1.5-broken: skipped:" in broken.stdout
    none = _errdex("scan", str(tagged_repo), "--tags", "v9*", "--db", db, tmp_path=tmp_path)
    assert none.returncode == 2 and "matches 'v9*'" in none.stderr
    with_sha = _errdex(
        "scan", str(tagged_repo), "--tags", "v1*", "--sha", "abcdef1", "--db", db,
        tmp_path=tmp_path,
    )  # fmt: skip
    assert with_sha.returncode == 2 and "--tags goes with a TARGET" in with_sha.stderr
