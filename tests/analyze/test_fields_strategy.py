"""handlingStrategy: a programming error is avoided before the call, a run-time failure
outside the caller's control is caught (blind review 2026-12-06: "try-catch" for
``ZipFile.write`` with a write handle open and for ``re.compile(p, flags)`` with a
compiled pattern was marked misleading)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

ARCHIVE = """\
class Archive:
    def __init__(self):
        self._writing = False

    def write(self, name):
        if self._writing:
            raise ValueError("Can't write while a handle is open")
        return name

    def _fill(self, n):
        if n > 3:
            raise ValueError("too many")
        return n


def read(path):
    try:
        return open(path).read()
    except OSError:
        raise RuntimeError("cannot read")
"""


def test_a_call_in_the_wrong_order_is_validation_and_a_failed_read_try_catch(
    tmp_path: Path,
) -> None:
    found = {r["lineNumber"]: (r, e) for r, e in one_file_items(tmp_path, "archive.py", ARCHIVE)}
    record, evidence = found[7]
    assert record["handlingStrategy"] == "validation"
    assert "site.guards" in evidence["provenance"]["handlingStrategy"]["basis"]
    # a private helper's argument may come from data the caller read: not decided here
    assert found[12][0]["handlingStrategy"] != "validation"
    assert found[20][0]["handlingStrategy"] == "try-catch"  # the file system, not the call
