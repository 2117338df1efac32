"""Test links kept across scans: answered from the last scan by their key, recomputed
when what decides them changes."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

from errdex.analyze.repo import build_index
from errdex.analyze.static import Analysis, analyze_with_index
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
    [key] = cold.choices
    again = _analyse(tmp_path, cold.choices)
    assert _undated(again) == _undated(cold) and again.choices == cold.choices
    # the memo answers as is: a doctored answer under the same key shows through
    assert _tests(_analyse(tmp_path, {key: []})) == []
    # a candidate whose site changed is another key: the doctored answer no longer counts
    (tmp_path / "pkg/core.py").write_text(CORE.replace("negative:", "negative value:"))
    assert _tests(_analyse(tmp_path, {key: []})) == ["tests/test_core.py::test_negative"]
