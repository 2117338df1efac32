"""A parameter the body converts in place (``indent = int(indent)``) holds the test's
converted literal, and a class the test module aliases at its top level (``F =
fractions.Fraction``) is called exactly: each lets a message-less ``assertRaises`` pick
its one raise."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Printer:
    def __init__(self, indent=1, width=80, depth=None, stream=None):
        indent = int(indent)
        width = int(width)
        if indent < 0:
            raise ValueError("indent must be >= 0")
        if depth is not None and depth <= 0:
            raise ValueError("depth must be > 0")
        if not width:
            raise ValueError("width must be != 0")
        self.stream = stream


class Ratio:
    @classmethod
    def from_text(cls, text):
        if not isinstance(text, str):
            raise TypeError("only text")
        return cls()


def with_suffix(path, suffix):
    sep = "/"
    if sep in suffix:
        raise ValueError("invalid suffix")
    if suffix and not suffix.startswith("."):
        raise ValueError("suffix must start with a dot")
    return path + suffix
"""

TESTS = """\
import unittest

from pkg import lib

R = lib.Ratio


class PrinterTests(unittest.TestCase):
    def test_indent(self):
        self.assertRaises(ValueError, lib.Printer, indent=-1)

    def test_width(self):
        self.assertRaises(ValueError, lib.Printer, 2, 0)

    def test_both(self):
        self.assertRaises(ValueError, lib.Printer, indent=-1, depth=0)

    def test_alias(self):
        self.assertRaises(TypeError, R.from_text, 3 + 4j)

    def test_suffix(self):
        self.assertRaises(ValueError, lib.with_suffix, "a", "/")

    def test_local(self):
        R = lib.Printer
        self.assertRaises(TypeError, R.from_text, 3 + 4j)
"""

Links = dict[int, list[str]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests (``Class::test``) linked to each site of ``lib.py``, by line."""
    root: Path = tmp_path_factory.mktemp("arg_values")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/values"), repo="o/values")
    return {
        record["lineNumber"]: [t["name"].split("::", 1)[1] for t in evidence.get("tests") or []]
        for record, evidence in result.items
    }


def test_a_converted_literal_meets_its_raise(links: Links) -> None:
    """``Printer(indent=-1)``: ``int(-1) < 0`` holds, and no other raise's conditions
    all do. ``Printer(2, 0)``: ``int(2) < 0`` is false, ``not int(0)`` holds."""
    assert links[6] == ["PrinterTests::test_indent"]
    assert links[10] == ["PrinterTests::test_width"]


def test_two_raises_met_link_neither(links: Links) -> None:
    """``Printer(indent=-1, depth=0)`` meets the indent and the depth raise: neither (the
    base linked the depth raise, not seeing ``indent`` through ``int``)."""
    assert "PrinterTests::test_both" not in links[6] + links[8]


def test_a_top_level_alias_is_called_exactly(links: Links) -> None:
    """``R = lib.Ratio`` then ``R.from_text(3 + 4j)``: the one ``TypeError`` of
    ``Ratio.from_text``, reached exactly through the alias; not where the test binds
    ``R`` again itself."""
    assert links[18] == ["PrinterTests::test_alias"]


def test_a_met_raise_below_one_left_open_is_not_linked(links: Links) -> None:
    """``with_suffix("a", "/")`` meets ``not suffix.startswith(".")``, but ``sep in
    suffix`` above it reads a local the literals do not settle, and that raise is the one
    that runs: two raises may run, so neither is linked. ``Printer(2, 0)`` above is
    linked because ``depth`` is ``None`` by default (the raise above is ruled out)."""
    assert links[25] == links[27] == []


def test_a_literal_in_star_args_is_not_a_keyword_only_parameter(tmp_path: Path) -> None:
    """``f(1, 0)`` of ``def f(value, *extra, limit=None)`` puts ``0`` in ``extra``: the
    ``limit == 0`` raise is not what it runs (re-read, stop 34: it was linked)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "lib.py").write_text(
        "def f(value, *extra, limit=None):\n"
        "    if limit == 0:\n"
        '        raise ValueError("zero limit")\n'
        "    if value == 1 and extra:\n"
        '        raise ValueError("one")\n'
        "    return value\n"
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lib.py").write_text(
        "import unittest\nfrom pkg import lib\n\n\nclass T(unittest.TestCase):\n"
        "    def test_one(self):\n        self.assertRaises(ValueError, lib.f, 1, 0)\n"
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/a"), repo="o/a")
    links = {r["lineNumber"]: e.get("tests") or [] for r, e in result.items}
    assert links[3] == []


def test_a_keyword_only_parameter_passed_by_name_keeps_its_literal(tmp_path: Path) -> None:
    """``BZ2File(f, compresslevel=0)``: ``compresslevel`` is keyword-only, and the test
    passes it by name (the fix above must not drop it: test_bz2's links were lost)."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "lib.py").write_text(
        "class File:\n"
        '    def __init__(self, name, mode="r", *, level=9):\n'
        "        if not (1 <= level <= 9):\n"
        '            raise ValueError("level must be between 1 and 9")\n'
        '        if mode not in ("r", "w"):\n'
        '            raise ValueError("bad mode")\n'
    )
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lib.py").write_text(
        "import unittest\nfrom pkg import lib\n\n\nclass T(unittest.TestCase):\n"
        "    def test_level(self):\n"
        '        self.assertRaises(ValueError, lib.File, "f", level=0)\n'
    )
    result = scan_checkout(open_source(str(tmp_path), repo="o/a"), repo="o/a")
    links = {r["lineNumber"]: e.get("tests") or [] for r, e in result.items}
    assert [t["name"] for t in links[4]] == ["tests/test_lib.py::T::test_level"]
    assert links[6] == []
