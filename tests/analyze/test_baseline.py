"""The extractor's own account: no requirement said only in private names."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

SOURCE = """\
class Reader:
    def read(self, n):
        if not self._eof:
            raise ValueError("not at the end")
        if n < 0:
            raise ValueError("negative")


def _helper(x):
    if x:
        raise KeyError("x")


def make():
    def inner(flag):
        if flag:
            raise TypeError("flag")
    return inner
"""


def test_private_conditions_are_not_restated(tmp_path: Path) -> None:
    (tmp_path / "m.py").write_text(SOURCE)
    result = scan_checkout(open_source(str(tmp_path), repo="o/m"), repo="o/m", analyze=False)
    by_line = {r["lineNumber"]: r["solutions"] for r, _ in result.items}
    # a public method's condition over its argument is still said
    assert by_line[6] == ["Make sure `not (n < 0)` holds when `m.Reader.read` reaches line 6."]
    for line in (4, 11, 17):  # ``self._eof``; a private function; a nested one
        assert len(by_line[line]) == 1
        assert "_eof" not in by_line[line][0] and "_helper" not in by_line[line][0]
    # no filler: the message, where its fixed text says something, is named as the cause
    assert by_line[4][0].startswith("The message states the cause: “not at the end”. ")
    for line in (11, 17):  # "x", "flag": too little fixed text to be a cause
        assert by_line[line][0].startswith("Catch `")
    for line in (4, 11, 17):
        assert "No requirement" not in by_line[line][0]
