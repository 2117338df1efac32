"""A test's local named ``cls`` is the object it binds, not a class method's own ``cls``
(``datetimetester``'s ``cls = self.theclass``, ``t = cls(1, 1, 1, tzinfo=C4())``,
``assertRaises(TypeError, t.tzname)``; blind review 2026-12-06, record 32)."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
def _check_tzname(name):
    if name is not None and not isinstance(name, str):
        raise TypeError("tzinfo.tzname() must return None or string")


class Time:
    def __init__(self, hour, tzinfo=None):
        self.tzinfo = tzinfo

    def tzname(self):
        name = self.tzinfo.tzname(None)
        _check_tzname(name)
        return name


class Zone:
    def tzname(self, dt):
        return "UTC"
"""

TESTS = """\
import unittest

from pkg import lib


class TZInfoBase:
    def test_tzinfo_classes(self):
        cls = self.theclass
        t = cls(1)
        self.assertRaises(TypeError, t.tzname)


class TestTimeTZ(TZInfoBase, unittest.TestCase):
    theclass = lib.Time
"""


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> dict[int, list[str]]:
    """The tests (``Class::test``) linked to each site of ``lib.py``, by line."""
    root: Path = tmp_path_factory.mktemp("local_cls")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/cls"), repo="o/cls")
    return {
        record["lineNumber"]: [t["name"].split("::", 1)[1] for t in evidence.get("tests") or []]
        for record, evidence in result.items
    }


def test_a_local_cls_bound_to_the_class_under_test(links: dict[int, list[str]]) -> None:
    """``t = cls(1)`` is a ``Time``: ``t.tzname`` lands in ``Time.tzname`` exactly, not
    in each ``tzname`` by name (``Zone``'s too), and a link without a message needs an
    exact call."""
    assert links[3] == ["TestTimeTZ::test_tzinfo_classes"]
