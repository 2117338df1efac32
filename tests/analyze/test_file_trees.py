"""A module's tree is read as Python reads source, and read again once it changes
(re-reader, stop 38: a BOM made the file unparseable and no rule fired)."""

from __future__ import annotations

import os
from pathlib import Path

from errdex.analyze.file_trees import file_stamp, function_node, module_tree, scan_digests


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


def test_a_file_is_known_by_the_scans_digest(tmp_path: Path) -> None:
    """An edit that keeps the size and the modification time (within one clock tick of
    the last: git's "racy clean" case) is read again: the scan's digest of the file
    changed; a file whose stat changed but whose digest did not is not read again."""
    path = tmp_path / "m.py"
    path.write_text("def f():\n    return 1\n")
    stat = path.stat()
    with scan_digests(tmp_path, {"m.py": "digest-one"}):
        assert file_stamp(str(path)) == "digest-one"
        assert function_node(str(path), 1, "f") is not None
    path.write_text("def g():\n    return 2\n")  # same size
    os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns))  # same time
    with scan_digests(tmp_path, {"m.py": "digest-two"}):
        assert function_node(str(path), 1, "g") is not None
        os.utime(path, ns=(stat.st_atime_ns, stat.st_mtime_ns + 10**9))  # touched
        assert file_stamp(str(path)) == "digest-two"
    assert file_stamp(str(path)) == (stat.st_size, stat.st_mtime_ns + 10**9)  # no scan
