"""A file the snippet builders cannot read gives no tree, instead of stopping verify."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.verify._source_tree import source_tree


def test_a_file_that_parses_gives_its_tree(tmp_path: Path) -> None:
    file = tmp_path / "m.py"
    file.write_text("def f(x):\n    raise ValueError(x)\n", encoding="utf-8")
    tree = source_tree(file)
    assert isinstance(tree, ast.Module)
    assert [n.name for n in tree.body if isinstance(n, ast.FunctionDef)] == ["f"]


def test_what_cannot_be_read_gives_none(tmp_path: Path) -> None:
    broken = tmp_path / "broken.py"
    broken.write_text("def f(:\n", encoding="utf-8")
    binary = tmp_path / "binary.py"
    binary.write_bytes(b"\xff\xfe\x00raise")
    nul = tmp_path / "nul.py"
    nul.write_bytes(b"x = 1\x00\n")
    assert source_tree(broken) is None
    assert source_tree(binary) is None
    assert source_tree(nul) is None
    assert source_tree(tmp_path / "missing.py") is None
