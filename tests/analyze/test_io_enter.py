"""``with Packed(...) as f`` where ``Packed`` derives from ``io.BufferedIOBase`` and
defines no ``__enter__``: ``io.IOBase.__enter__`` (C) returns the file itself, so
``f.readline(None)`` in the block is ``Packed.readline``; a class of no ``io`` base gives
``f`` no class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.io_enter import enters_itself
from errdex.analyze.repo import build_index
from errdex.scan import scan_checkout
from errdex.source import open_source

STREAM = """\
import io


class _Base(io.BufferedIOBase):
    pass


class Packed(_Base):
    def __init__(self, name):
        self._name = name

    def readline(self, size=-1):
        if not isinstance(size, int):
            raise TypeError("Integer argument expected")
        return b""


class Plain:
    def __init__(self, name):
        self._name = name

    def readline(self, size=-1):
        if not isinstance(size, int):
            raise TypeError("Integer argument expected")
        return b""
"""

TESTS = """\
import unittest

from pkg import stream


class StreamTests(unittest.TestCase):
    def test_readline_bad_size(self):
        with stream.Packed("x") as f:
            self.assertRaises(TypeError, f.readline, None)

    def test_plain(self):
        with stream.Plain("x") as f:
            self.assertRaises(TypeError, f.readline, None)
"""


def _write(root: Path) -> None:
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "stream.py").write_text(STREAM)


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], Any]]:
    root: Path = tmp_path_factory.mktemp("io_enter")
    _write(root)
    (root / "tests").mkdir()
    (root / "tests" / "test_stream.py").write_text(TESTS)
    return list(scan_checkout(open_source(str(root), repo="o/io"), repo="o/io").items)


def _names(scanned: list[tuple[dict[str, Any], Any]], line: int) -> list[str]:
    return sorted(
        t["name"].rpartition("::")[2]
        for record, evidence in scanned
        if record["filePath"].endswith("stream.py") and record["lineNumber"] == line
        for t in evidence["tests"]
    )


def test_a_file_like_class_enters_as_itself(scanned: list[tuple[dict[str, Any], Any]]) -> None:
    assert _names(scanned, 14) == ["test_readline_bad_size"]


def test_a_class_of_no_io_base_gives_no_class(scanned: list[tuple[dict[str, Any], Any]]) -> None:
    assert _names(scanned, 24) == []


def test_enters_itself(tmp_path: Path) -> None:
    _write(tmp_path)
    index = build_index(open_source(str(tmp_path), repo="o/i"))
    assert enters_itself(index, "pkg.stream.Packed")
    assert not enters_itself(index, "pkg.stream.Plain")
