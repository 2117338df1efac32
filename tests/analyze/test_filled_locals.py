"""A caller's local list that holds an item at the call is no empty argument."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.filled_locals import filled_spans

from .fixture_chains import chains_of
from .stdlib_items import ON_311, one_file_items, stdlib_items

_STAGGERED = (
    "async def wait(fs, *, timeout=None):\n"
    "    if not fs:\n"
    "        raise ValueError('Set of Tasks/Futures is empty.')\n"
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


def test_spans_run_from_the_append_to_the_first_call_handed_the_list() -> None:
    tree = ast.parse(_STAGGERED)
    funcs = {f.name: f for f in tree.body if isinstance(f, ast.AsyncFunctionDef)}
    assert filled_spans(funcs["race"]) == {"running": ((10, 12),)}
    assert filled_spans(funcs["maybe"]) == {}
    assert filled_spans(funcs["emptied"]) == {}
    assert filled_spans(funcs["handed"]) == {"running": ((34, 34),)}


@ON_311
def test_staggered_race_is_no_way_to_waits_empty_set() -> None:
    items = stdlib_items("asyncio/tasks.py", "asyncio/staggered.py", "asyncio/base_events.py")
    (empty,) = [e for r, e in items if r["errorMessage"] == "Set of Tasks/Futures is empty."]
    names = [e["qualname"] for e in empty["entryPoints"]]
    assert "asyncio.staggered.staggered_race" not in names
    assert "asyncio.tasks.wait" in names
