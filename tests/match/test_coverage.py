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


def test_mostly_holes_lowers_the_confidence(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(
        "def f(a, b, c):\n    raise ValueError(f'invalid {a} {b}: {c}')\n"
    )
    db = tmp_path / "errdex.db"
    checkout = open_source(str(tmp_path), repo="o/m")
    with SqliteStore(db) as store:
        store_scan(store, checkout, "o/m", scan_checkout(checkout, repo="o/m"), iso_now())
    short = match("ValueError: invalid x y: z", db=db)[0]
    long = match("ValueError: invalid literal for int() with base 10: 'abc'", db=db)[0]
    assert (short.lineNumber, long.lineNumber) == (2, 2)
    assert long.confidence < short.confidence
