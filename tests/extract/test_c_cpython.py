"""CPython's own C sources, catalogued and matched end to end: a user's ``int('abc')`` or
``1 // 0`` prints a traceback whose last frame is their Python line (the C function
that raised has no frame), and errdex answers with the ``PyErr_*`` call in
``Objects/longobject.c`` (an excerpt of CPython's file, tests/fixtures/cpython)."""

from __future__ import annotations

import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from errdex.match.api import answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

FIXTURE = Path(__file__).resolve().parents[1] / "fixtures" / "cpython"
SHA = "0046cd7aeb4e21d99254148fe58d27180abe99e7"


@pytest.fixture(scope="module")
def catalogue(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cpython") / "cpython"
    shutil.copytree(FIXTURE, root)
    checkout = open_source(str(root), repo="python/cpython", sha=SHA)
    result = scan_checkout(checkout, repo="python/cpython")
    assert not result.skipped
    db = root.parent / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "python/cpython", result, "2026-12-02T00:00:00.000Z")
    return db


def _traceback_of(code: str, tmp_path: Path) -> str:
    script = tmp_path / "user.py"
    script.write_text(f"def convert():\n    return {code}\n\nconvert()\n")
    done = subprocess.run([sys.executable, str(script)], capture_output=True, text=True, timeout=60)
    assert done.returncode == 1
    return done.stderr


def _line(needle: str) -> int:
    text = (FIXTURE / "Objects" / "longobject.c").read_text()
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def test_int_of_a_non_number_is_answered_with_longobject_c(catalogue: Path, tmp_path: Path) -> None:
    tb = _traceback_of("int('abc')", tmp_path)
    assert tb.rstrip().endswith("ValueError: invalid literal for int() with base 10: 'abc'")
    (answer,) = answers(tb, catalogue)
    best = answer.candidates[0]
    assert best.filePath == "Objects/longobject.c"
    # two functions raise these words (for a str and for bytes); the bytes one prints
    # %R of a PyBytes object, b'…', which 'abc' is not: the str one is the answer alone
    assert (best.filePath, best.lineNumber) == ("Objects/longobject.c", _line("base, u);") - 2)
    assert answer.group == []
    bytes_site = ("Objects/longobject.c", _line("base, strobj);") - 2)
    assert bytes_site not in {(c.filePath, c.lineNumber) for c in answer.candidates}
    assert best.errorClass == "ValueError"
    assert "abc" in " ".join(str(v) for v in best.holes.values())
    assert any("no frame of its own" in r for r in best.reasons)


def test_int_of_bytes_is_answered_with_the_bytes_function_the_looser_str_fit_below(
    catalogue: Path, tmp_path: Path
) -> None:
    """``int(b'abc')``: the bytes function fits with ``b'`` as literal text; the str one fits
    only through its untyped ``%R`` hole, a looser fit, so it ranks below (match/group.py:
    a more literal fit stands alone)."""
    tb = _traceback_of("int(b'abc')", tmp_path)
    (answer,) = answers(tb, catalogue)
    ranked = [(c.filePath, c.lineNumber) for c in answer.candidates]
    bytes_site = ("Objects/longobject.c", _line("base, strobj);") - 2)
    str_site = ("Objects/longobject.c", _line("base, u);") - 2)
    assert ranked[0] == bytes_site
    assert answer.group == []
    if str_site in ranked:
        assert (
            answer.candidates[ranked.index(str_site)].confidence < answer.candidates[0].confidence
        )
    assert answer.candidates[0].holes


def test_integer_division_by_zero_is_answered_with_long_divrem(
    catalogue: Path, tmp_path: Path
) -> None:
    tb = _traceback_of("1 // 0", tmp_path)
    (answer,) = answers(tb, catalogue)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber, best.errorClass) == (
        "Objects/longobject.c",
        _line("PyErr_SetString(PyExc_ZeroDivisionError"),
        "ZeroDivisionError",
    )
    assert best.confidence >= 0.9
