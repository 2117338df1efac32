"""A method's raise behind its object's own state: a new object, or one a method set."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from errdex.store import SqliteStore
from errdex.verify.from_states import class_states

from .conftest import REPO, Tree
from .test_test_cases import _rescan

HEAPS = """\
class Heap:
    def __init__(self):
        self._root = None
        self._closed = False

    def push(self, x):
        self._root = x

    def close(self):
        self._closed = True

    def peek(self):
        if self._root is None:
            raise IndexError("peek at an empty heap")
        return self._root

    def pop(self):
        if self._closed:
            raise ValueError("pop from a closed heap")
        return self._root
"""

TEST_HEAPS = """\
from acme.heaps import Heap


def test_heap():
    h = Heap()
    h.push(3)
    assert h.peek() == 3
    assert h.pop() == 3
"""


def _record_of(tree: Tree, line: int) -> dict[str, Any]:
    with SqliteStore(tree.db) as store:
        (env,) = [
            e
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == "acme/heaps.py" and e["record"]["lineNumber"] == line
        ]
    return env


def test_the_state_a_new_object_is_in_reproduces(tree: Tree) -> None:
    (tree.root / "acme" / "heaps.py").write_text(HEAPS)
    (tree.root / "tests" / "test_heaps.py").write_text(TEST_HEAPS)
    _rescan(tree)
    assert tree.verify().exit_code == 0
    peek = _record_of(tree, 14)["evidence"]["reproducer"]
    assert peek["raised"] == "IndexError: peek at an empty heap"
    assert peek["snippet"].rstrip().endswith("h = Heap()\nh.peek()")
    assert "a new `Heap`" in peek["test"]
    pop = _record_of(tree, 19)["evidence"]["reproducer"]
    assert pop["raised"] == "ValueError: pop from a closed heap"
    assert "h.close()\nh.pop()" in pop["snippet"]


def test_class_states_reads_literal_stores_of_methods_without_arguments(tmp_path: Path) -> None:
    file = tmp_path / "heaps.py"
    file.write_text(HEAPS)
    states = class_states(file, "Heap")
    assert states["__init__"] == {"self._root": None, "self._closed": False}
    assert states["close"] == {"self._closed": True}
    assert "push" not in states  # it takes an argument
