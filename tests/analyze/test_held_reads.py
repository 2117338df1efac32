"""A tested condition holds later only while nothing may change what it reads."""

from __future__ import annotations

import ast

from errdex.analyze.held_reads import changed_at


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
