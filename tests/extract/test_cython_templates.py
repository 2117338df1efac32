"""Tempita templates rendered as the build renders them, and a scan of Cython files."""

from __future__ import annotations

import re
import textwrap
from pathlib import Path

import pytest

from errdex.extract.cython import extract_cython
from errdex.extract.registry import ExtractError
from errdex.scan import scan_checkout
from errdex.source import open_source

HASHTABLE = textwrap.dedent(
    """\
    {{py:

    # name, dtype
    dtypes = [('Int64', 'int64'),
              ('Float64', 'float64')]
    }}

    {{for name, dtype in dtypes}}

    cdef class {{name}}HashTable:

        def get_item(self, {{dtype}}_t val):
            if val not in self.table:
                raise KeyError(val)
            raise ValueError("{{dtype}} table is full")

    {{endfor}}
    """
)


def _rendered() -> list[str]:
    from Cython import Tempita

    return str(Tempita.sub(HASHTABLE)).splitlines()


def test_template_sites_point_at_the_rendered_lines() -> None:
    sites = extract_cython(HASHTABLE, "pandas/_libs/hashtable_class_helper.pxi.in")
    rendered = _rendered()
    assert len(sites) == 4
    for site in sites:
        assert "raise" in rendered[site.line - 1]
    full = [s for s in sites if s.error_class == "ValueError"]
    assert [s.template.display for s in full] == ["int64 table is full", "float64 table is full"]
    assert [s.qualname for s in full] == [
        "pandas._libs.hashtable_class_helper.Int64HashTable.get_item",
        "pandas._libs.hashtable_class_helper.Float64HashTable.get_item",
    ]
    template_line = next(
        n for n, line in enumerate(HASHTABLE.splitlines(), 1) if "table is full" in line
    )
    for site in full:
        assert any(
            f"hashtable_class_helper.pxi.in line {template_line} " in note for note in site.notes
        ), site.notes
        assert any(f"line {site.line} of the rendered file" in note for note in site.notes)


def test_a_template_needing_build_names_is_refused_saying_which() -> None:
    text = "{{for dtype in dtypes_from_meson}}\nraise ValueError('{{dtype}}')\n{{endfor}}\n"
    with pytest.raises(ExtractError, match="needs dtypes_from_meson, a name the build passes in"):
        extract_cython(text, "pkg/gen.pyx.in")


def test_a_template_cannot_reach_files_or_imports(tmp_path: Path) -> None:
    target = tmp_path / "written"
    with pytest.raises(ExtractError):
        extract_cython(f"{{{{py: open({str(target)!r}, 'w')}}}}\nraise X\n", "pkg/a.pyx.in")
    with pytest.raises(ExtractError, match="import"):
        extract_cython("{{py: import os}}\nraise X\n", "pkg/b.pyx.in")
    assert not target.exists()


def test_scan_catalogues_cython_beside_python(tmp_path: Path) -> None:
    pkg = tmp_path / "fastpkg"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("def load(x):\n    raise ValueError('python side')\n")
    (pkg / "_speedups.pyx").write_text(
        "cdef class Parser:\n"
        "    cpdef parse(self, bytes data):\n"
        "        if not data:\n"
        "            raise ValueError(f'empty input: {data!r}')\n"
    )
    (pkg / "_tables.pxi.in").write_text(HASHTABLE)
    (pkg / "broken.pyx").write_text("def f(:\n    raise ValueError('x')\n")
    (pkg / "test_speedups.pyx").write_text("def test():\n    raise AssertionError('t')\n")
    checkout = open_source(str(tmp_path), repo="example/fastpkg", sha="0" * 40)
    result = scan_checkout(checkout, repo="example/fastpkg", analyze=False)
    by_file: dict[str, list[dict[str, object]]] = {}
    for record, evidence in result.items:
        by_file.setdefault(str(record["filePath"]), []).append(
            {**record, "language": evidence["site"]["language"]}
        )
    assert sorted(by_file) == [
        "fastpkg/__init__.py",
        "fastpkg/_speedups.pyx",
        "fastpkg/_tables.pxi.in",
    ]
    # the raise, and the errors of cpdef parse()'s generated argument parsing (line 2)
    speedup, *generated = sorted(by_file["fastpkg/_speedups.pyx"], key=lambda r: -r["lineNumber"])
    assert sorted(str(r["errorMessage"]) for r in generated) == [
        "Argument 'data' has incorrect type (expected bytes, got {type})",
        "parse() got an unexpected keyword argument '{kw}'",
        "parse() got multiple values for keyword argument '{kw}'",
        "parse() takes exactly 1 positional argument ({given} given)",
    ]
    assert {r["lineNumber"] for r in generated} == {2}
    assert (speedup["lineNumber"], speedup["errorMessage"], speedup["language"]) == (
        4,
        "empty input: {data!r}",
        "cython",
    )
    assert re.search(str(speedup["messagePattern"]), "empty input: b''")
    # four raises, and the three generated argument errors of each get_item rendered
    assert len(by_file["fastpkg/_tables.pxi.in"]) == 4 + 2 * 3
    skipped = dict(result.skipped)
    assert "line 1, column 6" in skipped["fastpkg/broken.pyx"]


def test_a_template_records_window_shows_the_template_line(tmp_path: Path) -> None:
    """lineNumber is the rendered line (what tracebacks print); the window and the
    permalink show the template's own line, which is what the repository holds."""
    (tmp_path / "_tables.pxi.in").write_text(HASHTABLE)
    checkout = open_source(str(tmp_path), repo="example/tables", sha="a" * 40)
    result = scan_checkout(checkout, repo="example/tables", analyze=False)
    template_line = next(
        n for n, line in enumerate(HASHTABLE.splitlines(), 1) if "table is full" in line
    )
    full = [(r, e) for r, e in result.items if r["errorClass"] == "ValueError"]
    assert len(full) == 2
    for record, evidence in full:
        assert record["lineNumber"] != template_line  # the rendered file's line
        assert evidence["site"]["sourceLine"] == template_line
        start, end = record["sourceCodeStart"], record["sourceCodeEnd"]
        assert start <= template_line <= end
        shown = record["sourceCode"].splitlines()[template_line - start]
        assert 'raise ValueError("{{dtype}} table is full")' in shown


def test_a_rendered_template_gives_the_argument_errors_of_its_functions() -> None:
    """Each function the template renders has its generated argument errors at its
    rendered ``def`` line (the line a traceback prints), noting the template's line."""
    sites = extract_cython(HASHTABLE, "pandas/_libs/hashtable_class_helper.pxi.in", arguments=True)
    rendered = _rendered()
    generated = [s for s in sites if s.style == "cython_arguments"]
    by_class = {
        (s.qualname.rsplit(".", 2)[-2], s.template.display)
        for s in generated
        if "positional" in s.template.display
    }
    assert by_class == {
        ("Int64HashTable", "get_item() takes exactly 1 positional argument ({given} given)"),
        ("Float64HashTable", "get_item() takes exactly 1 positional argument ({given} given)"),
    }
    template_line = next(
        n for n, line in enumerate(HASHTABLE.splitlines(), 1) if "def get_item" in line
    )
    for site in generated:
        assert rendered[site.line - 1].strip().startswith("def get_item(self, ")
        assert site.source_line == template_line
        assert f"hashtable_class_helper.pxi.in line {template_line}" in site.notes[-1]
