"""A caller that left already where a condition on the way down holds is no way there."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.chain_parts import Hop
from errdex.analyze.chains import Chains

from .fixture_chains import chains_of


def _guarded(chains: Chains, function: str, cls: str, guard: str, line: int, at: int) -> list[Hop]:
    """The hops up to a raise at ``line`` under one ``guard`` tested at ``at``."""
    return chains.reach(function, cls, [guard], line=line, at=line, guard_lines=[at])


# mirrors xml.dom.minidom's Node.insertBefore / appendChild and Document.appendChild
_DOM = (
    "class HierarchyError(Exception):\n"  # 1
    "    pass\n"
    "\n"
    "class Node:\n"  # 4
    "    FRAGMENT = 11\n"
    "    kinds = (1, 3, 11)\n"
    "\n"
    "    def insertBefore(self, newChild, refChild):\n"  # 8
    "        if newChild.nodeType == self.FRAGMENT:\n"
    "            for c in tuple(newChild.childNodes):\n"
    "                self.insertBefore(c, refChild)\n"
    "            return newChild\n"
    "        if newChild.nodeType not in self.kinds:\n"  # 13
    "            raise HierarchyError('cannot be child')\n"
    "        self.appendChild(newChild)\n"  # 15
    "        return newChild\n"
    "\n"
    "    def appendChild(self, node):\n"  # 18
    "        if node.nodeType == self.FRAGMENT:\n"
    "            for c in tuple(node.childNodes):\n"
    "                self.appendChild(c)\n"  # 21
    "            return node\n"
    "        return node\n"
    "\n"
    "    def adopt(self, node):\n"  # 25
    "        self.appendChild(node)\n"
    "\n"
    "class Document(Node):\n"  # 28
    "    kinds = (1, 3)\n"
    "\n"
    "    def appendChild(self, node):\n"  # 31
    "        if node.nodeType not in self.kinds:\n"
    "            raise HierarchyError('cannot be child')\n"  # 33
    "        return Node.appendChild(self, node)\n"
    "\n"
    "def lookup(table, key=None):\n"  # 36
    "    if key is None:\n"
    "        raise KeyError('no key')\n"  # 38
    "    return table[key]\n"
    "\n"
    "def checked(table, key):\n"  # 41
    "    if key is None:\n"
    "        return None\n"
    "    return lookup(table, key)\n"
    "\n"
    "def unchecked(table, key):\n"  # 46
    "    return lookup(table, key)\n"
    "\n"
    "def either(table, key):\n"  # 49
    "    if not table or key is None:\n"
    "        return None\n"
    "    return lookup(table, key)\n"
)


def test_a_caller_that_left_where_the_way_down_needs_a_condition_is_dropped(
    tmp_path: Path,
) -> None:
    """``insertBefore`` returns for a fragment before it calls ``appendChild``, and
    ``Node.appendChild`` reaches ``Document.appendChild`` again only for a fragment:
    no call of ``insertBefore`` takes that way (paired blind review, stop 34: false)."""
    _, chains = chains_of(tmp_path, {"dom.py": _DOM})
    hops = _guarded(
        chains,
        "dom.Document.appendChild",
        "dom.HierarchyError",
        "node.nodeType not in self.kinds",
        33,
        32,
    )
    names = {h.qualname for h in hops}
    assert "dom.Node.insertBefore" not in names, names
    # ``adopt`` checks nothing first: through ``Node.appendChild`` it can get there
    assert "dom.Node.adopt" in names, names


def test_a_caller_that_returned_where_the_raise_holds_is_dropped(tmp_path: Path) -> None:
    """``checked`` returns when ``key is None`` before it calls ``lookup``; an early
    ``return`` rules it out as an early ``raise`` does."""
    _, chains = chains_of(tmp_path, {"dom.py": _DOM})
    hops = _guarded(chains, "dom.lookup", "builtins.KeyError", "key is None", 38, 37)
    # ``either`` returns when ``not table or key is None``: past it, each part is false
    assert sorted(h.qualname for h in hops) == ["dom.lookup", "dom.unchecked"]


_TWO_WAYS = (
    "def target(value):\n"  # 1
    "    raise ValueError(value)\n"  # 2
    "\n"
    "def other(value):\n"  # 4
    "    return target(value)\n"
    "\n"
    "def mid(flag, value):\n"  # 7
    "    if flag:\n"
    "        target(value)\n"
    "    return other(value)\n"
    "\n"
    "def outer(flag, value):\n"  # 12
    "    if flag:\n"
    "        return None\n"
    "    return mid(flag, value)\n"
)


def test_a_function_reached_two_ways_is_walked_up_without_the_needs_of_the_first(
    tmp_path: Path,
) -> None:
    """``mid`` reaches the raise under ``flag`` and, through ``other``, under nothing:
    ``outer``, which returns when ``flag`` holds, still gets there the second way."""
    _, chains = chains_of(tmp_path, {"two.py": _TWO_WAYS})
    hops = chains.reach("two.target", "builtins.ValueError", [], line=2, at=2)
    assert "two.outer" in {h.qualname for h in hops}


_DEEP_FLAG = (
    "def target(value):\n"  # 1
    "    raise ValueError(value)\n"  # 2
    "\n"
    "def inner(strict, value):\n"  # 4
    "    if strict:\n"
    "        target(value)\n"
    "    return value\n"
    "\n"
    "def middle(strict, value):\n"  # 9
    "    return inner(strict, value)\n"
    "\n"
    "def lenient(value):\n"  # 12
    "    return middle(False, value)\n"
    "\n"
    "def strict(value):\n"  # 15
    "    return middle(True, value)\n"
)


def test_a_constant_two_calls_up_that_makes_an_if_on_the_way_false_rules_out(
    tmp_path: Path,
) -> None:
    """``inner`` calls ``target`` only under ``if strict:``, and ``middle`` passes its own
    ``strict`` on: ``lenient``, which passes ``False``, never gets there."""
    _, chains = chains_of(tmp_path, {"deep.py": _DEEP_FLAG})
    hops = chains.reach("deep.target", "builtins.ValueError", [], line=2, at=2)
    names = {h.qualname for h in hops}
    assert "deep.lenient" not in names and "deep.strict" in names, names


_RECURSIVE = (
    "def target(value):\n"  # 1
    "    raise ValueError(value)\n"  # 2
    "\n"
    "def step(previous, items):\n"  # 4
    "    if previous is not None:\n"
    "        target(previous)\n"
    "    if items:\n"
    "        step(items[0], items[1:])\n"
    "\n"
    "def race(items):\n"  # 10
    "    step(None, items)\n"
)


def test_a_function_that_calls_itself_carries_no_condition_of_its_own(tmp_path: Path) -> None:
    """``race`` passes ``None`` for ``previous``, but ``step`` calls itself with an item:
    the second round makes the call the first does not."""
    _, chains = chains_of(tmp_path, {"rec.py": _RECURSIVE})
    hops = chains.reach("rec.target", "builtins.ValueError", [], line=2, at=2)
    assert "rec.race" in {h.qualname for h in hops}


_DEBUG = (
    "class Loop:\n"  # 1
    "    def sock_sendall(self, sock, data):\n"  # 2
    "        if self._debug and sock.gettimeout() != 0:\n"
    "            raise ValueError('the socket must be non-blocking')\n"  # 4
    "        return data\n"
    "\n"
    "    def sock_sendfile(self, sock, file):\n"  # 7
    "        if self._debug and sock.gettimeout() != 0:\n"
    "            raise ValueError('the socket must be non-blocking')\n"
    "        return self.sock_sendall(sock, file.read())\n"
)


def test_a_whole_condition_raised_on_first_still_rules_out(tmp_path: Path) -> None:
    """``asyncio``'s ``sock_sendfile`` raises for ``self._debug and sock.gettimeout() !=
    0`` before it calls ``sock_sendall``, which raises for the same: matched whole, as
    well as part by part."""
    _, chains = chains_of(tmp_path, {"loop.py": _DEBUG})
    hops = _guarded(
        chains,
        "loop.Loop.sock_sendall",
        "builtins.ValueError",
        "self._debug and sock.gettimeout() != 0",
        4,
        3,
    )
    assert [h.qualname for h in hops] == ["loop.Loop.sock_sendall"]


_EOF = (
    "class Reader:\n"  # 1
    "    def _update_crc(self, data, n):\n"  # 2
    "        if self._eof and n > 0:\n"
    "            raise ValueError('Bad CRC-32')\n"  # 4
    "        return data\n"
    "\n"
    "    def _read1(self, n):\n"  # 7
    "        if self._eof and n > 0:\n"
    "            return b''\n"
    "        data = self._raw.read(n)\n"
    "        self._eof = not data\n"
    "        return self._update_crc(data, n)\n"  # 12
    "\n"
    "    def read(self, n):\n"  # 14
    "        return self._read1(n)\n"
)


def test_an_exit_over_self_holds_only_until_its_state_changes(tmp_path: Path) -> None:
    """``zipfile.ZipExtFile._read1`` returns when ``self._eof``, then sets ``self._eof``
    before it calls ``_update_crc``: past that store the exit says nothing, and the raise
    stays reachable from ``read`` (an exit's condition held to the end of its block
    before: a run on 3.11.7 of a caller carrying ``self.quitting`` found ``bdb``'s
    ``user_line`` sets it between the exit and the raise)."""
    _, chains = chains_of(tmp_path, {"rd.py": _EOF})
    hops = _guarded(
        chains, "rd.Reader._update_crc", "builtins.ValueError", "self._eof and n > 0", 4, 3
    )
    assert {"rd.Reader._read1", "rd.Reader.read"} <= {h.qualname for h in hops}


_CACHE = (
    "def check(c, key):\n"  # 1
    "    if key in c:\n"
    "        raise KeyError(key)\n"  # 3
    "\n"
    "def add(cache, k):\n"  # 5
    "    if k in cache:\n"
    "        return\n"
    "    cache[k] = 1\n"
    "    check(cache, k)\n"
    "\n"
    "def fresh(cache, k):\n"  # 11
    "    if k in cache:\n"
    "        return\n"
    "    check(cache, k)\n"
    "\n"
    "class Store:\n"  # 16
    "    def put(self, k):\n"
    "        if k in self.d:\n"
    "            return\n"
    "        self.d[k] = 1\n"
    "        check(self.d, k)\n"
    "\n"
    "def strict_add(cache, k):\n"  # 23
    "    if k in cache:\n"
    "        raise ValueError(k)\n"
    "    cache[k] = 1\n"
    "    check(cache, k)\n"
    "\n"
    "def strict_fresh(cache, k):\n"  # 29
    "    if k in cache:\n"
    "        raise ValueError(k)\n"
    "    check(cache, k)\n"
)


def test_a_store_between_the_exit_and_the_call_keeps_the_caller(tmp_path: Path) -> None:
    """``add`` returns where ``k in cache``, then stores ``cache[k]`` before it calls
    ``check``: there ``k in cache`` holds again (``add({}, 'a')`` raises), so ``add`` is
    a way to the raise; ``fresh``, which changes nothing in between, is not."""
    _, chains = chains_of(tmp_path, {"cache.py": _CACHE})
    hops = _guarded(chains, "cache.check", "builtins.KeyError", "key in c", 3, 2)
    names = {h.qualname for h in hops}
    assert "cache.add" in names and "cache.Store.put" in names, names
    assert "cache.fresh" not in names, names


def test_a_store_after_an_early_raise_keeps_the_caller(tmp_path: Path) -> None:
    """As past an early ``return``: ``strict_add`` raised where ``k in cache`` but
    stores ``cache[k]`` before it calls ``check``."""
    _, chains = chains_of(tmp_path, {"cache.py": _CACHE})
    hops = _guarded(chains, "cache.check", "builtins.KeyError", "key in c", 3, 2)
    names = {h.qualname for h in hops}
    assert "cache.strict_add" in names and "cache.strict_fresh" not in names, names
