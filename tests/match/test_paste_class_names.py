"""``Class: message`` pasted alone, for classes named as Python prints them though they do
not start with a capital: a private class (``pkg._RequiredKeyError``) and a module's
lower-case error (``re.error``, ``ftplib.error_proto``), with their module."""

from __future__ import annotations

import pytest

from errdex.match.paste import parse_paste


@pytest.mark.parametrize(
    "line",
    [
        "packaging.pylock._PylockRequiredKeyError: Missing required value in 'url'",
        "ftplib.error_proto: 227 nothing here",
        "re.error: missing ), unterminated subpattern at position 0",
        "_csv.Error: line contains NUL",
    ],
)
def test_a_module_qualified_class_is_read_though_not_capitalised(line: str) -> None:
    (error,) = parse_paste(line)
    assert error.error_class == line.split(": ", 1)[0]
    assert error.message == line.split(": ", 1)[1]


@pytest.mark.parametrize(
    "line",
    ["config.yaml: missing key", "e.g: a sentence", "notes.txt: see below", "Note: this is prose"],
)
def test_prose_and_file_names_are_still_no_error(line: str) -> None:
    assert parse_paste(line) == []
