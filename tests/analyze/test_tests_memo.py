"""Test links kept across scans: answered from the last scan by their key, recomputed
when what decides them changes."""

from __future__ import annotations

import math
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze import tests_evidence
from errdex.analyze.repo import build_index
from errdex.analyze.static import Analysis, analyze_with_index
from errdex.analyze.tests_memo import FITS
from errdex.scan import scan_checkout
from errdex.source import open_source

CORE = """\
def check(x):
    if x < 0:
        raise ValueError(f"negative: {x}")
    return x
"""

TEST = """\
import pytest
from pkg.core import check


def test_negative():
    with pytest.raises(ValueError, match="negative"):
        check(-1)
"""


def _analyse(root: Path, choices: dict[str, list[tuple[str, str]]] | None) -> Analysis:
    checkout = open_source(str(root), repo="owner/proj")
    items = scan_checkout(checkout, repo="owner/proj", analyze=False).items
    index = build_index(checkout)
    return analyze_with_index(index, "", items, budget=math.inf, choices=choices)


def _undated(analysis: Analysis) -> list[tuple[dict[str, Any], dict[str, Any]]]:
    return [({**r, "analyzedAt": None}, e) for r, e in analysis.items]


def _sites(root: Path) -> list[Any]:
    from errdex.analyze.sites import site_views

    checkout = open_source(str(root), repo="owner/proj")
    return site_views(scan_checkout(checkout, repo="owner/proj", analyze=False).items, "")


def _tests(analysis: Analysis) -> list[str]:
    [(_, evidence)] = analysis.items
    return [t["name"] for t in evidence["tests"]]


def test_kept_choices_answer_and_a_changed_candidate_is_chosen_again(tmp_path: Path) -> None:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/core.py").write_text(CORE)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_core.py").write_text(TEST)
    cold = _analyse(tmp_path, None)
    assert _tests(cold) == ["tests/test_core.py::test_negative"]
    [key] = [k for k in cold.choices if k != FITS]  # FITS: the kept fits
    again = _analyse(tmp_path, cold.choices)
    assert _undated(again) == _undated(cold) and again.choices == cold.choices
    # the memo answers as is: a doctored answer under the same key shows through
    assert _tests(_analyse(tmp_path, {key: []})) == []
    # a candidate whose site changed is another key: the doctored answer no longer counts
    (tmp_path / "pkg/core.py").write_text(CORE.replace("negative:", "negative value:"))
    assert _tests(_analyse(tmp_path, {key: []})) == ["tests/test_core.py::test_negative"]


EXTRA = """\
def again(x):
    raise ValueError(f"negative again: {x}")
"""


def _counting(monkeypatch: pytest.MonkeyPatch) -> list[Any]:
    """The templates the linker fits a message against, as it fits them."""
    tried: list[Any] = []
    real: Callable[..., Any] = tests_evidence.fit

    def counted(expected: Any, template: Any) -> Any:
        tried.append(template)
        return real(expected, template)

    monkeypatch.setattr(tests_evidence, "fit", counted)
    return tried


def test_a_new_site_of_the_class_is_the_only_template_fitted_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Its key changed (a new candidate), so the choice is made again, from the kept fits
    and one new fit; the links are those a fresh analysis makes."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/core.py").write_text(CORE)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_core.py").write_text(TEST)
    tried = _counting(monkeypatch)
    cold = _analyse(tmp_path, None)
    assert len(tried) == 1 and cold.choices[FITS]["fits"]
    (tmp_path / "pkg/extra.py").write_text(EXTRA)
    tried.clear()
    edited = _analyse(tmp_path, cold.choices)
    assert [t.to_json() for t in tried] == [
        s.template.to_json() for s in _sites(tmp_path) if "again" in str(s.template.to_json())
    ]
    tried.clear()
    fresh = _analyse(tmp_path, None)
    assert len(tried) == 2
    assert _undated(edited) == _undated(fresh) and edited.choices == fresh.choices
    linked = {r["lineNumber"]: [t["name"] for t in e["tests"]] for r, e in edited.items}
    assert sorted(linked.values()) == [[], ["tests/test_core.py::test_negative"]]


