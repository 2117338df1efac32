"""Names a class body assigns shadow the bases' (:mod:`errdex.analyze.class_body`)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.chains import Chains
from errdex.analyze.class_body import assigned_names
from errdex.analyze.classes import ClassTree
from errdex.analyze.entrypoints import PublicApi, entry_points
from errdex.analyze.repo import build_index
from errdex.source import open_source

#: ``ipaddress`` as far as ``IPv6Network.hosts`` goes.
_NETWORKS = (
    "class _BaseNetwork:\n"
    "    @property\n"
    "    def _address_class(self):\n"
    "        raise NotImplementedError('no associated address class')\n"
    "    def hosts(self):\n"
    "        return [self._address_class(x) for x in range(4)]\n"
    "\n"
    "class Address:\n"
    "    def __init__(self, value):\n"
    "        self.value = value\n"
    "\n"
    "class Network(_BaseNetwork):\n"
    "    _address_class = Address\n"
    "    def hosts(self):\n"
    "        return [self._address_class(x) for x in range(2)]\n"
    "    def first(self):\n"
    "        return self._address_class(0)\n"
    "\n"
    "class Other(_BaseNetwork):\n"
    "    def last(self):\n"
    "        return self._address_class(3)\n"
    "\n"
    "class Table:\n"
    "    def keys(self):\n"
    "        raise KeyError('no keys')\n"
    "    __iter__ = keys\n"
)


def _bound(source: str) -> frozenset[str]:
    """What the first class of ``source`` binds in its body."""
    cls = ast.parse(source).body[0]
    assert isinstance(cls, ast.ClassDef)
    return assigned_names(cls.body)


def test_assigned_names_are_what_the_body_binds() -> None:
    assert _bound(
        "class C:\n"
        "    a = 1\n"
        "    b, (c, *d) = 1, (2, 3)\n"
        "    e: int = 0\n"
        "    f: int\n"
        "    g += 1\n"
        "    if X:\n"
        "        h = 1\n"
        "    def m(self): self.i = 1\n"
    ) == frozenset("abcdegh")


def test_a_subclass_attribute_shadows_the_base_property(tmp_path: Path) -> None:
    # ``Network._address_class = Address``: ``self._address_class(x)`` in Network's
    # methods builds an Address; only a subclass that binds nothing reaches the raise
    # (before, ``Network.hosts`` and ``Network.first`` were named as reaching it)
    (tmp_path / "net.py").write_text(_NETWORKS)
    index = build_index(open_source(str(tmp_path), repo="o/m"), library_files=["net.py"])
    chains, api = Chains(index, ClassTree(index)), PublicApi(index)
    assert index.method("net.Network", "_address_class") is None
    assert index.method("net.Other", "_address_class") == "net._BaseNetwork._address_class"
    found = entry_points(
        index,
        chains,
        api,
        "net._BaseNetwork._address_class",
        error_class="builtins.NotImplementedError",
    )
    # Other binds nothing, so the base's hosts() it inherits raises too (run: so it does);
    # named since session 41 (:mod:`errdex.analyze.heirs`)
    assert [e["qualname"] for e in found] == ["net.Other.hosts", "net.Other.last"]
    # an alias of the class's own method is that method
    assert index.method("net.Table", "__iter__") == "net.Table.keys"


def test_names_bound_in_loops_withs_matches_and_walruses_count() -> None:
    assert _bound(
        "class C:\n"
        "    for a in range(2):\n"
        "        b = a\n"
        "    while X:\n"
        "        c = 1\n"
        "    with open(p) as d:\n"
        "        e = 1\n"
        "    try:\n"
        "        f = 1\n"
        "    except E as err:\n"
        "        g = 1\n"
        "    match X:\n"
        "        case [h, *i]:\n"
        "            j = 1\n"
        "        case {**k}:\n"
        "            pass\n"
        "    if (l := 1):\n"
        "        m: int\n"
        "    n = [o for o in range(2)]\n"
    ) == frozenset("abcdefghijkln")
