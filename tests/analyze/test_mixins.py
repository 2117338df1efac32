"""A mixin's test linked as each concrete test class runs it (blind review 2026-12-04):
``test_tarfile``'s ``taropen`` bound per subclass, ``test_io``'s ``tp``, ``test_warnings``'
``wmod = self.module`` with ``x = wmod.catch_warnings()`` bound twice; a class binding
the C twin links nothing; and ``self.failureException`` as the expected class."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class TarFile:
    @classmethod
    def taropen(cls, name, mode="r"):
        if mode not in ("r", "a", "w", "x"):
            raise ValueError("mode must be 'r', 'a', 'w' or 'x'")
        return cls()

    @classmethod
    def bz2open(cls, name, mode="r"):
        if mode not in ("r", "w", "x"):
            raise ValueError("mode must be 'r', 'w' or 'x'")
        return cls()


class Reader:
    def __init__(self, raw):
        self.raw = raw

    def seek(self, pos, whence=0):
        if whence not in (0, 1, 2):
            raise ValueError("invalid whence value")
        return pos


class Writer:
    def __init__(self, raw):
        self.raw = raw

    def seek(self, pos, whence=0):
        if whence not in (0, 1, 2):
            raise ValueError("whence must be 0, 1 or 2")
        return pos


class catch_warnings:
    def __init__(self, record=False):
        self._entered = False

    def __enter__(self):
        if self._entered:
            raise RuntimeError("Cannot enter %r twice" % self)
        self._entered = True


def warn(message, category=None):
    if not isinstance(category, type):
        raise TypeError("category must be a Warning subclass, not '{:s}'".format(category))


class SystemRandom:
    def getrandbits(self, k):
        if k < 0:
            raise ValueError("number of bits must be non-negative")
        return k


class Case:
    failureException = AssertionError

    def assertClose(self, first, second):
        if abs(first - second) > 1:
            raise self.failureException("%s != %s within 1" % (first, second))
"""

TESTS = """\
import unittest

from test.support import import_helper
from pkg import lib

py_lib = import_helper.import_fresh_module("pkg.lib", blocked=["_lib"])
c_lib = import_helper.import_fresh_module("pkg.lib", fresh=["_lib"])


class MiscReadTestBase:
    taropen = lib.TarFile.taropen

    def test_illegal_mode_arg(self):
        with self.assertRaisesRegex(ValueError, "mode must be "):
            self.taropen("x.tar", "q")


class MiscReadTest(MiscReadTestBase, unittest.TestCase):
    pass


class Bz2MiscReadTest(MiscReadTestBase, unittest.TestCase):
    taropen = lib.TarFile.bz2open


class CommonBufferedTests:
    def test_invalid_args(self):
        bufio = self.tp(None)
        self.assertRaises(ValueError, bufio.seek, 0, -1)


class ReaderTest(CommonBufferedTests, unittest.TestCase):
    tp = lib.Reader


class WriterTest(CommonBufferedTests, unittest.TestCase):
    tp = lib.Writer


class WriterOverride(WriterTest):
    def test_invalid_args(self):
        pass


class CatchWarningTests:
    def test_reentry_guard(self):
        wmod = self.module
        x = wmod.catch_warnings(record=True)
        with x:
            self.assertRaises(RuntimeError, x.__enter__)
        x = wmod.catch_warnings(record=False)
        with x:
            self.assertRaises(RuntimeError, x.__enter__)

    def test_warning_classes(self):
        with self.assertRaises(TypeError) as cm:
            self.module.warn("bad warning category", "")
        self.assertIn("category must be a Warning subclass, not ", str(cm.exception))


class CCatchWarningTests(CatchWarningTests, unittest.TestCase):
    module = c_lib


class PyCatchWarningTests(CatchWarningTests, unittest.TestCase):
    module = py_lib


class GetBitsBase:
    def test_getrandbits(self):
        self.assertRaises(ValueError, self.gen.getrandbits, -1)


class SystemGetBits(GetBitsBase, unittest.TestCase):
    gen = lib.SystemRandom()

    def test_getrandbits(self):
        super().test_getrandbits()


class AssertionTests(lib.Case):
    def test_close(self):
        self.assertRaises(self.failureException, self.assertClose, 1.0, 3.0)
"""

Links = dict[tuple[str, int], list[dict[str, Any]]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests linked to each site of ``lib.py``, by line."""
    root: Path = tmp_path_factory.mktemp("mixins")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/mixins"), repo="o/mixins")
    return {
        (record["filePath"].rpartition("/")[2], record["lineNumber"]): evidence["tests"]
        for record, evidence in result.items
    }


def _names(links: Links, line: int) -> list[str]:
    """Each linked test as ``Class::test``."""
    return [t["name"].split("::", 1)[1] for t in links[("lib.py", line)]]


def test_each_subclass_binding_links_its_own_raise(links: Links) -> None:
    """Bound together, ``self.taropen`` reaches both raises and the message fits both."""
    assert _names(links, 5) == ["MiscReadTest::test_illegal_mode_arg"]
    assert _names(links, 11) == ["Bz2MiscReadTest::test_illegal_mode_arg"]


def test_a_local_made_by_a_class_the_subclass_binds(links: Links) -> None:
    """``bufio = self.tp(None)``: a ``Reader`` in one class, a ``Writer`` in another; a
    subclass that overrides the test does not run the mixin's."""
    assert _names(links, 21) == ["ReaderTest::test_invalid_args"]
    assert _names(links, 31) == ["WriterTest::test_invalid_args"]


def test_a_module_attribute_through_a_local_alias_bound_twice(links: Links) -> None:
    """``wmod = self.module``; ``x = wmod.catch_warnings(...)`` twice, the same callee:
    linked in the class whose module is the Python one only."""
    assert _names(links, 41) == [
        "PyCatchWarningTests::test_reentry_guard",
        "PyCatchWarningTests::test_reentry_guard",
    ]


def test_a_class_binding_the_c_twin_is_not_linked(links: Links) -> None:
    """``CCatchWarningTests`` runs C's ``warn``: the message fits the Python raise, and a
    name-only edge may reach it, but that class's run never executes it."""
    assert _names(links, 47) == ["PyCatchWarningTests::test_warning_classes"]


def test_self_failure_exception_is_the_class_the_test_case_binds(links: Links) -> None:
    """``TestCase.failureException = AssertionError``: ``assertRaises(self.failureException,
    self.assertClose, …)`` expects an ``AssertionError``."""
    assert _names(links, 62) == ["AssertionTests::test_close"]


def test_an_override_that_calls_the_mixins_test_runs_it(links: Links) -> None:
    """``SystemGetBits.test_getrandbits`` calls ``super().test_getrandbits()``: the one
    class that runs the mixin's test names it."""
    assert _names(links, 53) == ["SystemGetBits::test_getrandbits"]
