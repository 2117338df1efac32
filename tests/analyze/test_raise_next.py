"""A switch whose other value only reaches the next ``raise`` is no way out
(``socket.create_connection``'s ``all_errors``: blind review stop 37, record 41, false;
run: ``all_errors=True`` raised ``ExceptionGroup``)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
def create_connection(address, *, all_errors=False):
    exceptions = connect(address)
    if len(exceptions):
        if not all_errors:
            raise exceptions[0]
        raise ExceptionGroup("create_connection failed", exceptions)


def fetch(url, *, strict=False):
    errors = get(url)
    if errors:
        if strict:
            raise ValueError("bad url")
        return None


def convert(value):
    if isinstance(value, int):
        return value
    if isinstance(value, float):
        raise TypeError("no floats")
    raise TypeError("cannot convert")
"""


def test_a_switch_into_the_next_raise_is_not_offered(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "m.py", SOURCE)
    found = {r["lineNumber"]: r["solutions"] for r, _ in items}
    assert not any("all_errors" in text for text in found[6])
    assert any("`strict`" in text for text in found[14])  # its other value returns
    # ``Decimal(value)``: no flag; an ``int`` returns before the ``float`` test that the
    # final ``raise`` follows, so "anything but a float" still holds for the caller
    (floats,) = [r["solutions"] for r, _ in items if r["errorMessage"] == "no floats"]
    assert floats[0].startswith("Pass `value` to `convert()`")


SINGLE = """
def single(x, *, all_errors=False):
    if not all_errors:
        raise ValueError("only one")
    raise ExceptionGroup("many", [])
"""


def test_no_tip_negates_a_switch_into_the_next_raise(tmp_path: Path) -> None:
    """The tip follows the solutions' decision: "check `all_errors` before calling"
    would lead into the ``ExceptionGroup`` as "pass all_errors as true" does."""
    (record,) = [r for r, _ in one_file_items(tmp_path, "m.py", SINGLE) if r["lineNumber"] == 4]
    assert not any("all_errors" in text for text in record["solutions"])
    assert not any("all_errors" in tip for tip in record.get("preventionTips") or [])
