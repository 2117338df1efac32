"""The scan cache file: digests from stat or content, and the file's own safety rules."""

from __future__ import annotations

import hashlib
import os
import sqlite3
from pathlib import Path

import pytest

import errdex.scan_cache as scan_cache
from errdex.scan_cache import ScanCache, code_version, default_cache_path, scope_key


def _aged(path: Path, text: str, seconds: int = 60) -> Path:
    path.write_text(text)
    past = (os.stat(path).st_mtime_ns // 1_000_000_000 - seconds) * 1_000_000_000
    os.utime(path, ns=(past, past))
    return path


def _sha(text: str) -> str:
    return hashlib.sha256(text.encode()).hexdigest()


def test_the_default_path_follows_the_environment(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.delenv("ERRDEX_SCAN_CACHE")
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path))
    assert default_cache_path() == tmp_path / "errdex" / "scan-cache.sqlite"
    monkeypatch.setenv("ERRDEX_SCAN_CACHE", str(tmp_path / "x.sqlite"))
    assert default_cache_path() == tmp_path / "x.sqlite"


def test_an_unchanged_stat_gives_the_digest_without_reading(tmp_path: Path) -> None:
    _aged(tmp_path / "a.py", "a = 1\n")
    with ScanCache(tmp_path / "c.sqlite") as cache:
        first = cache.digests(tmp_path, ["a.py", "gone.py"])
        cache.commit("s")
    assert first.by_path == {"a.py": _sha("a = 1\n"), "gone.py": None}
    assert (first.from_stat, first.hashed) == (0, 1)
    with ScanCache(tmp_path / "c.sqlite") as cache:
        again = cache.digests(tmp_path, ["a.py"])
    assert (again.from_stat, again.hashed) == (1, 0)
    assert again.by_path == {"a.py": _sha("a = 1\n")}


def test_a_same_size_edit_with_the_old_mtime_is_still_seen(tmp_path: Path) -> None:
    path = _aged(tmp_path / "a.py", "a = 1\n")
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.digests(tmp_path, ["a.py"])
        cache.commit("s")
    mtime = os.stat(path).st_mtime_ns
    path.write_text("a = 2\n")  # same size; the mtime is put back, the ctime is not
    os.utime(path, ns=(mtime, mtime))
    with ScanCache(tmp_path / "c.sqlite") as cache:
        again = cache.digests(tmp_path, ["a.py"])
    assert again.hashed == 1 and again.by_path["a.py"] == _sha("a = 2\n")


def test_a_file_modified_just_before_it_was_hashed_is_hashed_again(tmp_path: Path) -> None:
    (tmp_path / "a.py").write_text("a = 1\n")  # mtime now: "racy"
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.digests(tmp_path, ["a.py"])
        cache.commit("s")
    with ScanCache(tmp_path / "c.sqlite") as cache:
        again = cache.digests(tmp_path, ["a.py"])
    assert (again.from_stat, again.hashed) == (0, 1)


def test_entries_are_served_only_for_their_digest(tmp_path: Path) -> None:
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.commit("s", extracted={"a.py": ("d1", b"\x80\x05K\x07.")})  # pickle of 7
        assert cache.load("extracted", "s", {"a.py": "d1"}) == {"a.py": 7}
        assert cache.load("extracted", "s", {"a.py": "d2"}) == {}
        assert cache.load("extracted", "other-scope", {"a.py": "d1"}) == {}


def test_entries_of_files_no_longer_listed_are_dropped(tmp_path: Path) -> None:
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.commit(
            "s", extracted={"a.py": ("d", b"\x80\x05K\x01."), "b.py": ("d", b"\x80\x05K\x02.")}
        )
        cache.commit("s", keep=["a.py"])
        assert cache.load("extracted", "s", {"a.py": "d", "b.py": "d"}) == {"a.py": 1}


def test_another_errdexs_scopes_are_dropped_on_the_next_write(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(scan_cache, "code_version", lambda: "old")
    old_scope = scope_key("o/r", "")
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.commit(old_scope, extracted={"a.py": ("d", b"\x80\x05K\x01.")})
    monkeypatch.undo()
    assert scope_key("o/r", "") != old_scope
    with ScanCache(tmp_path / "c.sqlite") as cache:
        cache.commit(scope_key("o/r", ""))
        assert cache.load("extracted", old_scope, {"a.py": "d"}) == {}


def test_code_version_is_stable_within_a_process() -> None:
    assert code_version() == code_version() and len(code_version()) == 32


def test_a_cache_file_others_may_write_is_not_used(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with ScanCache(path) as cache:
        cache.commit("s", extracted={"a.py": ("d", b"\x80\x05K\x01.")})
    path.chmod(0o666)
    with ScanCache(path) as cache:
        assert not cache.usable and cache.problem is not None
        assert cache.load("extracted", "s", {"a.py": "d"}) == {}
        assert cache.digests(tmp_path, []).by_path == {}


def test_a_file_that_is_not_a_cache_turns_the_cache_off(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    path.write_bytes(b"not a database" * 100)
    path.chmod(0o600)
    with ScanCache(path) as cache:
        assert not cache.usable and "not used" in (cache.problem or "")


def test_a_cache_of_another_format_is_emptied(tmp_path: Path) -> None:
    path = tmp_path / "c.sqlite"
    with ScanCache(path) as cache:
        cache.commit("s", extracted={"a.py": ("d", b"\x80\x05K\x01.")})
    conn = sqlite3.connect(path)
    conn.execute("UPDATE meta SET value = '0' WHERE key = 'format'")
    conn.commit()
    conn.close()
    with ScanCache(path) as cache:
        assert cache.load("extracted", "s", {"a.py": "d"}) == {}


def test_a_folders_digest_is_its_python_files_listing(tmp_path: Path) -> None:
    """A folder an extraction searched (``pkg/``) changes with a module added or removed
    below it, not with another file or an edit (each file's own digest covers those)."""
    (tmp_path / "pkg/sub").mkdir(parents=True)
    (tmp_path / "pkg/a.py").write_text("x = 1\n")
    with ScanCache(tmp_path / "c.sqlite") as cache:
        first = cache.digests(tmp_path, ["pkg/", "nowhere/"]).by_path
        assert first["pkg/"] is not None and first["nowhere/"] is None
        (tmp_path / "pkg/a.py").write_text("x = 2\n")
        (tmp_path / "pkg/notes.txt").write_text("not a module")
        assert cache.digests(tmp_path, ["pkg/"]).by_path == {"pkg/": first["pkg/"]}
        (tmp_path / "pkg/sub/b.py").write_text("")
        added = cache.digests(tmp_path, ["pkg/"]).by_path["pkg/"]
        assert added not in (None, first["pkg/"])
        (tmp_path / "pkg/sub/b.py").unlink()
        assert cache.digests(tmp_path, ["pkg/"]).by_path["pkg/"] == first["pkg/"]
