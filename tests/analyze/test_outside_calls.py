"""A message C code wrote is not linked to a Python raise the test never reaches."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

UTIL = """\
def rmtree(path, dir_fd=None):
    if dir_fd is not None:
        raise NotImplementedError("dir_fd unavailable on this platform")
"""

TEST = """\
import unittest
from pkg import osmod


class WeakLinking(unittest.TestCase):
    def test_stat(self):
        with self.assertRaisesRegex(NotImplementedError, "dir_fd unavailable"):
            osmod.stat("file", dir_fd=0)
"""


@pytest.mark.parametrize(
    ("osmod", "linked"),
    [
        ("from _cposix import *\n\n\ndef walk(top):\n    return top\n", False),
        # no star import of C code: the name may be bound where errdex does not see it
        ("def walk(top):\n    return top\n", True),
    ],
)
def test_a_call_into_a_star_imported_c_module_links_no_unreached_site(
    tmp_path: Path, osmod: str, linked: bool
) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/osmod.py").write_text(osmod)
    (tmp_path / "pkg/util.py").write_text(UTIL)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_os.py").write_text(TEST)
    result = scan_checkout(open_source(str(tmp_path), repo="o/p"), repo="o/p")
    tests = [t["name"] for _, e in result.items for t in e["tests"]]
    assert tests == (["tests/test_os.py::WeakLinking::test_stat"] if linked else [])
