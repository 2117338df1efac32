"""Source files are read as the interpreter reads them (:mod:`errdex.source.reading`)."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source
from errdex.source.reading import SourceSkip, read_source

#: Valid UTF-8 under a cookie naming no encoding: ``import`` fails with
#: ``SyntaxError: unknown encoding: uft-8``.
MISSPELT = "# -*- coding: uft-8 -*-\nraise ValueError('caf\u00e9')\n".encode()


def test_a_python_file_whose_encoding_python_refuses_is_skipped(tmp_path: Path) -> None:
    (tmp_path / "mod.py").write_bytes(MISSPELT)
    imported = subprocess.run(
        [sys.executable, "-c", "import mod"], cwd=tmp_path, capture_output=True, text=True
    )
    assert "SyntaxError: unknown encoding: uft-8" in imported.stderr
    with pytest.raises(SourceSkip, match="Python refuses its encoding declaration"):
        read_source(tmp_path / "mod.py")
    (tmp_path / "ok.py").write_text("raise ValueError('fine')\n")
    checkout = open_source(str(tmp_path), repo="o/r", sha="3" * 40)
    result = scan_checkout(checkout, repo="o/r", analyze=False)
    assert [r["errorMessage"] for r, _ in result.items] == ["fine"]
    assert dict(result.skipped)["mod.py"] == (
        "Python refuses its encoding declaration (unknown encoding: uft-8)"
    )


def test_a_python_cookie_decides_even_where_the_bytes_are_utf8(tmp_path: Path) -> None:
    """Python decodes a latin-1 file as latin-1, whatever else its bytes could be."""
    path = tmp_path / "lat.py"
    path.write_bytes("# -*- coding: latin-1 -*-\nX = 'caf\u00e9'\n".encode())
    imported = subprocess.run(
        [sys.executable, "-c", "import lat; print(ascii(lat.X))"],
        cwd=tmp_path,
        capture_output=True,
        text=True,
    )
    assert imported.stdout.strip() == ascii("caf\u00c3\u00a9")
    assert read_source(path).splitlines()[1] == "X = 'caf\u00c3\u00a9'"


def test_cython_refuses_it_too_and_other_files_are_read_as_utf8(tmp_path: Path) -> None:
    """Cython 3.3.1 stops on the cookie (``LookupError: unknown encoding: uft-8``); a C
    file's or a template's first line is no cookie: its valid UTF-8 is read."""
    (tmp_path / "m.pyx").write_bytes(MISSPELT)
    with pytest.raises(SourceSkip, match="unknown encoding: uft-8"):
        read_source(tmp_path / "m.pyx")
    for name in ("m.c", "m.pyx.in"):
        (tmp_path / name).write_bytes(MISSPELT)
        assert "caf\u00e9" in read_source(tmp_path / name)


def test_a_file_whose_lines_end_at_a_lone_cr_is_extracted(tmp_path: Path) -> None:
    """compile() and Cython end a line at a lone CR; before, such a latin-1 file was
    skipped, and a UTF-8 one gave no site after line 1 (.py) or 'Unrecognized character'
    (.pyx)."""
    data = b"# coding: latin-1\rdef f(x):\r    raise ValueError('caf\xe9 %s' % x)\r"
    for name in ("m.py", "m.pyx"):
        (tmp_path / name).write_bytes(data)
    checkout = open_source(str(tmp_path), repo="o/r", sha="4" * 40)
    result = scan_checkout(checkout, repo="o/r", analyze=False)
    found = {(r["filePath"], r["lineNumber"], r["errorMessage"]) for r, _ in result.items}
    assert {("m.py", 3, "caf\u00e9 %s"), ("m.pyx", 3, "caf\u00e9 %s")} <= found
    assert result.skipped == []
