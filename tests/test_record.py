"""Ids and the escaping of strings that UTF-8 cannot hold."""

from __future__ import annotations

import os
from pathlib import Path

from errdex.record import escape_surrogates, escaped_item, record_id


def test_record_id_of_a_lone_surrogate_is_that_of_its_escaped_text() -> None:
    assert record_id("o/n", "lone \ud800", "m.py") == record_id("o/n", "lone \\ud800", "m.py")
    assert record_id("o/n", "lone \ud800", "m.py") != record_id("o/n", "lone", "m.py")


def test_a_file_name_byte_that_is_not_utf8_is_escaped_as_a_byte() -> None:
    name = os.fsdecode(b"caf\xe9.py")
    assert escape_surrogates(name) == "caf\\xe9.py"
    assert record_id("o/n", "x", name) == record_id("o/n", "x", "caf\\xe9.py")


def test_plain_text_is_left_alone() -> None:
    for text in ("", "ascii", "café ✓ 😀"):
        assert escape_surrogates(text) == text


def test_escaped_item_reaches_every_string_and_the_pattern_matches_the_message() -> None:
    record = {"errorMessage": "a \ud800", "messagePattern": "a \ud800", "lineNumber": 3}
    evidence = {"site": {"template": [["lit", "a \ud800"]], "guards": []}, "n": None}
    new_record, new_evidence = escaped_item(record, evidence)
    assert new_record == {
        "errorMessage": "a \\ud800",
        "messagePattern": "a \\\\ud800",
        "lineNumber": 3,
    }
    assert new_evidence == {"site": {"template": [["lit", "a \\ud800"]], "guards": []}, "n": None}
    assert record["errorMessage"] == "a \ud800"  # the input is not changed


def test_an_item_with_nothing_to_escape_is_returned_as_it_is() -> None:
    record = {"errorMessage": "café", "messagePattern": "café", "tags": ["x"]}
    evidence = {"site": {"notes": ["ok"]}}
    new_record, new_evidence = escaped_item(record, evidence)
    assert new_record is record and new_evidence is evidence


def test_a_record_with_an_error_code_is_identified_by_its_code(
    tmp_path: Path,
) -> None:
    """DESIGN: ``id = sha256(repo, errorCode or errorMessage, filePath)``: a Node error code
    outlives rewordings of its message; sites sharing a code in one file are told apart
    by their qualname, as sites sharing a message are."""
    from errdex.scan import scan_checkout
    from errdex.source import open_source

    root = tmp_path
    (root / "lib").mkdir()
    (root / "lib" / "opts.js").write_text(
        "function check(value) {\n"
        "  if (typeof value !== 'string') {\n"
        "    const err = new TypeError('The \"value\" argument must be a string');\n"
        "    err.code = 'ERR_INVALID_ARG_TYPE';\n"
        "    throw err;\n"
        "  }\n"
        "}\n"
        "function other(n) {\n"
        "  const err = new TypeError('The \"n\" argument must be a number');\n"
        "  err.code = 'ERR_INVALID_ARG_TYPE';\n"
        "  throw err;\n"
        "}\n"
        "function plain() { throw new Error('no code here'); }\n"
    )
    result = scan_checkout(open_source(str(root), repo="o/n"), repo="o/n")
    records = {r["errorMessage"]: r for r, _ in result.items}
    coded = [r for r in records.values() if r["errorCode"] == "ERR_INVALID_ARG_TYPE"]
    assert len(coded) == 2, records
    by_function = {r["errorMessage"].split('"')[1]: r for r in coded}
    assert by_function["value"]["id"] == record_id(
        "o/n", "ERR_INVALID_ARG_TYPE", "lib/opts.js", "check"
    )
    assert by_function["n"]["id"] == record_id(
        "o/n", "ERR_INVALID_ARG_TYPE", "lib/opts.js", "other"
    )
    assert records["no code here"]["id"] == record_id("o/n", "no code here", "lib/opts.js")
