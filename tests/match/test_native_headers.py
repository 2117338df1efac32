"""A header several extensions include builds into each of them (the Python twin of any
one gives way to it)."""

from __future__ import annotations

from pathlib import Path

from tests.match.test_native import PACKAGE_HEADER, SIBLING_C, _line, table_with


def test_a_header_two_extensions_include_is_each_ones_source(tmp_path: Path) -> None:
    """``table/_other.c`` (first in name order) and ``table/_table.c`` both include
    ``_other.h``: it is part of ``table._table`` too, so the Python twin gives way."""
    compiled = {"table/_other.c": SIBLING_C, "table/_table.c": SIBLING_C}
    answer = table_with(tmp_path, {**compiled, "table/_other.h": PACKAGE_HEADER})
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "table/_other.h",
        _line(PACKAGE_HEADER, "PyErr_SetString"),
    )
    python = next(c for c in answer.candidates if c.filePath == "table/_table_py.py")
    assert python.confidence < best.confidence
    assert any("replaces the definition with the one of table._table" in r for r in python.reasons)
