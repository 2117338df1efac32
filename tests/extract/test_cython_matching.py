"""A Cython traceback frame finds its ``.pyx`` site as a ``.py`` frame finds its site."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.layouts import frame_keys, record_keys
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

FROZEN = """\
cdef class FrozenList:
    cdef readonly bint frozen

    cdef object _check_frozen(self):
        if self.frozen:
            raise RuntimeError("Cannot modify frozen list.")

    def append(self, item):
        self._check_frozen()
"""
# the same message in the Python fallback, as frozenlist ships it
FALLBACK = """\
class FrozenList:
    def insert(self, pos, item):
        if self._frozen:
            raise RuntimeError("Cannot modify frozen list.")

    def append(self, item):
        if self._frozen:
            raise RuntimeError("Cannot modify frozen list.")
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    pkg = tmp_path / "frozenlist"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(FALLBACK)
    (pkg / "_frozenlist.pyx").write_text(FROZEN)
    checkout = open_source(str(tmp_path), repo="aio-libs/frozenlist", sha="1" * 40)
    result = scan_checkout(checkout, repo="aio-libs/frozenlist")
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "aio-libs/frozenlist", result, "2026-12-01T00:00:00.000Z")
    return db


def _traceback(path: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app.py", line 3, in <module>\n'
        "    fl.append(2)\n"
        f'  File "{path}", line 9, in frozenlist._frozenlist.FrozenList.append\n'
        f'  File "{path}", line 6, in frozenlist._frozenlist.FrozenList._check_frozen\n'
        "RuntimeError: Cannot modify frozen list.\n"
    )


@pytest.mark.parametrize("path", ["frozenlist/_frozenlist.pyx", "_frozenlist.pyx"])
def test_a_cython_frame_finds_its_pyx_site_top_1(catalogue: Path, path: str) -> None:
    best = match(_traceback(path), catalogue)[0]
    assert (best.filePath, best.lineNumber) == ("frozenlist/_frozenlist.pyx", 6)
    assert best.confidence >= 0.9


def test_record_keys_of_cython_files() -> None:
    assert "_frozenlist.pyx" in record_keys("frozenlist/_frozenlist.pyx", ())
    keys = record_keys("pandas/_libs/hashtable_class_helper.pxi.in", ())
    assert "pandas/_libs/hashtable_class_helper.pxi" in keys
    assert "hashtable_class_helper.pxi" in keys
    # a Python file keeps its keys: a bare name is never one
    assert record_keys("frozenlist/__init__.py", ()) == ("frozenlist/__init__.py",)
    assert set(frame_keys("_frozenlist.pyx")) & set(record_keys("frozenlist/_frozenlist.pyx", ()))
