"""The handling strategy agrees with the solutions it stands beside (re-read of the merged
stated_fixes, strategy and remedies, stop 35): a docstring's requirement in place of
"errdex found no fix" still makes an out-of-bounds argument ``validation``; a fallback
fix the solutions dropped (it named a private class) is no ``fallback``; a docstring
sentence on what raises is no requirement."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

TEXT = '''
class IndexSizeErr(Exception):
    pass


class Text:
    def __init__(self, data):
        self.data = data

    def splitText(self, offset):
        """Split the node at offset. The offset must not exceed the size of the data."""
        if offset < 0 or offset > len(self.data):
            raise IndexSizeErr("illegal offset size")
        return self.data[offset:]

    def splitPlain(self, offset):
        if offset < 0 or offset > len(self.data):
            raise IndexSizeErr("illegal offset size")
        return self.data[offset:]
'''

PRIVATE = """
class _Missing(KeyError):
    pass


def lookup3(key, default=None):
    if default is not None:
        return default
    raise _Missing(key)
"""


def test_a_docstring_requirement_keeps_the_bounds_check_first(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "dom.py", TEXT)
    records = {r["lineNumber"]: r for r, _ in items}
    strategies = {r["handlingStrategy"] for r in records.values()}
    assert strategies == {"validation"}, [
        (r["lineNumber"], r["handlingStrategy"], r["solutions"]) for r in records.values()
    ]


def test_no_fallback_strategy_without_a_fallback_solution(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "lookups.py", PRIVATE)
    (record,) = [r for r, _ in items]
    if record["handlingStrategy"] == "fallback":
        assert any(s.startswith("Pass `default`") for s in record["solutions"])
