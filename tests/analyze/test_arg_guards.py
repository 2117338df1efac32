"""Without a message, the literals a test passes pick the raise among several of its
class that its call reaches: the one whose conditions they all meet (in the function
called, or one call below where it passes them on), never one they rule out."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
def scale(value, mode="linear"):
    if mode not in ("linear", "log"):
        raise ValueError("unknown mode")
    if value < 0:
        raise ValueError("negative value")
    return value


class Wrapper:
    def __init__(self, buffer, encoding=None, newline=None):
        if encoding is not None and encoding not in ("ascii", "utf-8"):
            raise ValueError("unknown encoding")
        self._check_newline(newline)
        self.buffer = buffer

    def _check_newline(self, newline):
        if newline not in (None, "", "\\n"):
            raise ValueError("illegal newline value")


def pick(first, second):
    if first < 0:
        raise KeyError("first")
    if second < 0:
        raise KeyError("second")
"""

TESTS = """\
import unittest

from pkg import lib


class ArgTests(unittest.TestCase):
    def test_mode(self):
        self.assertRaises(ValueError, lib.scale, 1, mode="cubic")

    def test_negative(self):
        with self.assertRaises(ValueError):
            lib.scale(-1)

    def test_newline(self):
        self.assertRaises(ValueError, lib.Wrapper, None, newline="xyzzy")

    def test_both(self):
        with self.assertRaises(KeyError):
            lib.pick(-1, -2)
"""

Links = dict[int, list[str]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests (``Class::test``) linked to each site of ``lib.py``, by line."""
    root: Path = tmp_path_factory.mktemp("arg_guards")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/args"), repo="o/args")
    return {
        record["lineNumber"]: [t["name"].split("::", 1)[1] for t in evidence.get("tests") or []]
        for record, evidence in result.items
    }


def test_a_keyword_literal_meets_one_raise_of_two(links: Links) -> None:
    """``scale(1, mode="cubic")``: the mode raise's condition holds; ``value < 0`` is
    false for 1, so the other is never reached. ``pick(-1, -2)`` meets both of its
    raises' conditions: which runs first is not the literals' to say, so neither."""
    assert links[3] == ["ArgTests::test_mode"]
    assert links[23] == links[25] == []


def test_a_positional_literal_meets_the_other(links: Links) -> None:
    """``scale(-1)``: ``value < 0`` holds; the test passes no mode, so the mode raise's
    condition is not judged (not met): the second raise is the one the literals meet."""
    assert links[5] == ["ArgTests::test_negative"]


def test_a_literal_passed_on_one_call_below(links: Links) -> None:
    """``Wrapper(None, newline="xyzzy")`` passes ``newline`` to ``_check_newline``
    unchanged: that raise's condition holds; the encoding one is ruled out."""
    assert links[18] == ["ArgTests::test_newline"]
    assert links[12] == []
