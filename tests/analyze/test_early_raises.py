"""A caller that raised already for the site's condition (:mod:`errdex.analyze.early_raises`)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.early_raises import early_raises, raised_before

from .fixture_chains import chains_of

#: ``multiprocessing.heap``: ``BufferWrapper`` checks the size before ``Heap.malloc`` does.
_HEAP = (
    "import sys\n"
    "\n"
    "class Heap:\n"
    "    def malloc(self, size):\n"
    "        if sys.maxsize <= size:\n"
    "            raise OverflowError('Size too large')\n"
    "\n"
    "class BufferWrapper:\n"
    "    _heap = Heap()\n"
    "    def __init__(self, size):\n"
    "        if sys.maxsize <= size:\n"
    "            raise OverflowError('Size too large')\n"
    "        block = BufferWrapper._heap.malloc(size)\n"
    "\n"
    "def checked_after(n):\n"
    "    block = BufferWrapper._heap.malloc(n)\n"
    "    if sys.maxsize <= n:\n"
    "        raise OverflowError('Size too large')\n"
    "\n"
    "def renamed(n):\n"
    "    if sys.maxsize <= n:\n"
    "        raise OverflowError('Size too large')\n"
    "    block = BufferWrapper._heap.malloc(n)\n"
    "\n"
    "def other_test(n):\n"
    "    if sys.maxsize < n:\n"
    "        raise OverflowError('Size too large')\n"
    "    block = BufferWrapper._heap.malloc(n)\n"
)


def test_a_caller_that_raised_for_the_condition_is_no_way_to_the_raise(tmp_path: Path) -> None:
    # ``__init__`` and ``renamed`` (its ``n`` is ``size``) raise first; ``checked_after``
    # tests after its call, ``other_test`` another condition (``<``, not ``<=``)
    _, chains = chains_of(tmp_path, {"heap.py": _HEAP})
    hops = chains.reach(
        "heap.Heap.malloc", "builtins.OverflowError", ["sys.maxsize <= size"], line=6, at=6
    )
    assert sorted(h.qualname for h in hops) == [
        "heap.Heap.malloc",
        "heap.checked_after",
        "heap.other_test",
    ]


def test_only_a_top_level_if_that_raises_and_has_no_else_counts() -> None:
    func = ast.parse(
        "def f(a, b):\n"
        "    if a < 0:\n"
        "        raise ValueError\n"
        "    if b:\n"
        "        log(b)\n"
        "    if b > 1:\n"
        "        raise ValueError\n"
        "    else:\n"
        "        pass\n"
        "    for x in a:\n"
        "        if x:\n"
        "            raise ValueError\n"
    ).body[0]
    assert isinstance(func, ast.FunctionDef)
    found = early_raises(func)
    assert found == ((3, "a < 0", 12),)  # false up to the end: nothing changes a
    # a guard reading a parameter the caller does not pass on is not compared
    assert raised_before(found, 10, ["v < 0"], {"v"}, {"v": "a"})
    assert not raised_before(found, 10, ["v < 0"], {"v", "w"}, {"w": "b"})
    assert not raised_before(found, 3, ["v < 0"], {"v"}, {"v": "a"})  # the call comes first
