"""A C header read with what the file that includes it defines first (simplejson's
``_speedups.c`` defines the message macros and ``raise_errmsg``, then includes
``_speedups_scan.h``, whose calls use them)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.extract.c import extract
from errdex.extract.python.project import reading_repository

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
