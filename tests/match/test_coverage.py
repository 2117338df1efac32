"""A full match whose holes made most of the message says less than one its literals made."""

from __future__ import annotations

from pathlib import Path

from errdex.match import match
from errdex.match.rank import _coverage
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore


def test_coverage_factor() -> None:
    assert _coverage(11, "invalid x y: z") == 1.0
    assert _coverage(0, "") == 1.0
    assert 0.6 < _coverage(11, "x" * 49) < 0.9
    assert _coverage(11, "x" * 10_000) < 0.61


def _catalogue(tmp_path: Path, code: str) -> Path:
    (tmp_path / "m.py").write_text(code)
    db = tmp_path / "errdex.db"
    checkout = open_source(str(tmp_path), repo="o/m")
    with SqliteStore(db) as store:
        store_scan(store, checkout, "o/m", scan_checkout(checkout, repo="o/m"), iso_now())
    return db


def test_mostly_holes_lowers_the_confidence(tmp_path: Path) -> None:
    db = _catalogue(
        tmp_path,
        "class BadInput(Exception):\n    pass\n\n\n"
        "def f(a, b, c):\n    raise BadInput(f'invalid {a} {b}: {c}')\n",
    )
    short = match("m.BadInput: invalid x y: z", db=db)[0]
    long = match("m.BadInput: invalid literal for int() with base 10: 'abc'", db=db)[0]
    assert (short.lineNumber, long.lineNumber) == (6, 6)
    assert long.confidence < short.confidence


def test_a_builtin_class_fitted_by_holes_alone_is_no_answer(tmp_path: Path) -> None:
    """``int('abc')`` raises in C: a template fitting it by its holes is not its site."""
    db = _catalogue(tmp_path, "def f(a, b, c):\n    raise ValueError(f'invalid {a} {b}: {c}')\n")
    assert [c.lineNumber for c in match("ValueError: invalid x y: z", db=db)] == [2]
    assert match("ValueError: invalid literal for int() with base 10: 'abc'", db=db) == []
