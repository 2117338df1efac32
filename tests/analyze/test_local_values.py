"""A local replaced by the expression over the parameters it holds where it is tested
(blind review stop 31, record 25: ``random.randint`` said to reach ``randrange``'s step
warning, though it leaves ``step`` at 1 and the warning needs ``int(step) != step``)."""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.callsites import call_sites
from errdex.analyze.local_values import reaching_values, substitute

from .stdlib_items import ON_311, one_file_items, stdlib_items

_BODY = """\
def f(a, b):
    x = a + 1
    if x > 3:
        y = b
    for i in range(3):
        z = a * 2
        if z:
            pass
        z = 0
    while b:
        w = a
        if w:
            w = 1
    q = b
    return x
"""


def _values() -> dict:
    node = ast.parse(_BODY).body[0]
    assert isinstance(node, ast.FunctionDef)
    lines: dict[str, list[int]] = {}
    call_sites(node, lines)
    return reaching_values(node, ("a", "b"), lines)


def test_a_binding_reaches_the_rest_of_its_block_until_the_name_is_bound_again() -> None:
    values = _values()
    assert values["x"] == ((2, 15, "a + 1"),)  # to the end of the body
    assert values["y"] == ((4, 4, "b"),)  # its block is the if's body
    assert values["z"] == ((6, 8, "a * 2"),)  # up to the loop body's next binding
    assert values["w"] == ((11, 11, "a"),)  # the if after it binds w inside
    assert "i" not in values  # not a plain assignment


def test_substitute_only_where_the_binding_holds_and_reads_known_names() -> None:
    values = _values()
    assert substitute("x > 3", 3, values, {"a", "b"}) == "a + 1 > 3"
    assert substitute("x > 3", 2, values, {"a", "b"}) == "x > 3"  # the assignment's line
    assert substitute("z", 9, values, {"a", "b"}) == "z"  # bound again at 9
    assert substitute("x > 3", 3, values, {"b"}) == "x > 3"  # ``a`` is not the caller's


def test_a_caller_whose_default_makes_the_local_condition_false(tmp_path: Path) -> None:
    items = one_file_items(
        tmp_path,
        "m.py",
        "def randrange(start, stop, step=1):\n"
        "    try:\n"
        "        istep = step.__index__()\n"
        "    except AttributeError:\n"
        "        istep = int(step)\n"
        "        if istep != step:\n"
        "            raise ValueError('non-integer step')\n"
        "    return start\n"
        "\n\n"
        "def randint(a, b):\n"
        "    return randrange(a, b + 1)\n"
        "\n\n"
        "def stepped(a, b, s):\n"
        "    return randrange(a, b, s)\n",
    )
    ((_, evidence),) = items
    assert [e["qualname"] for e in evidence["entryPoints"]] == ["m.randrange", "m.stepped"]


@ON_311
def test_randint_does_not_reach_the_step_warning() -> None:
    found = {
        r["lineNumber"]: [e["qualname"] for e in ev["entryPoints"]]
        for r, ev in stdlib_items("random.py")
    }
    assert found[334] == ["random.Random.randrange"]
    # the start warning is reached from randint, which passes ``a`` on
    assert found[299][:2] == ["random.Random.randrange", "random.Random.randint"]


def test_substitute_leaves_the_shared_parsed_condition_alone() -> None:
    """``parse_guard`` hands out one tree per text: replacing a name in it would change
    every later reading of that condition (a rebinding test saw `fd < 0` come back)."""
    from errdex.analyze.guards import parse_guard

    values = _values()
    assert substitute("x > 3", 3, values, {"a", "b"}) == "a + 1 > 3"
    parsed = parse_guard("x > 3")
    assert parsed is not None and ast.unparse(parsed) == "x > 3"
