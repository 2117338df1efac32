"""A test class filled from one module at run time (``test_io``'s ``load_tests``
``setattr`` loop, with ``io = pyio`` in the class body): ``self.TextIOWrapper`` is the
pure-Python module's class in the ``Py…`` class, and the C class links nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

PYIO = """\
class UnsupportedOperation(OSError, ValueError):
    pass


class TextIOWrapper:
    def __init__(self, buffer, encoding=None, newline=None):
        if encoding is not None and not isinstance(encoding, str):
            raise TypeError("invalid encoding: %r" % encoding)
        self._check_newline(newline)
        self.buffer = buffer

    def _check_newline(self, newline):
        if newline not in (None, "", "\\n", "\\r", "\\r\\n"):
            raise ValueError("illegal newline value: %r" % (newline,))

    def fileno(self):
        raise UnsupportedOperation("fileno")
"""

TESTS = """\
import io
import unittest

import _pyio as pyio


class TextIOWrapperTest(unittest.TestCase):
    def test_constructor(self):
        self.assertRaises(ValueError, self.TextIOWrapper, None, newline="xyzzy")

    def test_fileno(self):
        t = self.TextIOWrapper(None)
        self.assertRaises(self.UnsupportedOperation, t.fileno)


class CTextIOWrapperTest(TextIOWrapperTest):
    io = io


class PyTextIOWrapperTest(TextIOWrapperTest):
    io = pyio


def load_tests(loader, tests, pattern):
    for test in (CTextIOWrapperTest, PyTextIOWrapperTest):
        source = io if test.__name__.startswith("C") else pyio
        for name in ("TextIOWrapper", "UnsupportedOperation"):
            setattr(test, name, getattr(source, name))
    return loader.suiteClass()
"""

Links = dict[int, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests linked to each site of ``_pyio.py``, by line."""
    root: Path = tmp_path_factory.mktemp("namespaces")
    (root / "_pyio.py").write_text(PYIO)
    (root / "io.py").write_text("from _io import TextIOWrapper, UnsupportedOperation\n")
    (root / "tests").mkdir()
    (root / "tests" / "test_io.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/namespaces"), repo="o/namespaces")
    return {
        record["lineNumber"]: evidence.get("tests") or []
        for record, evidence in result.items
        if record["filePath"].endswith("_pyio.py")
    }


def _names(links: Links, line: int) -> list[str]:
    return [t["name"].split("::", 1)[1] for t in links[line]]


def test_a_name_the_suite_sets_from_the_pure_python_module(links: Links) -> None:
    """``self.TextIOWrapper`` in ``PyTextIOWrapperTest`` is ``_pyio.TextIOWrapper``;
    the C class (``io = io``) runs C code and is not named."""
    assert _names(links, 14) == ["PyTextIOWrapperTest::test_constructor"]


def test_an_exception_class_the_suite_sets(links: Links) -> None:
    """``self.UnsupportedOperation`` resolves the same way as the expected class."""
    assert _names(links, 17) == ["PyTextIOWrapperTest::test_fileno"]
