"""Holes that print one character or a number match only that (C's ``%c`` and ``%zd``)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import match
from errdex.record import iso_now
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore
from errdex.template import Hole, MessageTemplate

C_SOURCE = """\
static PyObject *parse(PyObject *self, PyObject *arg) {
    if (bad) {
        PyErr_Format(PyExc_ValueError, "invalid literal for int() with base 10: '%c'", (int) c);
        return NULL;
    }
    if (n < 0) {
        PyErr_Format(PyExc_ValueError, "expected %zd items, got %5d", want, n);
        return NULL;
    }
    return NULL;
}
"""


@pytest.fixture(scope="module")
def db(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("cmod")
    (root / "mod.c").write_text(C_SOURCE)
    path = root / "errdex.db"
    checkout = open_source(str(root), repo="o/cmod")
    result = scan_checkout(checkout, repo="o/cmod", analyze=False)
    with SqliteStore(path) as store:
        store_scan(store, checkout, "o/cmod", result, iso_now())
    return path


def test_a_char_hole_takes_one_character(db: Path) -> None:
    (found,) = match("ValueError: invalid literal for int() with base 10: 'a'", db=db)[:1]
    assert (found.lineNumber, found.holes) == (3, {"(int) c": "a"})
    # int('abc') is raised by CPython's own C code, which this catalogue does not hold
    assert match("ValueError: invalid literal for int() with base 10: 'abc'", db=db) == []


def test_an_int_hole_takes_digits_and_a_padded_one_any_text(db: Path) -> None:
    (found,) = match("ValueError: expected 3 items, got    -1", db=db)[:1]
    assert (found.lineNumber, found.holes) == (7, {"want": "3", "n": "   -1"})
    assert match("ValueError: expected three items, got -1", db=db) == []


def test_kinds_survive_the_stored_form() -> None:
    template = MessageTemplate([Hole("%zd", "n", kind="int"), Hole("%c", "c", kind="char")])
    assert MessageTemplate.from_json(template.to_json()) == template
    assert template.pattern == "(-?[0-9]+)([\\s\\S])"
    unknown = MessageTemplate.from_json([{"hole": "%q", "name": "q", "kind": "future"}])
    assert unknown.pattern == "([\\s\\S]*?)"  # a kind this errdex does not know: any text
