"""A tested condition holds later only while nothing may change what it reads."""

from __future__ import annotations

import ast

from errdex.analyze.held_reads import changed_at, module_changes


def _at(source: str) -> int:
    """``changed_at`` for the first statement's ``if`` test over the rest."""
    body = ast.parse(source).body
    test = body[0]
    assert isinstance(test, ast.If)
    return changed_at(test.test, body[1:], 99)


def test_stores_dels_augmented_and_calls_under_a_read_name_change_it() -> None:
    assert _at("if k in cache: pass\nx = 1\ncache[k] = 1\n") == 3
    assert _at("if k in cache: pass\nlen(cache)\ndel cache[k]\n") == 3
    assert _at("if k in cache: pass\nprint(k)\ncache.update(x)\n") == 3
    assert _at("if k in cache: pass\nfill(cache)\n") == 2
    assert _at("if n > 0: pass\ny = 2\nn += 1\n") == 3
    assert _at("if self.d: pass\ny = 2\nself.d.x = 1\n") == 3
    assert _at("if not items: pass\nfor items in []: pass\n") == 2
    assert _at("if k in cache: pass\nother[k] = 1\nuse(other)\n") == 99


def test_a_name_read_only_by_identity_changes_only_when_rebound() -> None:
    """``x is None`` cannot be made true again by a call that is passed ``x``."""
    assert _at("if x is None: pass\nuse(x)\nx.y = 1\n") == 99
    assert _at("if isinstance(x, int): pass\nuse(x)\nx = None\n") == 3
    assert _at("if x is None or x in seen: pass\nuse(x)\n") == 2


def test_a_name_read_only_through_attributes_the_module_never_changes() -> None:
    """``Node.insertBefore``: ``removeChild(newChild)`` cannot make ``newChild`` a
    fragment, since nothing in ``xml.dom.minidom`` stores or mutates ``nodeType``."""
    module = ast.parse(
        "def insert(self, child):\n"
        "    if child.nodeType == self.FRAGMENT:\n"
        "        return\n"
        "    child.parentNode.removeChild(child)\n"
        "    self.items[0] = child\n"
        "    child.parentNode = self\n"
        "    self.append(child)\n"
    )
    func = module.body[0]
    assert isinstance(func, ast.FunctionDef) and isinstance(func.body[0], ast.If)
    changed = module_changes(module)
    assert changed.attributes == {"parentNode", "items"}
    assert changed_at(func.body[0].test, func.body[1:], 99, changed) == 99
    assert changed_at(func.body[0].test, func.body[1:], 99) == 4
    # an item store under ``self.d`` is a change of ``d`` the module makes
    grows = ast.parse("if k in self.d: pass\nself.d[k] = 1\n")
    test = grows.body[0]
    assert isinstance(test, ast.If)
    assert changed_at(test.test, grows.body[1:], 99, module_changes(grows)) == 2


def test_a_call_of_a_module_function_that_changes_nothing_changes_nothing() -> None:
    """``sock_sendfile`` checks its socket with ``_check_ssl_socket(sock)`` between its
    own debug-mode raise and the call that reaches ``sock_sendall``'s."""
    module = ast.parse(
        "def check(sock):\n"  # 1
        "    if not isinstance(sock, int):\n"
        "        raise TypeError(repr(sock))\n"
        "    return helper(sock)\n"
        "def helper(sock):\n"  # 5
        "    return len(sock)\n"
        "def fill(c):\n"  # 7
        "    c[0] = 1\n"
        "def relay(c):\n"  # 9
        "    fill(c)\n"
        "def send(self, sock):\n"  # 11
        "    if 0 in sock:\n"
        "        raise ValueError\n"
        "    check(sock)\n"  # 14
        "    relay(sock)\n"  # 15
        "    sock.set(1)\n"
    )
    changed = module_changes(module)
    assert changed.pure == {"check", "helper"}
    send = module.body[-1]
    assert isinstance(send, ast.FunctionDef) and isinstance(send.body[0], ast.If)
    assert changed_at(send.body[0].test, send.body[1:], 99, changed) == 15
    assert changed_at(send.body[0].test, send.body[3:], 99, changed) == 16