TWO = (
    CORE
    + """

def parse(text):
    if not text:
        raise ValueError("empty text given to parse")
    return text
"""
)

TWO_TESTS = """\
import pytest
from pkg.core import check, parse


def test_negative():
    with pytest.raises(ValueError, match="negative"):
        check(-1)


def test_empty():
    with pytest.raises(ValueError, match="empty text"):
        parse("")
"""


def _two(root: Path, core: str = TWO) -> None:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg/__init__.py").write_text("")
    (root / "pkg/core.py").write_text(core)
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests/test_core.py").write_text(TWO_TESTS)


def _linked(analysis: Analysis) -> dict[str, list[str]]:
    return {r["errorMessage"]: [t["name"] for t in e["tests"]] for r, e in analysis.items}


def test_an_unchanged_repository_fits_no_template_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    _two(tmp_path)
    tried = _counting(monkeypatch)
    cold = _analyse(tmp_path, None)
    assert tried  # the cold analysis fits the messages
    assert _linked(cold) == {
        "negative: {x}": ["tests/test_core.py::test_negative"],
        "empty text given to parse": ["tests/test_core.py::test_empty"],
    }
    tried.clear()
    again = _analyse(tmp_path, cold.choices)
    assert tried == []
    assert _undated(again) == _undated(cold) and again.choices == cold.choices


def test_lines_moved_above_the_sites_fit_no_template_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A candidate is keyed by what the choice reads of it, not its line: code added above
    both sites changes no key, so nothing is fitted or chosen again."""
    _two(tmp_path)
    tried = _counting(monkeypatch)
    cold = _analyse(tmp_path, None)
    (tmp_path / "pkg/core.py").write_text("LIMIT = 3\n\n\n" + TWO)
    tried.clear()
    moved = _analyse(tmp_path, cold.choices)
    assert tried == []
    assert moved.choices == cold.choices
    assert _linked(moved) == _linked(cold)


def test_an_edited_template_is_fitted_again_and_the_unchanged_one_is_not(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Editing one message makes it a new template of the class: the expectations of the
    class fit that template alone again (the kept fits of the other stand), and the links
    are those of a fresh analysis."""
    _two(tmp_path)
    tried = _counting(monkeypatch)
    cold = _analyse(tmp_path, None)
    (tmp_path / "pkg/core.py").write_text(TWO.replace("text given", "text passed"))
    tried.clear()
    edited = _analyse(tmp_path, cold.choices)
    [template] = [s.template for s in _sites(tmp_path) if "passed" in s.record["errorMessage"]]
    assert [t.to_json() for t in tried] == [template.to_json()]
    assert _linked(edited) == {
        "negative: {x}": ["tests/test_core.py::test_negative"],
        "empty text passed to parse": ["tests/test_core.py::test_empty"],
    }
    tried.clear()
    fresh = _analyse(tmp_path, None)
    assert len(tried) == 2  # a fresh analysis fits both messages again
    assert _undated(edited) == _undated(fresh) and edited.choices == fresh.choices


IMPORTED_TEST = """\
import pytest
from pkg import core


def test_negative():
    with pytest.raises(ValueError, match="negative value: -1"):
        run_it(-1)
"""


