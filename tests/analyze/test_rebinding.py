"""A guard over a name bound again before the raise is not stated as its trigger
(issue 10: guards read literally, without reassignments)."""

from __future__ import annotations

import shutil
import sysconfig
from pathlib import Path
from typing import Any

from errdex.scan import scan_checkout
from errdex.source import open_source


def _records(tmp_path: Path, name: str) -> list[dict[str, Any]]:
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    shutil.copy(stdlib / name, tmp_path / name)
    result = scan_checkout(open_source(str(tmp_path), repo="o/std"), repo="o/std")
    return [r for r, _ in result.items]


def _by_message(records: list[dict[str, Any]], message: str) -> dict[str, Any]:
    (record,) = [r for r in records if r["errorMessage"] == message]
    return record


def test_a_name_rebound_after_its_test_drops_that_guard(tmp_path: Path) -> None:
    """``_pyio.FileIO.__init__``: ``if fd < 0:`` (a file name was given), then
    ``fd = opener(file, flags)``; the opener's result is checked on its own."""
    records = _records(tmp_path, "_pyio.py")
    record = _by_message(records, "expected integer from opener")
    trigger = record["triggerScenarios"]
    assert "`fd < 0`" not in trigger, trigger
    assert "not isinstance(fd, int)" in trigger
    # a guard tested after the rebinding stays
    negative = _by_message(records, "Negative file descriptor")
    assert "fd < 0" in negative["triggerScenarios"]
    assert negative["triggerScenarios"].count("fd < 0") == 1, negative["triggerScenarios"]
    # a guard whose names are not rebound stays
    closefd = _by_message(records, "Cannot use closefd=False with file name")
    assert "fd < 0" in closefd["triggerScenarios"]


REBOUND = """\
def buffered(size=None):
    if size is None:
        size = -1
    if not isinstance(size, int):
        raise TypeError("size must be an integer")
    return size


def sized(size):
    if not isinstance(size, int):
        raise TypeError("the size must be an integer")
    return size


def seeded(a=None):
    if isinstance(a, str):
        a = len(a)
    elif not isinstance(a, (type(None), int)):
        raise TypeError("the seed must be None, an int or a str")
    return a


def looped(items, size=None):
    if size is not None:
        for item in items:
            if item:
                size = None
            else:
                raise ValueError("a looped item is empty")
    return size


def clipped(limit=None):
    if limit is None:
        limit = 10
    if limit < 0:
        raise ValueError("the limit must not be negative")
    return limit
"""


def test_code_for_the_caller_names_no_parameter_rebound_before_the_raise(tmp_path: Path) -> None:
    """``subprocess.Popen``: ``if bufsize is None: bufsize = -1`` runs before ``if not
    isinstance(bufsize, int): raise TypeError``, so ``bufsize=None`` does not raise (blind
    review 2026-12-04, record 39): no type guard or check is written over ``bufsize``."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text(REBOUND)
    result = scan_checkout(open_source(str(tmp_path), repo="o/reb"), repo="o/reb")
    records = [r for r, _ in result.items]
    assert _by_message(records, "size must be an integer")["typeGuard"] is None
    assert "isinstance(size, int)" in (
        _by_message(records, "the size must be an integer")["typeGuard"] or ""
    )
    # bound only in the branch the raise's ``elif`` skips: the caller's value reaches it
    seeded = _by_message(records, "the seed must be None, an int or a str")["typeGuard"]
    assert "not isinstance(a, (type(None), int))" in (seeded or ""), seeded
    # bound in a skipped branch of an earlier round of the loop: it may reach the raise
    looped = _by_message(records, "a looped item is empty")["triggerScenarios"]
    assert "size is not None" not in looped and "not item" in looped, looped
    scaffolds = [
        e.get("provenance", {}).get("validationCode", {}).get("scaffold")
        for r, e in result.items
        if r["errorMessage"] == "the limit must not be negative"
    ]
    clipped = _by_message(records, "the limit must not be negative")
    assert clipped["validationCode"] is None and scaffolds == [None], scaffolds


def test_popen_states_no_type_guard_over_bufsize(tmp_path: Path) -> None:
    records = _records(tmp_path, "subprocess.py")
    record = _by_message(records, "bufsize must be an integer")
    assert record["typeGuard"] is None, record["typeGuard"]


def test_random_seed_keeps_its_type_guard(tmp_path: Path) -> None:
    """``a`` is bound only in the ``if``/``elif`` bodies before ``elif not isinstance(a,
    (type(None), int, float, str, bytes, bytearray)): raise TypeError``: on no path to
    the raise, so the guards of the branches it skips still hold there."""
    records = _records(tmp_path, "random.py")
    record = _by_message(
        records,
        "The only supported seed types are: None,\nint, float, str, bytes, and bytearray.",
    )
    assert "isinstance(a, (type(None), int, float, str, bytes, bytearray))" in (
        record["typeGuard"] or ""
    ), record["typeGuard"]
    assert "not (version == 1 and isinstance(a, (str, bytes)))" in record["triggerScenarios"]


ALONE = """\
import warnings


class Error(ValueError):
    pass


def skip_until(src, pos, expect, *, error_on):
    new_pos = src.find(expect, pos)
    if not error_on.isdisjoint(src[pos:new_pos]):
        while src[pos] not in error_on:
            pos += 1
        raise Error("Found an invalid character")
    return new_pos


def findall(path):
    if path[:1] == "/":
        path = "." + path
        warnings.warn("a search from the root is broken", FutureWarning, stacklevel=2)
    return path
"""


def test_a_guard_over_a_name_rebound_later_is_kept_when_nothing_reads_it_again(
    tmp_path: Path,
) -> None:
    """``tomllib``'s ``skip_until`` binds ``pos`` again in a loop after ``if not
    error_on.isdisjoint(src[pos:new_pos]):``, ``ElementTree.findall`` binds ``path``
    after ``if path[:1] == "/":``: the test is still what the raise needs, and leaving it
    out said "no enclosing condition" (paired blind review, stop 34: false in 2)."""
    (tmp_path / "alone.py").write_text(ALONE)
    result = scan_checkout(open_source(str(tmp_path), repo="o/alone"), repo="o/alone")
    records = [r for r, _ in result.items]
    skip = _by_message(records, "Found an invalid character")["triggerScenarios"]
    assert "`not error_on.isdisjoint(src[pos:new_pos])`" in skip, skip
    assert "no enclosing condition" not in skip
    warned = _by_message(records, "a search from the root is broken")["triggerScenarios"]
    assert """`path[:1] == "/"`""" in warned, warned
    assert "no enclosing condition" not in warned
