"""A re-scan after an edit of the file a way in was read from analyses the record again
(review rr5, ``inc3``: after ``make_group`` came to return a ``dict``, the incremental
catalogue still said "It comes from calling `nest()` on the `_Group` object that
`make_group()` returns"; a cold scan said no such thing)."""

from __future__ import annotations

from pathlib import Path

from ..source.helpers import write
from ..test_scan_edits import _cold, _rescan
from ..test_scan_reuse import _age

BASE = """\
class _ConnBase:
    def recv(self):
        raise EOFError("connection closed")


class _Group:
    def nest(self):
        raise RuntimeError("nesting is not allowed")
"""

CONN = """\
from ._base import _ConnBase

__all__ = ["Connection"]


class Connection(_ConnBase):
    def peek(self):
        return None
"""

MAKER = """\
from ._base import _Group

__all__ = ["make_group"]


def make_group():
    return _Group()
"""


def _ways(stored: list[tuple[dict[str, object], dict[str, object]]]) -> dict[str, object]:
    return {
        str(r["errorMessage"]): (e.get("madeBy"), [q["qualname"] for q in e["entryPoints"]])  # type: ignore[attr-defined]
        for r, e in stored
    }


def test_an_edit_of_the_factory_or_the_heir_unmakes_the_way(tmp_path: Path) -> None:
    """``make_group`` comes to return a ``dict``: an edit inside its body, which reaches
    no caller of the raise, yet the way through it is gone; then ``Connection`` defines
    its own ``recv``. After each, the catalogue is what a cold scan gives."""
    root = tmp_path / "proj"
    for rel, text in {
        "pk/__init__.py": "",
        "pk/_base.py": BASE,
        "pk/conn.py": CONN,
        "pk/maker.py": MAKER,
    }.items():
        write(root, rel, text)
    _age(root)
    db = tmp_path / "catalogue.db"
    _, stored = _rescan(root, db)
    assert _ways(stored)["nesting is not allowed"][0] is not None
    assert _ways(stored)["connection closed"][1] == ["pk.conn.Connection.recv"]
    write(root, "pk/maker.py", MAKER.replace("_Group()", "dict()"))
    _, stored = _rescan(root, db)
    assert _ways(stored)["nesting is not allowed"] == (None, [])
    assert stored == _cold(root)
    _age(root)
    write(root, "pk/conn.py", CONN.replace("def peek", "def recv"))
    _, stored = _rescan(root, db)
    assert _ways(stored)["connection closed"][1] == []
    assert stored == _cold(root)
