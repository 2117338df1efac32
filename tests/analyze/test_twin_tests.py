"""A test links to a Python definition a C twin replaces only where its run keeps the C
module out (blind review 2026-12-06, record 34: ``test_iter``'s ``from operator import
indexOf`` runs ``_operator``'s C function, yet six of its calls were linked to
``operator.py``'s raise)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

from errdex.analyze.twin_tests import fresh_imports
from errdex.scan import scan_checkout
from errdex.source import open_source

#: ``operator.py``'s shape: a Python ``indexOf`` the C module's replaces where it imports.
LIBRARY = """\
def indexOf(a, b):
    for i, j in enumerate(a):
        if j is b or j == b:
            return i
    raise ValueError('sequence.index(x): x not in sequence')

def helper_only_python(a):
    if not a:
        raise ValueError('an empty sequence has no first item')
    return a[0]

try:
    from _operator import *
except ImportError:
    pass
"""

PLAIN_TEST = """\
import unittest
from myop import indexOf, helper_only_python

class TestIter(unittest.TestCase):
    def test_indexOf(self):
        self.assertRaises(ValueError, indexOf, (1, 2, 3), 6)

    def test_first(self):
        self.assertRaises(ValueError, helper_only_python, ())
"""

BLOCKED_TEST = """\
import unittest
from test.support.import_helper import import_fresh_module

py_op = import_fresh_module('myop', blocked=['_operator'])

class PyOperatorTestCase(unittest.TestCase):
    module = py_op

    def test_indexOf(self):
        self.assertRaises(ValueError, self.module.indexOf, [4, 3], 0)
"""

Item = tuple[dict[str, Any], dict[str, Any]]


def _scan(root: Path, tests: dict[str, str]) -> list[Item]:
    (root / "myop.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    for name, text in tests.items():
        (root / "tests" / name).write_text(text)
    return list(scan_checkout(open_source(str(root), repo="o/op"), repo="o/op").items)


def _linked(items: list[Item], message: str) -> list[str]:
    (evidence,) = [e for r, e in items if r["errorMessage"] == message]
    return [t["name"] for t in evidence["tests"]]


def test_a_call_the_c_twin_answers_is_no_link(tmp_path: Path) -> None:
    items = _scan(tmp_path, {"test_iter.py": PLAIN_TEST})
    assert _linked(items, "sequence.index(x): x not in sequence") == []
    # a definition the C module does not replace is still linked
    assert _linked(items, "an empty sequence has no first item") == [
        "tests/test_iter.py::TestIter::test_first"
    ]


def test_a_run_with_the_c_module_blocked_is_a_link(tmp_path: Path) -> None:
    items = _scan(tmp_path, {"test_iter.py": PLAIN_TEST, "test_operator.py": BLOCKED_TEST})
    assert _linked(items, "sequence.index(x): x not in sequence") == [
        "tests/test_operator.py::PyOperatorTestCase::test_indexOf"
    ]


def test_fresh_imports_read_a_constant_name() -> None:
    """``test_datetime`` imports ``TESTS = 'test.datetimetester'`` with ``_datetime``
    blocked: the tests there run the Python ``datetime``."""
    text = (
        "TESTS = 'test.datetimetester'\n"
        "def load_tests():\n"
        "    pure = import_fresh_module(TESTS, fresh=['datetime'], blocked=['_datetime'])\n"
        "    fast = import_fresh_module(TESTS, fresh=['datetime', '_datetime'])\n"
    )
    assert fresh_imports(ast.parse(text), text) == [("test.datetimetester", ("_datetime",))]
