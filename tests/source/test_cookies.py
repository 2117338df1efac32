"""A source file is read in the encoding its compiler reads it in, checked against the
compilers themselves: ``compile()`` for a ``.py`` file, Cython's ``open_source_file`` for a
``.pyx`` (:mod:`errdex.source.cookies`)."""

from __future__ import annotations

import ast
from pathlib import Path

import pytest
from Cython.Utils import open_source_file

from errdex.source.reading import SourceSkip, read_source

BOM = b"\xef\xbb\xbf"
CASES = {
    "rot13": b"# coding: rot13\nx = 1\n",
    "hex": b"# coding: hex\nx = 1\n",
    "rot13_line2": b"\n# coding: rot13\nx = 1\n",
    "rot13_after_code": b"x = 1\r\n# coding: rot13\r\n",
    "misspelt": b"# coding: uft-8\nx = 1\n",
    "c_string_ascii": b"# cython: c_string_encoding=ascii\ny = '\xc3\xa9'\n",
    "c_string_default": b"# cython: c_string_encoding=default\ny = 1\n",
    "bom_latin": BOM + b"# coding: latin-1\nx = 1\n",
    "bom_utf8": BOM + b"# coding: utf-8\nx = '\xc3\xa9'\n",
    "bom_utf8_spelt_utf8": BOM + b"# coding: utf8\nx = 1\n",
    "latin_cr_only": b"# coding: latin-1\ry = '\xe9'\r",
    "latin_cr_line2": b"#!py\r# coding: latin-1\ry = '\xe9'\r",
    "latin_crlf": b"#!py\r\n# coding: latin-1\r\ny = '\xe9'\r\n",
    "latin_not_utf8_line1": b"# \xe9\n# coding: latin-1\ny = '\xe9'\n",
    "latin_valid_utf8": b"# coding: latin-1\ny = '\xc3\xa9'\n",
    "cookie_line3": b"\n\n# coding: latin-1\ny = '\xe9'\n",
    "cookie_after_code": b"x = 1\n# coding: latin-1\ny = '\xe9'\n",
    "no_cookie_latin": b"y = '\xe9'\n",
    "utf16": b"# coding: utf-16\nx = 1\n",
    "cp1252": b"# coding: cp1252\nx = '\x80'\n",
}


def _ours(path: Path) -> str | None:
    try:
        return read_source(path)
    except SourceSkip:
        return None


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_python_file_is_read_as_compile_reads_it(tmp_path: Path, name: str) -> None:
    """rot13/hex cookies made the scan crash (LookupError); a CR-only latin-1 file and a
    latin-1 file whose comment line 1 is not UTF-8 were skipped, though both import."""
    path = tmp_path / "m.py"
    path.write_bytes(CASES[name])
    try:
        expected: str | None = ast.dump(ast.parse(CASES[name]))
    except SyntaxError:
        expected = None
    text = _ours(path)
    assert (None if text is None else ast.dump(ast.parse(text))) == expected


@pytest.mark.parametrize("name", sorted(CASES))
def test_a_cython_file_is_read_as_cython_reads_it(tmp_path: Path, name: str) -> None:
    """Cython takes ``c_string_encoding=ascii`` for a directive, a BOM-led first line for
    code (so the file is UTF-8), and ends lines at a lone CR."""
    path = tmp_path / "m.pyx"
    path.write_bytes(CASES[name])
    try:
        with open_source_file(str(path)) as stream:
            expected: str | None = stream.read()
    except (LookupError, UnicodeError):
        expected = None
    text = _ours(path)
    assert (None if text is None else text.replace("\r\n", "\n")) == expected


def test_a_codec_that_is_no_text_encoding_is_a_reason_to_skip(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_bytes(CASES["rot13"])
    with pytest.raises(SourceSkip, match=r"Python refuses its encoding declaration .*rot13"):
        read_source(tmp_path / "m.py")


@pytest.mark.parametrize("name", sorted(CASES))
def test_the_copy_of_cythons_rule_agrees_with_cython(name: str) -> None:
    """The rule used where ``Cython.Utils`` lacks it is Cython's."""
    import io

    from Cython.Utils import detect_opened_file_encoding

    from errdex.source.cookies import _cython_rule

    data = CASES[name]
    assert _cython_rule(io.BytesIO(data)) == detect_opened_file_encoding(io.BytesIO(data))
