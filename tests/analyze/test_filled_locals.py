"""A caller's local list that holds an item at the call is no empty argument."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.filled_locals import AGAIN, ONCE, filled_spans

from .fixture_chains import chains_of
from .stdlib_items import ON_311, one_file_items, stdlib_items

_STAGGERED = (
    "async def wait(fs, *, timeout=None):\n"
    "    if not fs:\n"
    "        raise ValueError('Set of Tasks/Futures is empty.')\n"
    "    fs = set(fs)\n"
    "    return fs\n"
    "\n\n"
    "async def race(first, more):\n"
    "    running = []\n"
    "    running.append(first)\n"
    "    done = 0\n"
    "    while done != len(running):\n"
    "        finished = await wait(running)\n"
    "        done = len(finished)\n"
    "    return done\n"
    "\n\n"
    "async def maybe(first, flag):\n"
    "    running = []\n"
    "    if flag:\n"
    "        running.append(first)\n"
    "    return await wait(running)\n"
    "\n\n"
    "async def emptied(first):\n"
    "    running = []\n"
    "    running.append(first)\n"
    "    running.clear()\n"
    "    return await wait(running)\n"
    "\n\n"
    "async def handed(first, drain):\n"
    "    running = []\n"
    "    running.append(first)\n"
    "    drain(running)\n"
    "    return await wait(running)\n"
)


def test_a_list_appended_to_before_the_call_is_no_way_to_the_empty_raise(
    tmp_path: Path,
) -> None:
    """Blind review stop 35, record 35: ``staggered_race`` appends its first task to
    ``running_tasks`` before ``tasks.wait(running_tasks)``: never empty. An append
    under a condition, a ``clear()`` or a call handed the list keeps the caller."""
    _, chains = chains_of(tmp_path, {"m.py": _STAGGERED})
    walk = chains.walk("m.wait", "builtins.ValueError", ["not fs"], line=3, at=3, guard_lines=[2])
    assert sorted(h.qualname for h in walk.hops) == ["m.emptied", "m.handed", "m.maybe", "m.wait"]
    ((_, evidence),) = one_file_items(tmp_path, "m.py", _STAGGERED)
    assert "m.race" not in [e["qualname"] for e in evidence["entryPoints"]]


def test_a_filled_local_is_known_at_the_one_call_handed_it() -> None:
    """``race`` hands ``running`` to ``wait`` alone, in a loop: the call may run again
    (:data:`AGAIN`); ``handed`` hands it to ``drain`` as well: known at no call."""
    tree = ast.parse(_STAGGERED)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.AsyncFunctionDef)}
    assert filled_spans(funcs["race"]) == {"running": (13, AGAIN)}
    assert filled_spans(funcs["maybe"]) == {}
    assert filled_spans(funcs["emptied"]) == {}
    assert filled_spans(funcs["handed"]) == {}


_SPOILED = {
    "same line": "def f(x):\n    a = []\n    a.append(x)\n    run(a, drain(a))\n",
    "stored": "def f(s, x):\n    a = []\n    a.append(x)\n    s.a = a\n    s.reset()\n    run(a)\n",
    "aliased": "def f(x):\n    a = []\n    a.append(x)\n    b = a\n    b.clear()\n    run(a)\n",
    "yielded": "def f():\n    a = []\n    a.append(1)\n    yield a\n    run(a)\n",
    "kept first": "def f():\n    a = []\n    keep(a)\n    a.append(1)\n    run(a)\n",
    "a global": "def f():\n    x.append(1)\n    def g():\n        x = []\n    run(x)\n",
}


def test_a_list_that_may_be_emptied_elsewhere_is_not_known_filled() -> None:
    """A read-only review (session 41): an alias, a store, a ``yield``, a call handed it
    before the append or on the same line may empty it before the call."""
    for case, text in _SPOILED.items():
        func = ast.parse(text).body[0]
        assert isinstance(func, ast.FunctionDef)
        assert filled_spans(func) == {}, case
    once = ast.parse("def f():\n    a = []\n    a.append(1)\n    n = len(a)\n    run(a)\n")
    assert isinstance(once.body[0], ast.FunctionDef)
    assert filled_spans(once.body[0]) == {"a": (5, ONCE)}


_EMPTIED = (
    "__all__ = ['public', 'direct', 'drain', 'once']\n"
    "\n\n"
    "def _check(items):\n"
    "    if not items:\n"
    "        raise ValueError('nothing left')\n"
    "\n\n"
    "def _middle(items):\n"
    "    items.pop()\n"
    "    _check(items)\n"
    "\n\n"
    "def public(x):\n"
    "    a = []\n"
    "    a.append(x)\n"
    "    _middle(a)\n"
    "\n\n"
    "def _consume(items):\n"
    "    items.pop()\n"
    "    if not items:\n"
    "        raise LookupError('emptied')\n"
    "\n\n"
    "def direct(x):\n"
    "    b = []\n"
    "    b.append(x)\n"
    "    _consume(b)\n"
    "\n\n"
    "def _take(items):\n"
    "    if not items:\n"
    "        raise IndexError('take from empty')\n"
    "    return items.pop()\n"
    "\n\n"
    "def drain(first):\n"
    "    pending = []\n"
    "    pending.append(first)\n"
    "    while True:\n"
    "        _take(pending)\n"
    "\n\n"
    "def once(first):\n"
    "    out = []\n"
    "    out.append(first)\n"
    "    box = out\n"
    "    box.clear()\n"
    "    return _take(out)\n"
)


def test_a_callee_that_empties_the_list_first_keeps_the_caller(tmp_path: Path) -> None:
    """``_middle`` pops before ``_check`` tests, ``_consume`` before its own test, and
    ``_take`` pops what ``drain``'s loop hands it again: each caller reaches the raise."""
    items = one_file_items(tmp_path, "m.py", _EMPTIED)
    entries = {r["errorMessage"]: [e["qualname"] for e in ev["entryPoints"]] for r, ev in items}
    assert entries["nothing left"] == ["m.public"]
    assert entries["emptied"] == ["m.direct"]
    assert sorted(entries["take from empty"]) == ["m.drain", "m.once"]


@ON_311
def test_staggered_race_is_no_way_to_waits_empty_set() -> None:
    items = stdlib_items("asyncio/tasks.py", "asyncio/staggered.py", "asyncio/base_events.py")
    (empty,) = [e for r, e in items if r["errorMessage"] == "Set of Tasks/Futures is empty."]
    names = [e["qualname"] for e in empty["entryPoints"]]
    assert "asyncio.staggered.staggered_race" not in names
    assert "asyncio.tasks.wait" in names
