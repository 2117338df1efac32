"""A parameter named like a builtin (``TarInfo.tobuf(format=…)``, run on CPython 3.11:
``TarInfo("a").tobuf(format=9)`` raises ``ValueError("invalid format")``) is the
caller's value in the condition, not the builtin: errdex said "found no fix" there."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
USTAR_FORMAT = 0
GNU_FORMAT = 1


def tobuf(format=GNU_FORMAT):
    if format == USTAR_FORMAT:
        return b"u"
    elif format == GNU_FORMAT:
        return b"g"
    else:
        raise ValueError("invalid format")


def pick(type):
    if type not in ("a", "b"):
        raise ValueError("bad kind")
    return type
"""


def test_a_parameter_that_shadows_a_builtin_is_what_to_pass(tmp_path: Path) -> None:
    found = {r["lineNumber"]: r["solutions"] for r, _ in one_file_items(tmp_path, "m.py", SOURCE)}
    assert found[12][0].startswith(
        "Pass `format` to `tobuf()` as `USTAR_FORMAT` or `GNU_FORMAT`: `format` reaches the "
        "check unchanged"
    )
    assert found[17][0].startswith("Pass `type` to `pick()` as one of `'a'` or `'b'`")