def test_an_import_of_the_test_module_changed_in_place_chooses_again(tmp_path: Path) -> None:
    """A fit through a hole that the test's calls do not reach is kept only where the
    test's module imports the site's (``_from_library``): the module's imports decide
    the choice, though neither the expectation nor its ranks show them."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg/__init__.py").write_text("")
    (tmp_path / "pkg/core.py").write_text(CORE.replace("negative:", "negative value:"))
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests/test_core.py").write_text(IMPORTED_TEST)
    warm = _analyse(tmp_path, None)
    assert _tests(warm) == ["tests/test_core.py::test_negative"]
    # the same line imports another module: the expectation reads as before
    (tmp_path / "tests/test_core.py").write_text(
        IMPORTED_TEST.replace("from pkg import core", "import os")
    )
    cold = _analyse(tmp_path, None)
    assert _tests(cold) == []
    assert _tests(_analyse(tmp_path, warm.choices)) == []


def test_each_expectations_callees_are_resolved_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """The memo's key, its unseen part and the choice each read the test's callees: they
    are resolved once per expectation, and the links are what they were."""
    _two(tmp_path)
    resolved: list[str] = []
    real: Callable[..., Any] = tests_evidence.expect_callees

    def counted(index: Any, expect: Any, attributes: Any = None) -> Any:
        resolved.append(expect.name)
        return real(index, expect, attributes)

    monkeypatch.setattr(tests_evidence, "expect_callees", counted)
    cold = _analyse(tmp_path, None)
    assert sorted(resolved) == sorted(set(resolved)) and len(resolved) == 2
    assert sorted(t["name"] for _, e in cold.items for t in e["tests"]) == [
        "tests/test_core.py::test_empty",
        "tests/test_core.py::test_negative",
    ]


def test_kept_choices_index_no_templates_grams(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Sites by 4-gram serve only fitting many candidates: when every choice is kept, no
    site's grams are indexed, and the links are a fresh analysis's."""
    _two(tmp_path)
    cold = _analyse(tmp_path, None)
    indexed: list[Any] = []
    real: Callable[..., Any] = tests_evidence.template_grams

    def counted(template: Any) -> Any:
        indexed.append(template)
        return real(template)

    monkeypatch.setattr(tests_evidence, "template_grams", counted)
    again = _analyse(tmp_path, cold.choices)
    assert indexed == []
    assert _undated(again) == _undated(cold) and again.choices == cold.choices


GATED = """\
class W:
    def __init__(self, buffer, newline=None):
        if buffer is None:
            self._check(newline)
        self._other(buffer)

    def _check(self, newline):
        if newline not in (None, ""):
            raise ValueError("illegal newline")

    def _other(self, buffer):
        if buffer == 3:
            raise ValueError("three")
"""
GATED_TEST = """\
import unittest
from pkg import lib


class T(unittest.TestCase):
    def test_nl(self):
        self.assertRaises(ValueError, lib.W, None, newline="x")
"""
POSITIONAL = """\
def f(a, b):
    if a is None:
        raise ValueError("a is None")
    return b
"""
POSITIONAL_TEST = """\
import unittest
from pkg import lib


class T(unittest.TestCase):
    def test_nl(self):
        x = None
        self.assertRaises(ValueError, lib.f, x, x)
"""


@pytest.mark.parametrize(
    ("lib", "test", "edit"),
    [
        # the condition around the call one level below: the literals no longer reach it
        (GATED, GATED_TEST, ("if buffer is None:", "if buffer is not None:")),
        # ``b`` made keyword-only: ``f(x, x)`` is the interpreter's TypeError
        (POSITIONAL, POSITIONAL_TEST, ("def f(a, b):", "def f(a, *, b):")),
    ],
)
def test_an_edit_the_choice_reads_is_in_its_key(
    tmp_path: Path, lib: str, test: str, edit: tuple[str, str]
) -> None:
    """A kept choice answered for an edit that changes what the linker reads (re-read,
    stop 34): a re-scan must link as a fresh scan does."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "lib.py").write_text(lib)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_lib.py").write_text(test)
    cold = _analyse(tmp_path, None)
    assert any(e.get("tests") for _, e in cold.items)
    (tmp_path / "pkg" / "lib.py").write_text(lib.replace(*edit))
    fresh = _analyse(tmp_path, None)
    kept = _analyse(tmp_path, cold.choices)
    assert _undated(kept) == _undated(fresh)
