"""Solutions say what to pass in words, and drop the message's requirement restated."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import Item, one_file_items

SOURCE = """
def pool(workers=None):
    if workers is None:
        return 4
    if workers <= 0:
        raise ValueError("workers must be > 0")
    elif workers > limit():
        raise ValueError("workers above the limit")
    return workers

import sys


def read_header(path):
    data = read_bytes(path)
    if data[:2] != b"PK":
        raise OSError("not an archive we can read")
    return data


def main():
    read_header(sys.argv[1])


def check_calls(calls, any_order=False):
    seen = list(calls)
    if not any_order and seen != sorted(seen):
        raise AssertionError("calls not in order")


def put(item, block=True):
    full = len(item) > 9
    if not block and full:
        raise OverflowError("Full")
class Pool:
    def __init__(self, size, timeout=None):
        if not isinstance(timeout, (int, float)):
            raise TypeError("timeout must be a number")
        if size < 0:
            raise ValueError("size must be non-negative")
        self._items = {}

    def take(self, key):
        if key not in self._items:
            raise KeyError(key)
        return self._items[key]


def pick(items, mode="r", a=None, b=None):
    if not items:
        raise ValueError("no items")
    if mode not in ("r", "w"):
        raise ValueError("bad mode")
    if a is not None and b is not None:
        raise TypeError("a and b must not both be given")
    return _check(items)


def load(path, mode="r"):
    try:
        data = read_bytes(path)
    except OSError:
        if mode == "r":
            raise ValueError("not readable")
        raise
    return data


def fetch(url, retry=None):
    rows = read_bytes(url)
    if retry is not None and rows is None:
        raise ValueError("nothing fetched for a retry")
    if retry is None and not rows:
        raise ValueError("the server sent nothing")
    if retry is not None and len(rows) > 9:
        raise OSError("connection reset for a retry")
    return rows


def make_id(fields=None):
    if fields is not None:
        low, high = fields
        if not 0 <= high < 65536:
            raise ValueError("field 2 out of range")
    return fields


def salt(rounds=None):
    kind = read_bytes("method")
    if kind == "sha":
        if not 1000 <= rounds <= 9999:
            raise ValueError("rounds out of range")
    return kind


def _check(rows):
    if len(rows) > 3:
        raise ValueError("too many rows")
    return rows
"""


def _items(tmp_path: Path) -> list[Item]:
    return one_file_items(tmp_path, "m.py", SOURCE)


def _solutions(items: list[Item], message: str) -> list[str]:
    found = [r["solutions"] for r, _ in items if r["errorMessage"] == message]
    assert len(found) == 1, message
    return found[0]


def test_type_and_bound_in_words(tmp_path: Path) -> None:
    items = _items(tmp_path)
    assert _solutions(items, "timeout must be a number") == [
        "Pass `timeout` to `Pool()` as an instance of `int` or `float`: `timeout` reaches "
        "the check unchanged, and the call raises `TypeError` when "
        "`not isinstance(timeout, (int, float))`."
    ]
    assert _solutions(items, "size must be non-negative")[0].startswith(
        "Pass `size` to `Pool()` as a non-negative value: "
    )


def test_through_a_private_helper_in_the_entry_points_name(tmp_path: Path) -> None:
    (text,) = _solutions(_items(tmp_path), "too many rows")
    assert text.startswith("Pass `items` to `pick()` as a value of length at most `3`: ")
    assert "rows" not in text.split(":")[0]  # the helper's own name stays out of the fix


def test_membership_emptiness_and_exclusive_arguments(tmp_path: Path) -> None:
    items = _items(tmp_path)
    assert _solutions(items, "bad mode")[0].startswith(
        "Pass `mode` to `pick()` as one of `'r'` or `'w'`: "
    )
    assert _solutions(items, "no items")[0].startswith(
        "Pass `items` to `pick()` as a true value (not empty, zero, `None` or `False`): "
    )
    assert _solutions(items, "a and b must not both be given") == [
        "Pass at most one of `a` and `b` to `pick()` (leave the other `None`): `a` and `b` "
        "reach the check unchanged, and the call raises `TypeError` when "
        "`a is not None and b is not None`."
    ]
    (text,) = _solutions(items, "{key}")  # over private state: no requirement to pass
    assert not text.startswith("Pass"), text
    assert "_items" not in text


def test_a_condition_that_only_picks_what_a_caught_error_becomes_is_no_fix(
    tmp_path: Path,
) -> None:
    for text in _solutions(_items(tmp_path), "not readable"):
        assert "`mode`" not in text, text


def test_a_parameter_among_other_conditions_is_one_way_out(tmp_path: Path) -> None:
    # the innermost test reads the parameter: passing a value it accepts avoids the raise
    (text,) = _solutions(_items(tmp_path), "rounds out of range")
    assert text.startswith(
        "One way out, where the call allows it: pass `rounds` to `salt()` as a value of at "
        "least `1000` and at most `9999`: "
    ), text


def test_a_condition_that_selects_the_branch_is_no_way_out(tmp_path: Path) -> None:
    """Blind review 2026-12-06 (records 09, 13, 20): "pass `fields` so that `fields is
    None` holds" for ``UUID(fields=...)`` negates the outer test that selects the branch,
    not the range test that fails inside it: it tells the caller to stop using
    ``fields``. Nor a parameter that stands before the failing test in the same
    condition (``retry is not None and rows is None``), which may select too."""
    items = _items(tmp_path)
    for message in (
        "field 2 out of range",
        "nothing fetched for a retry",
        "the server sent nothing",
        "connection reset for a retry",
    ):
        for text in _solutions(items, message):
            assert "`fields`" not in text and "`retry`" not in text, text
    (tips,) = [r["preventionTips"] for r, _ in items if r["errorMessage"] == "field 2 out of range"]
    assert not any("fields is None" in t for t in tips), tips


def test_a_flag_among_other_conditions_is_one_way_out(tmp_path: Path) -> None:
    items = _items(tmp_path)
    (text,) = _solutions(items, "Full")
    assert text.startswith(
        "One way out, where the call allows it: pass `block` to `put()` as a true value"
    ), text
    for text in _solutions(items, "calls not in order"):  # no loosening a failed check
        assert "any_order" not in text, text


def test_no_catch_around_a_command_line_main(tmp_path: Path) -> None:
    (text,) = _solutions(_items(tmp_path), "not an archive we can read")
    assert "around the call to `read_header()`" in text, text


def test_no_way_out_through_the_branch_before_that_raises(tmp_path: Path) -> None:
    items = _items(tmp_path)
    for text in _solutions(items, "workers above the limit"):
        assert "`workers`" not in text, text  # "at most 0" raises "workers must be > 0"
    (text,) = _solutions(items, "workers must be > 0")
    assert text.startswith("Pass `workers` to `pool()` as a positive value: "), text
