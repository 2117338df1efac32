"""The store-level check: one record id per raise site."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.store.integrity import DuplicateSiteError, check_one_record_per_site

SHA = "a" * 40


def item(rid: str, line: int, message: str = "boom", cls: str | None = "ValueError") -> Any:
    record = {
        "id": rid,
        "repo": "o/n",
        "analyzedSha": SHA,
        "filePath": "m.py",
        "lineNumber": line,
        "errorClass": cls,
        "errorMessage": message,
    }
    return record, {}


def test_distinct_sites_pass() -> None:
    check_one_record_per_site(
        [
            item("1" * 16, 2),
            item("2" * 16, 3),
            item("3" * 16, 2, "other"),
            item("4" * 16, 2, cls=None),
        ]
    )


def test_the_same_id_twice_is_one_record_not_a_duplicate_site() -> None:
    check_one_record_per_site([item("1" * 16, 2), item("1" * 16, 2)])


def test_two_ids_for_one_site_fail_loudly_naming_the_site() -> None:
    with pytest.raises(DuplicateSiteError) as caught:
        check_one_record_per_site([item("1" * 16, 2), item("2" * 16, 2), item("3" * 16, 9)])
    message = str(caught.value)
    assert "1 raise site(s)" in message
    assert f"m.py:2 ValueError: 'boom' has ids {'1' * 16}, {'2' * 16}" in message
