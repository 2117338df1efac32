"""A message that fits a raise in a module the interpreter imports only where its C twin
fails (``_pydecimal`` beside ``_decimal``) is the C twin's own copy, unless the test
imports that module itself (blind-review follow-up 2026-12-05: ``test_fractions``'
``F.from_decimal(Decimal("nan"))`` linked to ``_pydecimal``'s "cannot convert NaN to
integer ratio", which C's ``Decimal`` raises)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

FILES = {
    "numfmt.py": "try:\n    from _decimal import *\nexcept ImportError:\n    from _pynumfmt import *\n",
    "_pynumfmt.py": (
        "class Decimal:\n"
        "    def __init__(self, text):\n"
        "        self.special = text == 'nan'\n\n"
        "    def as_integer_ratio(self):\n"
        "        if self.special:\n"
        "            raise ValueError('cannot convert NaN to integer ratio')\n"
        "        return 1, 1\n"
    ),
    "tests/test_ratio.py": (
        "import unittest\n\nimport numfmt\n\n\n"
        "class RatioTests(unittest.TestCase):\n"
        "    def test_nan_through_the_public_module(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'cannot convert NaN to integer ratio'):\n"
        "            numfmt.Decimal('nan').as_integer_ratio()\n"
    ),
    "tests/test_pyratio.py": (
        "import unittest\n\nimport _pynumfmt\n\n\n"
        "class PyRatioTests(unittest.TestCase):\n"
        "    def test_nan_in_the_python_module(self):\n"
        "        with self.assertRaisesRegex(ValueError, 'cannot convert NaN to integer ratio'):\n"
        "            _pynumfmt.Decimal('nan').as_integer_ratio()\n"
    ),
}


def test_a_fallback_module_is_linked_only_to_tests_that_import_it(tmp_path: Path) -> None:
    for rel, text in FILES.items():
        (tmp_path / rel).parent.mkdir(parents=True, exist_ok=True)
        (tmp_path / rel).write_text(text)
    result = scan_checkout(open_source(str(tmp_path), repo="o/num"), repo="o/num")
    ((record, evidence),) = result.items
    assert record["filePath"] == "_pynumfmt.py"
    assert evidence["shadowedBy"]["kind"] == "module"  # ``_decimal`` is this interpreter's
    names = [t["name"].rpartition("::")[2] for t in evidence["tests"]]
    assert names == ["test_nan_in_the_python_module"]
