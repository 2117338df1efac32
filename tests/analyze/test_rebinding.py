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
