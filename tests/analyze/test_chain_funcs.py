"""A guard tested before the body binds its parameter again, and a parameter named like
a builtin (``hex``): both still read what the caller passed (:mod:`errdex.analyze.chain_funcs`,
:func:`errdex.analyze.guards.free_names`)."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.classes import ClassTree
from errdex.analyze.repo import build_index
from errdex.source import open_source

from .fixture_chains import chains_of
from .stdlib_items import ON_311, stdlib_items

_MODULE = (
    "def parse(hex=None, text=None):\n"
    "    if hex is not None:\n"
    "        hex = hex.strip()\n"
    "        if len(hex) != 32:\n"
    "            raise ValueError('badly formed hex')\n"
    "    if text is not None:\n"
    "        text = text.strip()\n"
    "        if len(text) != 4:\n"
    "            raise ValueError('badly formed text')\n"
    "\n"
    "def from_text(t):\n"
    "    return parse(text=t)\n"
    "\n"
    "def from_hex(h):\n"
    "    return parse(hex=h)\n"
    "\n"
    "def from_bytes(b):\n"
    "    text = b.decode()\n"
    "    return parse(None, text)\n"
)


def _reaching(tmp_path: Path, function: str) -> list[str]:
    (tmp_path / "m.py").write_text(_MODULE)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=["m.py"])
    chains = Chains(index, ClassTree(index))
    lines = _MODULE.splitlines()
    raise_line = next(i + 1 for i, t in enumerate(lines) if function in t)
    tested = [raise_line - 3, raise_line - 1]  # ``if x is not None``, ``if len(x) != …``
    guards = [lines[n - 1].strip()[3:-1] for n in tested]
    hops = chains.reach(
        "m.parse", "builtins.ValueError", guards, line=raise_line, guard_lines=tested
    )
    return sorted(h.qualname for h in hops)


def test_a_guard_tested_before_the_parameter_is_bound_again_reads_the_callers_value(
    tmp_path: Path,
) -> None:
    # ``text`` is bound again inside ``if text is not None:``; a caller leaving it None
    # never gets in, one passing its own value may
    assert _reaching(tmp_path, "badly formed text") == ["m.from_bytes", "m.from_text", "m.parse"]


def test_a_parameter_named_like_a_builtin_is_read_as_the_parameter(tmp_path: Path) -> None:
    # ``hex is not None`` reads the parameter ``hex``, not the builtin
    assert _reaching(tmp_path, "badly formed hex") == ["m.from_hex", "m.parse"]


@ON_311
def test_uuid1_and_uuid3_pass_no_hex() -> None:
    """``UUID.__init__`` tests ``if hex is not None:`` (uuid.py:174) before binding ``hex``
    again (175-176); ``uuid1`` passes ``fields``, ``uuid3`` ``bytes``, neither ``hex``."""
    items = stdlib_items("uuid.py")
    (evidence,) = [
        e
        for r, e in items
        if e["site"]["qualname"] == "uuid.UUID.__init__"
        and r["errorMessage"] == "badly formed hexadecimal UUID string"
    ]
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["uuid.UUID.__init__"]


#: ``multiprocessing.heap``: the class body builds the heap every wrapper allocates from.
_HEAP = (
    "class Heap:\n"
    "    def malloc(self, size):\n"
    "        if size <= 0:\n"
    "            raise ValueError('Size out of range')\n"
    "\n"
    "class BufferWrapper:\n"
    "    _heap = Heap()\n"
    "    def __init__(self, size):\n"
    "        block = BufferWrapper._heap.malloc(size)\n"
    "    def grow(self, size):\n"
    "        return self._heap.malloc(size)\n"
    "\n"
    "class Stand:\n"
    "    _heap = Heap\n"
    "    def make(self, size):\n"
    "        return Stand._heap.malloc(size)\n"
)


def test_a_method_of_an_object_the_class_body_builds_is_reached(tmp_path: Path) -> None:
    # ``BufferWrapper._heap.malloc`` and ``self._heap.malloc`` run ``Heap.malloc``; a
    # class body binding the class itself (``_heap = Heap``) is not an instance
    _, chains = chains_of(tmp_path, {"heap.py": _HEAP})
    hops = chains.reach("heap.Heap.malloc", "builtins.ValueError")
    assert sorted(h.qualname for h in hops) == [
        "heap.BufferWrapper.__init__",
        "heap.BufferWrapper.grow",
        "heap.Heap.malloc",
    ]
