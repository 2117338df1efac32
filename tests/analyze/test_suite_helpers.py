"""A suite's helper named like unittest's assertions (``assertRaisesMessage``,
``assertTypeError``) is read as a helper: its expectation with the caller's arguments is
the caller's test (``test_fractions``: 13 links). unittest's own ``assert*`` methods are
not helpers."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = (
    "def parse(text):\n"
    "    if '/' not in text:\n"
    "        raise ValueError('Invalid literal for Fraction: %r' % text)\n"
    "    return text\n"
)
TESTS = (
    "import unittest\n\nfrom pkg import lib\n\n\n"
    "class FractionTest(unittest.TestCase):\n"
    "    def assertRaisesMessage(self, exc_type, message, callable, *args):\n"
    "        try:\n"
    "            callable(*args)\n"
    "        except exc_type as e:\n"
    "            self.assertEqual(message, str(e))\n"
    "        else:\n"
    "            self.fail('%s not raised' % exc_type.__name__)\n\n"
    "    def test_from_string(self):\n"
    "        self.assertRaisesMessage(\n"
    "            ValueError, \"Invalid literal for Fraction: '3'\", lib.parse, '3')\n"
)


def test_a_helper_named_like_an_assertion_links_its_callers(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "lib.py").write_text(LIBRARY)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/frac"), repo="o/frac")
    ((_, evidence),) = result.items
    linked = [(t["name"].rpartition("::")[2], t.get("via"), t["match"]) for t in evidence["tests"]]
    assert linked == [
        (
            "test_from_string",
            "tests.test_lib.FractionTest.assertRaisesMessage",
            "Invalid literal for Fraction: '3'",
        )
    ]
