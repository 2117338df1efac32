"""An operator on a class object runs its metaclass's dunder: ``'x' in Color`` is
``EnumType.__contains__`` (which warns, then raises), linked to a test's
``assertRaises``/``assertWarns`` around it; a class whose metaclass is ``type`` links
nothing, not even its own instance ``__contains__``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.class_operators import metaclass_of
from errdex.analyze.repo import RepoIndex, build_index
from errdex.scan import scan_checkout
from errdex.source import open_source

ENUMISH = """\
import warnings


class EnumType(type):
    def __contains__(cls, value):
        if not isinstance(value, cls):
            warnings.warn("non-member containment checks will change", DeprecationWarning)
            raise TypeError("unsupported operand type(s) for 'in'")
        return True

    def __getitem__(cls, name):
        if name not in cls.__dict__:
            raise KeyError(name)
        return cls.__dict__[name]


class Enum(metaclass=EnumType):
    pass


class Plain:
    def __contains__(self, value):
        raise TypeError("members only")
"""

TESTS = """\
import unittest

from pkg import enumish


class Color(enumish.Enum):
    RED = 1


class OperatorTests(unittest.TestCase):
    def test_contains(self):
        with self.assertRaises(TypeError):
            "x" in Color

    def test_contains_warns(self):
        with self.assertWarns(DeprecationWarning):
            "x" in Color

    def test_missing_member(self):
        with self.assertRaises(KeyError):
            Color["BLUE"]

    def test_plain_class(self):
        with self.assertRaises(TypeError):
            "x" in enumish.Plain
"""


@pytest.fixture(scope="module")
def scanned(tmp_path_factory: pytest.TempPathFactory) -> list[tuple[dict[str, Any], Any]]:
    root: Path = tmp_path_factory.mktemp("operators")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "enumish.py").write_text(ENUMISH)
    (root / "tests").mkdir()
    (root / "tests" / "test_enumish.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/ops"), repo="o/ops")
    return list(result.items)


def _names(scanned: list[tuple[dict[str, Any], Any]], line: int) -> list[str]:
    return sorted(
        t["name"].rpartition("::")[2]
        for record, evidence in scanned
        if record["filePath"].endswith("enumish.py") and record["lineNumber"] == line
        for t in evidence["tests"]
    )


def test_in_on_a_class_runs_its_metaclass_contains(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``"x" in Color``: ``Color``'s metaclass comes from its base ``Enum``."""
    assert _names(scanned, 7) == ["test_contains_warns"]
    assert _names(scanned, 8) == ["test_contains"]


def test_a_subscript_of_a_class_runs_its_metaclass_getitem(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    assert _names(scanned, 13) == ["test_missing_member"]


def test_a_class_of_no_repository_metaclass_links_nothing(
    scanned: list[tuple[dict[str, Any], Any]],
) -> None:
    """``"x" in Plain`` is ``type``'s operator: the interpreter raises the ``TypeError``;
    ``Plain.__contains__`` runs for an instance, not for the class."""
    assert _names(scanned, 23) == []


def test_metaclass_of_follows_bases(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "enumish.py").write_text(ENUMISH)
    index: RepoIndex = build_index(open_source(str(tmp_path), repo="o/m"))
    assert metaclass_of(index, "pkg.enumish.Enum") == "pkg.enumish.EnumType"
    assert metaclass_of(index, "pkg.enumish.Plain") is None
