"""A C header read with what the file that includes it defines first (simplejson's
``_speedups.c`` defines the message macros and ``raise_errmsg``, then includes
``_speedups_scan.h``, whose calls use them)."""

from __future__ import annotations

import os
import textwrap
from pathlib import Path

from errdex.extract.c import extract
from errdex.extract.python.project import reading_repository
from errdex.scan import scan_checkout
from errdex.scan_cache import ScanCache
from errdex.source import open_source

from .test_c import HELPER

#: simplejson's shape: message macros and ``raise_errmsg`` (test_c's fixture), then more
#: macros and the ``#include``, then a macro defined too late for the header.
INCLUDER = (
    '#include "Python.h"\n'
    + HELPER
    + textwrap.dedent(
        r"""
        #define ERR_ARRAY_DELIMITER "Expecting ',' delimiter or ']'"
        static PyObject *ScanError;

        #define JSON_SCAN_SUFFIX _unicode
        #include "scan.h"
        #undef JSON_SCAN_SUFFIX
        #define ERR_DEFINED_AFTER "defined after the include"

        PyMODINIT_FUNC init(void) { ScanError = PyErr_NewException("pkg.ScanError", NULL, NULL); }
        """
    )
)
HEADER = textwrap.dedent(
    r"""
    /* included by speedups.c, which defines the macros and raise_errmsg */
    static PyObject *
    scan_array(_state *state, PyObject *pystr, Py_ssize_t idx, int did_parse)
    {
        if (idx < 0) {
            raise_errmsg(state, ERR_EXPECTING_VALUE, pystr, idx);
            return NULL;
        }
        if (idx > 10) {
            raise_errmsg(state,
                         did_parse ? ERR_ARRAY_DELIMITER : ERR_EXPECTING_VALUE,
                         pystr, idx);
            return NULL;
        }
        if (idx > 20)
            raise_errmsg(state, ERR_DEFINED_AFTER, pystr, idx);
        PyErr_SetString(ScanError, "scanner ran out");
        return NULL;
    }
    """
)


def _tree(tmp_path: Path, includer: str = INCLUDER) -> Path:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "speedups.c").write_text(includer)
    (tmp_path / "pkg" / "scan.h").write_text(HEADER)
    (tmp_path / "pkg" / "other.c").write_text('#include "unrelated.h"\n')
    return tmp_path


def test_a_header_takes_the_includers_macros_helpers_and_exception_variables(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    with reading_repository(root) as project:
        sites = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
        read = project.files_read("pkg/scan.h")
    found = [(s.line, s.error_class, s.qualified_class, s.template.display) for s in sites]
    assert found == [
        (7, "JSONDecodeError", None, "Expecting value"),
        (11, "JSONDecodeError", None, "Expecting ',' delimiter or ']'"),
        (11, "JSONDecodeError", None, "Expecting value"),
        (18, "ScanError", "pkg.ScanError", "scanner ran out"),
    ]
    # a macro defined below the #include does not reach the header: no site from it
    assert all("after the include" not in s.template.display for s in sites)
    assert any("defined in pkg/speedups.c, which includes this file" in n for n in sites[0].notes)
    assert {s.file_path for s in sites} == {"pkg/scan.h"}
    # the scan cache learns the header's sites depend on the C files looked at
    assert read == {"pkg/other.c", "pkg/speedups.c"}


def test_a_header_read_alone_or_not_included_keeps_only_its_own_sites(tmp_path: Path) -> None:
    alone = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
    assert [(s.line, s.error_class) for s in alone] == [(18, "ScanError")]
    root = _tree(tmp_path, INCLUDER.replace('#include "scan.h"', '#include "elsewhere.h"'))
    with reading_repository(root):
        sites = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
    assert [(s.line, s.error_class, s.qualified_class) for s in sites] == [(18, "ScanError", None)]


def _age(root: Path) -> None:
    """Date every file a minute back, as files are before an edit (not "racy")."""
    past = (os.stat(root).st_mtime_ns // 1_000_000_000 - 60) * 1_000_000_000
    for path in root.rglob("*"):
        os.utime(path, ns=(past, past))


def _header_messages(root: Path) -> set[str]:
    with ScanCache() as cache:
        checkout = open_source(str(root), repo="owner/proj", sha="0" * 40)
        result = scan_checkout(checkout, repo="owner/proj", cache=cache)
    return {r["errorMessage"] for r, _ in result.items if r["filePath"] == "pkg/scan.h"}


def test_a_scan_rereads_the_header_when_its_includer_changes(tmp_path: Path) -> None:
    """The scan cache keeps a header's sites only while the C files it was read with
    stay as they were: a message macro edited in the includer reaches the header."""
    root = _tree(tmp_path)
    _age(root)
    assert "Expecting value" in _header_messages(root)
    (root / "pkg" / "speedups.c").write_text(INCLUDER.replace("Expecting value", "Wanted a value"))
    after = _header_messages(root)
    assert "Wanted a value" in after and "Expecting value" not in after


def test_a_header_read_with_its_includer_builds_into_the_includers_module(
    tmp_path: Path,
) -> None:
    root = _tree(tmp_path)
    with reading_repository(root):
        sites = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
    assert {s.module for s in sites} == {"pkg.speedups"}
    assert sites[0].evidence()["module"] == "pkg.speedups"
    alone = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
    assert [s.module for s in alone] == [None]


def test_a_header_several_files_include_builds_into_each_ones_module(tmp_path: Path) -> None:
    root = _tree(tmp_path)
    (root / "pkg" / "fast.c").write_text(INCLUDER)
    with reading_repository(root) as project:
        sites = extract(HEADER, "pkg/scan.h", HEADER.splitlines())
        read = project.files_read("pkg/scan.h")
    assert {"pkg/fast.c", "pkg/speedups.c"} <= read  # an edit to either changes them
    assert {(s.module, s.also_modules) for s in sites} == {("pkg.fast", ("pkg.speedups",))}
    assert sites[0].evidence()["alsoModules"] == ["pkg.speedups"]
