"""The C extractor on real extension sources, scanned end to end: simplejson's and
ujson's C speedups and pybind11's own test suite (a real pybind11 corpus)."""

from __future__ import annotations

from collections import Counter
from pathlib import Path

import pytest

from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

from ._c_sdists import sdist

SHA = "1234567890abcdef1234567890abcdef12345678"


def _scan(root: Path, repo: str, include: list[str] | None = None) -> list[dict]:  # type: ignore[type-arg]
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo, include=include or [], read_tests=bool(include))
    assert not [s for s in result.skipped if s[0].endswith((".c", ".cpp", ".h"))], result.skipped
    return [record for record, _ in result.items]


def test_simplejson_speedups_scanned_end_to_end(tmp_path: Path) -> None:
    root = sdist("simplejson")
    records = [r for r in _scan(root, "simplejson/simplejson") if r["filePath"].endswith(".c")]
    by_message = {r["errorMessage"]: r for r in records}
    # sites read from simplejson/_speedups.c, checked by hand against the file
    key = by_message["keys must be str, int, float, bool or None, not %.100s"]
    assert (key["errorClass"], key["filePath"]) == ("TypeError", "simplejson/_speedups.c")
    source = (root / key["filePath"]).read_text().splitlines()
    assert "PyErr_Format" in source[key["lineNumber"] - 1]
    assert "Circular reference detected" in by_message
    assert "scanstring() takes at least 2 arguments (%zd given)" in by_message
    # PyArg_ParseTupleAndKeywords with its kwlist, read inside a region tree-sitter
    # could not parse (scanner_call's ``#if``), from the declaration just before the call
    missing = by_message["scan_once() missing required argument 'idx' (pos 2)"]
    assert "PyArg_ParseTupleAndKeywords" in source[missing["lineNumber"] - 1]
    assert "make_scanner() missing required argument 'context' (pos 1)" in by_message
    assert all(r["errorType"] == "exception" for r in records)
    with SqliteStore(tmp_path / "c.db") as store:
        checkout = open_source(str(root), repo="simplejson/simplejson", sha=SHA)
        result = scan_checkout(checkout, repo="simplejson/simplejson")
        store_scan(store, checkout, "simplejson/simplejson", result, "2026-12-01T00:00:00.000Z")
        envelope = store.get(key["id"])
    assert envelope is not None
    site = envelope["evidence"]["site"]
    assert site["language"] == "c" and site["kind"] == "set"
    assert site["function"] == "encoder_stringify_key"
    assert any("raised in C" in n for n in site["notes"])


def test_ujson_sources_scanned_end_to_end() -> None:
    records = _scan(sdist("ujson"), "ultrajson/ultrajson")
    c_records = [
        r
        for r in records
        if r["filePath"].startswith("src/ujson/") and r["filePath"].endswith(".c")
    ]
    messages = {r["errorMessage"] for r in c_records}
    assert {
        "Maximum allowed indentation is 1000",
        "Expected string, bytes, or bytearray",
    } <= messages
    assert len(c_records) >= 15
    # the decoder's texts, stored in ds->errorStr by SetError() and raised once as "%s"
    stored = {r["errorMessage"] for r in c_records if r["filePath"] == "src/ujson/decode.c"}
    assert {
        "Key name of object must be 'string' when decoding 'object'",
        "Unexpected character in found when decoding object value",
        "Trailing data",
    } <= stored


def test_pybind11_tests_corpus() -> None:
    root = sdist("pybind11")
    records = _scan(root, "pybind11/pybind11", include=["tests/**", "include/**"])
    cpp = [r for r in records if r["filePath"].endswith((".cpp", ".h"))]
    classes = Counter(r["errorClass"] for r in cpp)
    assert len(cpp) > 200
    # pybind11's tests throw every translated std:: class; each is seen under its Python name
    for cls in (
        "ValueError",
        "IndexError",
        "RuntimeError",
        "TypeError",
        "KeyError",
        "OverflowError",
    ):
        assert classes[cls] > 0, classes
    by_message = {(r["filePath"], r["errorMessage"]): r for r in cpp}
    # tests/test_exceptions.cpp: m.def("throws1", []() { throw MyException("this error should go to py::exception<MyException>"); });
    assert any(m.startswith("this error should go to") for _, m in by_message), sorted(by_message)[
        :5
    ]
    assert not any(
        "error_already_set" in r["sourceCode"].splitlines()[r["lineNumber"] - r["sourceCodeStart"]]
        for r in cpp
    )


@pytest.mark.parametrize("name", ["markupsafe"])
def test_a_c_file_without_error_sites_gives_none(name: str) -> None:
    records = _scan(sdist(name), "pallets/markupsafe")
    assert not [r for r in records if r["filePath"].endswith(".c")]


def test_simplejson_scan_header_takes_the_macros_and_helper_of_speedups_c() -> None:
    """``_speedups_scan.h`` is #included by ``_speedups.c``, which defines the ``ERR_*``
    message macros and ``raise_errmsg``: every call of it in the header is a site."""
    root = sdist("simplejson")
    header = "simplejson/_speedups_scan.h"
    records = [r for r in _scan(root, "simplejson/simplejson") if r["filePath"] == header]
    calls = [
        n
        for n, text in enumerate((root / header).read_text().splitlines(), 1)
        if "raise_errmsg(" in text
    ]
    assert sorted({r["lineNumber"] for r in records}) == calls
    assert {r["errorClass"] for r in records} == {"JSONDecodeError"}
    messages = {r["errorMessage"] for r in records}
    assert {"Expecting value", "Expecting ',' delimiter or ']'", "Expecting ':' delimiter"} <= (
        messages
    )
