"""Warnings a test records by hand (``catch_warnings(record=True)`` and a check of the
recorded category) and ``pytest.deprecated_call()`` link the test to the ``warn`` they
expect; a block that states no category, or denies one, links nothing."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
import warnings


def old_a(x):
    warnings.warn("old_a is deprecated", DeprecationWarning, stacklevel=2)
    return x


def old_b(x, flag=None):
    if flag is not None:
        warnings.warn("flag is deprecated and ignored", DeprecationWarning, stacklevel=2)
    return x


def old_c(x):
    warnings.warn("old_c is deprecated", DeprecationWarning, stacklevel=2)
    return x


def old_d(x):
    warnings.warn("old_d is deprecated", DeprecationWarning, stacklevel=2)
    return x


def old_e(x):
    warnings.warn("old_e is deprecated", DeprecationWarning, stacklevel=2)
    return x


def odd(x):
    warnings.warn("odd value", UserWarning, stacklevel=2)
    return x
"""

TESTS = """\
import unittest
import warnings

import pytest

from pkg import lib


class T(unittest.TestCase):
    def test_a(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.old_a(1)
            self.assertEqual(len(w), 1)
            self.assertTrue(issubclass(w[-1].category, DeprecationWarning))

    def test_b(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.old_b(1, True)
        self.assertIs(w[-1].category, DeprecationWarning)
        self.assertEqual(str(w[-1].message), "flag is deprecated and ignored")

    def test_c_counts_only(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.old_c(1)
        self.assertEqual(len(w), 1)

    def test_e_denied(self):
        with warnings.catch_warnings(record=True) as w:
            warnings.simplefilter("always")
            lib.old_e(1)
        self.assertFalse(issubclass(w[-1].category, DeprecationWarning))
        with warnings.catch_warnings(record=True) as w:
            lib.old_a(1)
        self.assertIs(w[0].category, UserWarning)


def test_d():
    with pytest.deprecated_call():
        lib.old_d(1)
"""

Links = dict[str, list[dict[str, Any]]]


def _scan(root: Path, library: str, tests: str) -> Links:
    """The tests linked to each warning of ``library``, by its message."""
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(library)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(tests)
    result = scan_checkout(open_source(str(root), repo="o/warns"), repo="o/warns")
    return {r["errorMessage"]: ev["tests"] for r, ev in result.items}


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    return _scan(tmp_path_factory.mktemp("warns"), LIBRARY, TESTS)


def _names(links: Links, message: str) -> list[str]:
    return [t["name"].rpartition("::")[2] for t in links[message]]


def test_a_recorded_category_checked_with_issubclass(links: Links) -> None:
    assert _names(links, "old_a is deprecated") == ["test_a"]
    assert links["old_a is deprecated"][0]["kind"] == "catch_warnings"


def test_a_category_and_message_checked_after_the_block(links: Links) -> None:
    (link,) = links["flag is deprecated and ignored"]
    assert link["name"].endswith("::test_b")
    assert link["match"] == "flag is deprecated and ignored"


def test_pytest_deprecated_call(links: Links) -> None:
    assert _names(links, "old_d is deprecated") == ["test_d"]
    assert links["old_d is deprecated"][0]["kind"] == "pytest.deprecated_call"


def test_no_category_stated_or_one_denied_links_nothing(links: Links) -> None:
    """``len(w) == 1`` alone says no category; ``assertFalse(issubclass(...))`` denies
    one; the second block's ``UserWarning`` is not the first block's."""
    assert links["old_c is deprecated"] == []
    assert links["old_e is deprecated"] == []


FILTERED_TESTS = """\
import unittest
import warnings

from pkg import lib


class T(unittest.TestCase):
    def test_as_error(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", DeprecationWarning)
            with self.assertRaises(DeprecationWarning):
                lib.old_e(1)

    def test_callable_form(self):
        with warnings.catch_warnings():
            warnings.filterwarnings("error", category=UserWarning)
            self.assertRaises(UserWarning, lib.odd, 1)

    def test_filter_left_behind(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
        self.assertRaises(UserWarning, lib.odd, 2)

    def test_other_category(self):
        with warnings.catch_warnings():
            warnings.simplefilter("error", UserWarning)
            self.assertRaises(DeprecationWarning, lib.old_e, 2)
"""


def test_a_category_a_filter_makes_an_error_is_raised_by_its_warn(tmp_path: Path) -> None:
    """``simplefilter("error", C)`` (or ``filterwarnings("error", category=C)``) then
    ``assertRaises(C)``: the ``warn`` of ``C`` is what raises. Not once the block that
    set the filter has ended, nor for a category the filter left alone."""
    found = _scan(tmp_path, LIBRARY, FILTERED_TESTS)
    assert [t["name"].rpartition("::")[2] for t in found["old_e is deprecated"]] == [
        "test_as_error"
    ]
    assert [t["name"].rpartition("::")[2] for t in found["odd value"]] == ["test_callable_form"]
