"""Matching a traceback from an older catalogued release (:mod:`errdex.match.versions`).

Real parts: a small package written at two releases, scanned by errdex into one SQLite
store (the index holds the newest release's lines, whatever the scan order), and real tracebacks: the
code of the older release is run and what it raises is formatted by ``traceback``.
"""

from __future__ import annotations

import runpy
import traceback
from dataclasses import replace
from pathlib import Path

import pytest

from errdex.match.api import clues_from, index_for
from errdex.match.index import MatchIndex
from errdex.match.paste import parse_paste
from errdex.match.rank import rank
from errdex.match.versions import (
    DISAGREE_WEIGHT,
    align,
    attach,
    named_release,
    store_tables,
    tables_of,
)
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

REPO = "acme/toolz"
#: 1.0: ``shrink`` raises at line 3, ``grow`` at line 7 (the same message).
V1 = """def shrink(x):
    if x < 0:
        raise ValueError("size out of range")
    return x // 2

def grow(x):
    raise ValueError("size out of range")
"""
#: 1.1: four lines above ``shrink``: its raise is at line 7, where 1.0's ``grow`` raised.
V2 = "# a\n# b\n# c\n# d\n" + V1


def _release(tmp_path: Path, name: str, code: str) -> Path:
    root = tmp_path / name
    (root / "toolz").mkdir(parents=True)
    (root / "toolz" / "__init__.py").write_text("")
    (root / "toolz" / "sizes.py").write_text(code)
    return root


def _scan_in_order(db: Path, releases: list[tuple[Path, str, str]]) -> None:
    """Scan each (tree, version, commit) into ``db``, in that order (the last is current)."""
    for root, version, sha in releases:
        checkout = replace(open_source(str(root), repo=REPO, sha=sha), version=version)
        with SqliteStore(db) as store:
            result = scan_checkout(checkout, repo=REPO, analyze=False)
            store_scan(store, checkout, REPO, result, iso_now())


@pytest.fixture
def catalogue(tmp_path: Path) -> tuple[Path, Path]:
    """(the store, the 1.0 tree): 1.0 scanned first, then 1.1."""
    db = tmp_path / "c.db"
    old = _release(tmp_path, "toolz-1.0", V1)
    new = _release(tmp_path, "toolz-1.1", V2)
    _scan_in_order(db, [(old, "1.0", "1" * 40), (new, "1.1", "2" * 40)])
    return db, old


def _traceback(root: Path, call: str, where: str) -> str:
    """What running ``call`` on release ``root``'s code prints, with its file shown at ``where``."""
    namespace = runpy.run_path(str(root / "toolz" / "sizes.py"))
    try:
        eval(call, namespace)
    except ValueError as exc:
        text = "".join(traceback.format_exception(exc))
        return text.replace(str(root / "toolz" / "sizes.py"), where)
    raise AssertionError("no error")


def _best(index: MatchIndex, text: str) -> tuple[str, int, float]:
    ranked = rank(clues_from(parse_paste(text)), index, top=3)
    entry = index.entry(ranked[0].index)
    return entry.function or "", entry.line, ranked[0].confidence


INSTALLED = "/home/u/venv/lib/python3.11/site-packages/toolz/sizes.py"


def test_a_traceback_from_the_older_release_finds_its_raise(catalogue: tuple[Path, Path]) -> None:
    db, old = catalogue
    text = _traceback(old, "grow(1)", INSTALLED)  # 1.0's grow raises at line 7
    assert 'sizes.py", line 7, in grow' in text
    with SqliteStore(db) as store:
        tables = store_tables(store)
        envelopes = list(store.iter_envelopes())
    assert tables is not None and tables.releases[REPO] == ["1.0", "1.1"]
    plain = MatchIndex.build(envelopes)
    # without the releases, line 7 is 1.1's shrink: the wrong site, pinned
    assert _best(plain, text)[:2] == ("shrink", 7)
    aligned = MatchIndex.build(envelopes)
    attach(aligned, tables)
    assert _best(aligned, text)[:2] == ("grow", 11)  # grow's line in 1.1


