"""A helper's own expectation is linked as the tests calling it run it."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from errdex.analyze.helper_runs import is_test_name
from errdex.analyze.repo import build_index
from errdex.analyze.static import analyze_with_index
from errdex.scan import scan_checkout
from errdex.source import open_source

CORE = """\
class Loop:
    def check(self):
        if self.other:
            raise RuntimeError("Non-thread-safe operation invoked on another loop")
"""

TEST = """\
import unittest
from pkg.core import Loop


class LoopTests(unittest.TestCase):
    def check_thread(self):
        with self.assertRaisesRegex(RuntimeError, "Non-thread-safe operation"):
            Loop().check()

    def test_thread(self):
        self.check_thread()

    def test_other(self):
        self.check_thread()
"""

UNCALLED = """\
import unittest
from pkg.core import Loop


class LoopTests(unittest.TestCase):
    def check_thread(self, loop, errmsg):
        with self.assertRaisesRegex(RuntimeError, errmsg):
            Loop().check()
"""


def _tests(root: Path, test: str) -> list[dict[str, Any]]:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/core.py").write_text(CORE)
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests/test_core.py").write_text(test)
    checkout = open_source(str(root), repo="owner/proj")
    items = scan_checkout(checkout, repo="owner/proj", analyze=False).items
    analysis = analyze_with_index(build_index(checkout), "", items, budget=math.inf)
    [(_, evidence)] = analysis.items
    return list(evidence["tests"])


def test_a_helpers_expectation_is_named_by_each_test_calling_it(tmp_path: Path) -> None:
    tests = _tests(tmp_path, TEST)
    assert [(t["name"], t["line"], t.get("via")) for t in tests] == [
        (
            "tests/test_core.py::LoopTests::test_thread",
            10,
            "tests.test_core.LoopTests.check_thread",
        ),
        ("tests/test_core.py::LoopTests::test_other", 13, "tests.test_core.LoopTests.check_thread"),
    ]
    assert all(t["match"] == "Non-thread-safe operation" for t in tests)


SPREAD = """\
import unittest
from pkg.core import Loop


class LoopTests(unittest.TestCase):
    def assert_fails(self, *args):
        with self.assertRaises(RuntimeError):
            Loop().check(*args)

    def test_thread(self):
        self.assert_fails(1)

    def test_other(self):
        self.assert_fails(2)
"""


def test_a_helper_whose_statement_reads_its_parameters_is_not_each_tests(
    tmp_path: Path,
) -> None:
    """Which raise each test reaches is in what it passes: not read, so not linked; with
    one test calling it, that test's is the one run the helper's link stood for."""
    assert _tests(tmp_path, SPREAD) == []
    alone = SPREAD.replace("test_other", "check_other")
    assert [t["name"] for t in _tests(tmp_path, alone)] == [
        "tests/test_core.py::LoopTests::test_thread"
    ]


def test_a_helper_no_test_calls_links_nothing(tmp_path: Path) -> None:
    assert _tests(tmp_path, UNCALLED) == []


def test_test_names() -> None:
    assert is_test_name("t/test_a.py::C::test_x") and is_test_name("t/test_a.py::C::runTest")
    assert not is_test_name("t/test_a.py::C::check_thread")
