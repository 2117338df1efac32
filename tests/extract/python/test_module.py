"""A module reader finds the lines holding a text as a test of each line finds them,
numbered as Python numbers lines (``ast``'s ``lineno``: a form feed ends none)."""

from __future__ import annotations

import ast
import sysconfig
from pathlib import Path

import pytest

from errdex.extract.python.module import ModuleReader
from errdex.extract.source_lines import source_lines

STDLIB = Path(sysconfig.get_paths()["stdlib"])


def _reader(source: str) -> ModuleReader:
    return ModuleReader(source, "m.py", "m", {})


@pytest.mark.parametrize(
    "source",
    [
        "a = f(1)\nb = f(2); f(3)\n\nf(4)",
        "x = f(1)\r\ny = f(2)\rz = f(3)\x0cf(4)\x1cq\u2028f(5)",
        "f(",
        "",
        "g(1)\n",
    ],
)
def test_lines_with_is_the_per_line_test(source: str) -> None:
    reader = _reader(source)
    expected = [i for i, text in enumerate(source_lines(source), 1) if "f(" in text]
    assert reader.lines_with("f(") == expected


def test_lines_with_on_a_real_module() -> None:
    text = (STDLIB / "argparse.py").read_text(encoding="utf-8")
    reader = _reader(text)
    for needle in ("_(", ".add_argument(", "self._get_formatter(", "ArgumentError(", "zz("):
        expected = [i for i, t in enumerate(text.splitlines(), 1) if needle in t]
        assert reader.lines_with(needle) == expected


def test_segment_is_the_source_segment_on_ascii_and_other_lines() -> None:
    source = 'x = f("é", y)\nz = g(a,\n      "ü" + b) + h(\n  c)\nw = k(1)\n'
    reader = _reader(source)
    nodes = [n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.expr)]
    assert len(nodes) > 15
    for node in nodes:
        assert reader.segment(node) == ast.get_source_segment(source, node)


def test_segment_after_a_page_break_is_the_nodes_own_text() -> None:
    """A ``^L`` line (old stdlib modules have them) is one line for ``ast``."""
    source = 'import os\n\x0c\ndef f(x):\n    raise ValueError("bad x: " + x)\n'
    reader = _reader(source)
    call = next(n for n in ast.walk(ast.parse(source)) if isinstance(n, ast.Call))
    assert reader.segment(call) == 'ValueError("bad x: " + x)'
    assert reader.lines_with("raise") == [4]
