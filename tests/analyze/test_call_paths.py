"""The ``if`` conditions a call is made under, over the function's parameters (blind
review stop 32, record 18: ``TarFile.open`` builds a ``_Stream`` only for ``"|"``
modes)."""

from __future__ import annotations

import ast

from errdex.analyze.call_paths import call_conditions, closed
from errdex.analyze.callsites import call_sites
from errdex.analyze.guard_eval import OneOf

_OPEN = (
    "def open(name, mode='r', *args):\n"  # 1
    "    if mode in ('r', 'r:*'):\n"  # 2
    "        return read(name)\n"  # 3
    "    elif ':' in mode:\n"  # 4
    "        filemode, comptype = mode.split(':', 1)\n"  # 5
    "        if comptype == 'gz': gz(name)\n"  # 6
    "        return plain(name)\n"  # 7
    "    elif '|' in mode:\n"  # 8
    "        return stream(name)\n"  # 9
    "    if name: log(name)\n"  # 10
    "    for part in split(name):\n"  # 11
    "        walk(part)\n"  # 12
)


def _conditions(source: str) -> dict[int, tuple[str, ...]]:
    func = ast.parse(source).body[0]
    assert isinstance(func, ast.FunctionDef)
    sites, rebound = call_sites(func, {})
    params = tuple(a.arg for a in func.args.args)
    return call_conditions(func, params, rebound, {s.line for s in sites})


def test_each_call_line_has_its_clauses() -> None:
    found = _conditions(_OPEN)
    first = "mode in ('r', 'r:*')"
    assert found[3] == (first,)
    assert found[5] == (f"not ({first})", "':' in mode")
    # a line shared by the header and the body keeps what both share
    assert found[6] == (f"not ({first})", "':' in mode")
    assert found[9] == (f"not ({first})", "not (':' in mode)", "'|' in mode")
    assert 10 not in found and 11 not in found and 12 not in found


def test_a_parameter_bound_again_is_no_condition() -> None:
    # bound anywhere, even after the clauses (a loop may run the binding first)
    source = _OPEN.replace("    for part", "    mode = 'w'\n    for part")
    assert _conditions(source) == {}
    rebound = _OPEN.replace("    if mode in", "    mode = mode.lower()\n    if mode in")
    assert _conditions(rebound) == {}
    nested = _OPEN + "    def g():\n        nonlocal mode\n        mode = 'x'\n"
    assert _conditions(nested) == {}


def test_closed_needs_every_line_cut() -> None:
    found = _conditions(_OPEN)
    writing = {"name": None, "mode": OneOf(("w", "w:gz"))}
    assert closed(found, [9], writing)
    assert closed(found, [3, 9], writing)
    assert not closed(found, [5, 9], writing)  # 'w:gz' has ':'
    assert not closed(found, [10], writing)  # no condition there
    assert not closed(found, [], writing)
    assert not closed(found, [9], {"name": None})  # mode not known


def test_a_call_of_itself_with_other_values_may_open_the_way() -> None:
    found = _conditions(_OPEN)
    values = {"mode": "r"}
    assert closed(found, [9], values, [(3, {"mode": ("name", "mode")})])
    assert not closed(found, [9], values, [(3, {"mode": ("const", "r|gz")})])
    assert closed(found, [9], values, [(5, {"mode": ("const", "r|gz")})])  # never made
