"""A re-scan whose test links are kept (:mod:`errdex.analyze.tests_memo`) links as a fresh
scan does after an edit to a function in the middle of a deep link's path
(:mod:`errdex.analyze.deep_links`): what the deep rule reads of it is in the key."""

from __future__ import annotations

import math
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.repo import build_index
from errdex.analyze.static import Analysis, analyze_with_index
from errdex.scan import scan_checkout
from errdex.source import open_source

from .test_deep_links import ARCHIVE, TESTS

LIB = ARCHIVE  # ``tar.extract(0)`` reaches ``_seek``'s raise through ``_rewind``

CLEAR = "        self._goto(member)\n"
#: Edits to ``_rewind``, the middle of the path, that each close it.
CLOSED = {
    # a call on an object of no known class: it may run any raise
    "gap": CLEAR + "        member.frobnicate()\n",
    # an exception of no known class raised on the way (in the key before: the raise
    # makes ``_rewind`` a site function, so the test's ranks change)
    "raise e": "        err = member.error\n        if err:\n            raise err\n" + CLEAR,
}
NAME = "tests/test_archive.py::ArchiveTests::test_stream_error"
#: A special method added to the path's class: ``self[k]`` runs code the graph misses.
HOOK = "    def __getitem__(self, key):\n        return key\n\n    def _rewind"


def _analyse(root: Path, choices: dict[str, Any] | None) -> Analysis:
    checkout = open_source(str(root), repo="owner/proj")
    items = scan_checkout(checkout, repo="owner/proj", analyze=False).items
    return analyze_with_index(build_index(checkout), "", items, budget=math.inf, choices=choices)


def _links(analysis: Analysis) -> dict[str, list[str]]:
    return {r["id"]: [t["name"] for t in e.get("tests", [])] for r, e in analysis.items}


def _write(root: Path, lib: str) -> None:
    (root / "pkg").mkdir(exist_ok=True)
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "archive.py").write_text(lib)
    (root / "tests").mkdir(exist_ok=True)
    (root / "tests" / "test_archive.py").write_text(TESTS)


def _variants() -> list[Any]:
    closed = {name: LIB.replace(CLEAR, edit) for name, edit in CLOSED.items()}
    closed["__getitem__"] = LIB.replace("    def _rewind", HOOK)
    return [pytest.param(LIB, c, id=f"add {n}") for n, c in closed.items()] + [
        pytest.param(c, LIB, id=f"remove {n}") for n, c in closed.items()
    ]


@pytest.mark.parametrize(("before", "after"), _variants())
def test_an_edit_in_the_middle_of_a_deep_path_links_as_a_fresh_scan(
    tmp_path: Path, before: str, after: str
) -> None:
    """Each edit closes (or, reversed, opens) the path: a kept choice would keep a stale
    deep link, or miss the new one."""
    _write(tmp_path, before)
    cold = _analyse(tmp_path, None)
    _write(tmp_path, after)
    fresh = _analyse(tmp_path, None)
    deep = [any(NAME in ts for ts in _links(a).values()) for a in (cold, fresh)]
    assert deep[0] != deep[1]  # the edit changes the link on a fresh scan
    assert _links(_analyse(tmp_path, cold.choices)) == _links(fresh)
