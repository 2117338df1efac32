"""A suite that imports a module again with its C twin blocked (``test_decimal``'s ``P =
import_fresh_module('decimal', blocked=['_decimal'])``, with ``decimal = P`` in the
``Py…`` classes) runs the pure-Python fallback: its tests link to ``_pydecimal``'s
raises, and the C class's run links nothing."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

DECIMAL = """\
try:
    from _decimal import *
except ImportError:
    from _pydecimal import *
"""

PYDECIMAL = """\
class Context:
    def __init__(self, prec=None):
        if prec is not None and prec < 1:
            raise ValueError("valid range for prec is [1, MAX_PREC]")
        self.prec = prec
"""

TESTS = """\
import unittest

from test.support.import_helper import import_fresh_module

C = import_fresh_module("decimal", fresh=["_decimal"])
P = import_fresh_module("decimal", blocked=["_decimal"])


class ContextTest:
    def test_prec(self):
        Context = self.decimal.Context
        self.assertRaises(ValueError, Context, prec=-1)


class CContextTest(ContextTest, unittest.TestCase):
    decimal = C


class PyContextTest(ContextTest, unittest.TestCase):
    decimal = P


class ModuleTest(unittest.TestCase):
    def test_message(self):
        with self.assertRaisesRegex(ValueError, "valid range for prec"):
            P.Context(prec=0)
"""


@pytest.fixture(scope="module")
def linked(tmp_path_factory: pytest.TempPathFactory) -> list[str]:
    """The tests (``Class::test``) linked to ``_pydecimal``'s raise."""
    root: Path = tmp_path_factory.mktemp("fresh")
    (root / "decimal.py").write_text(DECIMAL)
    (root / "_pydecimal.py").write_text(PYDECIMAL)
    (root / "tests").mkdir()
    (root / "tests" / "test_decimal.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/fresh"), repo="o/fresh")
    (tests,) = [
        evidence.get("tests") or []
        for record, evidence in result.items
        if record["filePath"].endswith("_pydecimal.py")
    ]
    return [t["name"].split("::", 1)[1] for t in tests]


def test_the_blocked_twins_fallback_is_what_the_py_class_runs(linked: list[str]) -> None:
    """``self.decimal.Context`` is ``_pydecimal.Context`` in ``PyContextTest`` only;
    ``P.Context(prec=0)``'s message fits there and the test blocks ``_decimal``."""
    assert linked == [
        "PyContextTest::test_prec",
        "ModuleTest::test_message",
    ]