def test_index_for_attaches_the_store_tables(catalogue: tuple[Path, Path]) -> None:
    db, old = catalogue
    with SqliteStore(db) as store:
        index = index_for(store)
    assert tables_of(index) is not None
    assert _best(index, _traceback(old, "grow(1)", INSTALLED))[:2] == ("grow", 11)


def test_a_traceback_of_the_current_release_is_left_alone(catalogue: tuple[Path, Path]) -> None:
    db, _ = catalogue
    with SqliteStore(db) as store:
        index = index_for(store)
    new = db.parent / "toolz-1.1"
    text = _traceback(new, "shrink(-1)", INSTALLED)
    clues = clues_from(parse_paste(text))
    assert align(clues, index) is clues
    assert _best(index, text)[:2] == ("shrink", 7)


def test_the_release_named_in_a_path_wins(catalogue: tuple[Path, Path]) -> None:
    db, old = catalogue
    with SqliteStore(db) as store:
        index = index_for(store)
        tables = tables_of(index)
    assert tables is not None
    assert named_release(tables, REPO, ["/srv/toolz-1.0/toolz/sizes.py"]) == "1.0"
    assert named_release(tables, REPO, ["/x/toolz-1.0.0-py3.11.egg/toolz/sizes.py"]) == "1.0"
    assert named_release(tables, REPO, ["/x/toolz-9.9/toolz/sizes.py"]) is None
    assert named_release(tables, REPO, ["/x/site-packages/toolz/sizes.py"]) is None
    # 1.0's shrink raises at line 3, where 1.1 has no site; the path says 1.0
    text = _traceback(old, "shrink(-1)", "/srv/toolz-1.0/toolz/sizes.py")
    assert _best(index, text)[:2] == ("shrink", 7)


def test_lines_no_release_agrees_with_lower_the_confidence(
    catalogue: tuple[Path, Path], tmp_path: Path
) -> None:
    db, _ = catalogue
    with SqliteStore(db) as store:
        index = index_for(store)
    unknown = _release(tmp_path, "toolz-0.9", "\n" * 20 + V1)  # a release never catalogued
    text = _traceback(unknown, "grow(1)", INSTALLED)
    clues = clues_from(parse_paste(text))
    weighed = align(clues, index)
    assert [c.weight for c in weighed] == [c.weight * DISAGREE_WEIGHT for c in clues]
    with_tables = _best(index, text)
    plain = MatchIndex.build(SqliteStore(db).iter_envelopes())
    without = _best(plain, text)
    assert with_tables[:2] == without[:2]  # the same answer, less sure
    assert with_tables[2] < without[2]


def test_a_single_release_catalogue_gets_no_tables(tmp_path: Path) -> None:
    db = tmp_path / "one.db"
    root = _release(tmp_path, "toolz-1.0", V1)
    checkout = replace(open_source(str(root), repo=REPO, sha="1" * 40), version="1.0")
    with SqliteStore(db) as store:
        store_scan(store, checkout, REPO, scan_checkout(checkout, repo=REPO), iso_now())
        assert store_tables(store) is None
        assert tables_of(index_for(store)) is None


def test_the_index_holds_the_newest_release_whatever_the_scan_order(tmp_path: Path) -> None:
    """1.1 scanned first and 1.0 last: the newest release stays current, so the index
    holds 1.1's lines, a 1.1 paste is left as it is and a 1.0 paste is read in 1.0
    (its line 7 is grow there, shrink in the index)."""
    db = tmp_path / "r.db"
    old = _release(tmp_path, "toolz-1.0", V1)
    new = _release(tmp_path, "toolz-1.1", V2)
    _scan_in_order(db, [(new, "1.1", "2" * 40), (old, "1.0", "1" * 40)])
    text = _traceback(new, "shrink(-1)", INSTALLED)
    assert 'sizes.py", line 7, in shrink' in text
    with SqliteStore(db) as store:
        index = index_for(store)
    tables = tables_of(index)
    assert tables is not None and tables.current[REPO] == "1.1"
    assert _best(index, text)[:2] == ("shrink", 7)  # shrink's line in 1.1
    older = _traceback(old, "grow(1)", INSTALLED)
    assert 'sizes.py", line 7, in grow' in older
    assert _best(index, older)[:2] == ("grow", 11)  # grow's line in 1.1
