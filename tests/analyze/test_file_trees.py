"""A module's tree is read as Python reads source, and read again once it changes
(re-reader, stop 38: a BOM made the file unparseable and no rule fired)."""

from __future__ import annotations

import os
from pathlib import Path

from errdex.analyze.file_trees import function_node, module_tree


def test_a_bom_and_a_coding_line_are_read_as_python_reads_them(tmp_path: Path) -> None:
    bom = tmp_path / "bom.py"
    bom.write_bytes(b"\xef\xbb\xbfdef f():\n    return 1\n")
    latin = tmp_path / "latin.py"
    latin.write_bytes(b"# -*- coding: latin-1 -*-\ndef g():\n    return '\xe9'\n")
    assert function_node(str(bom), 1, "f") is not None
    assert function_node(str(latin), 2, "g") is not None


def test_an_edited_file_is_parsed_again(tmp_path: Path) -> None:
    path = tmp_path / "m.py"
    path.write_text("def f():\n    return 1\n")
    stat = path.stat()
    assert function_node(str(path), 1, "f") is not None
    path.write_text("def gg():\n    return 22\n")
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time, other size
    tree = module_tree(str(path))
    assert tree is not None and function_node(str(path), 1, "gg") is not None
