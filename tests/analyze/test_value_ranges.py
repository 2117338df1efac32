"""A caller's number known by its bounds (``x & 0xffff``) against a guard's comparison
(blind review stop 33, records 09 and 20: ``uuid1`` and ``UUID``'s field checks)."""

from __future__ import annotations

import ast

from errdex.analyze.guard_eval import OneOf, guard_value
from errdex.analyze.value_ranges import Interval, compare_interval
from errdex.analyze.value_sets import contradicted, local_sets

from .stdlib_items import ON_311, stdlib_items


def test_a_comparison_is_decided_only_when_every_value_agrees() -> None:
    mid = Interval(0, 0xFFFF)
    assert compare_interval(ast.Lt(), mid, 1 << 16) is True
    assert compare_interval(ast.LtE(), 0, mid) is True
    assert compare_interval(ast.Gt(), mid, 0xFFFF) is False
    assert compare_interval(ast.Lt(), mid, 0x8000) is None  # some are, some are not
    assert compare_interval(ast.Eq(), mid, -1) is False
    assert compare_interval(ast.NotEq(), mid, 1 << 16) is True
    assert compare_interval(ast.Lt(), mid, "x") is None
    assert compare_interval(ast.In(), mid, (1, 2)) is None


def test_a_guard_over_a_masked_value() -> None:
    known = {"time_mid": Interval(0, 0xFFFF)}
    assert guard_value("not 0 <= time_mid < 1<<16", known) is False
    assert guard_value("not 0 <= time_mid < 1<<8", known) is None
    assert guard_value("time_mid", known) is None  # its truth: 0 is in it
    assert guard_value("isinstance(time_mid, int)", known) is None
    assert guard_value("time_mid in (1, 2)", known) is None
    assert guard_value("time_mid < 1 << 100000", known) is None  # not built
    fields = {"fields": (Interval(0, 0xFFFFFFFF), Interval(0, 0xFFFF))}
    assert guard_value("not 0 <= (fields)[1] < 1 << 16", fields) is False


def test_a_local_bound_once_to_a_mask_is_known_by_its_bounds() -> None:
    source = (
        "def uuid1(node=None):\n"
        "    timestamp = now()\n"
        "    time_mid = (timestamp >> 32) & 0xffff\n"
        "    low = 0xff & timestamp\n"
        "    twice = timestamp & 0xff\n"
        "    twice = 3\n"
        "    node = node & 0xff\n"
        "    return UUID(fields=(time_mid, low, node))\n"
    )
    func = ast.parse(source).body[0]
    assert isinstance(func, ast.FunctionDef)
    found = local_sets(func, ("node",))
    assert found == {"time_mid": (Interval(0, 0xFFFF),), "low": (Interval(0, 0xFF),)}
    assert contradicted(["time_mid >= 1 << 16"], {"time_mid": OneOf(found["time_mid"])})


@ON_311
def test_uuid1_reaches_no_field_check_its_masks_satisfy() -> None:
    """``uuid1`` passes ``fields=(time_low, time_mid, time_hi_version,
    clock_seq_hi_variant, clock_seq_low, node)``, the first five masked to their width
    (uuid.py:701-705); ``node`` is the caller's, so field 6 stays reachable."""
    items = stdlib_items("uuid.py")
    reaching: dict[str, list[str]] = {}
    for record, evidence in items:
        if evidence["site"]["qualname"] == "uuid.UUID.__init__":
            names = [e["qualname"] for e in evidence["entryPoints"]]
            reaching[record["errorMessage"].split(" out of range")[0]] = names
    for field in ("field 1", "field 2", "field 3", "field 4", "field 5"):
        assert "uuid.uuid1" not in reaching[field]
    assert "uuid.uuid1" in reaching["field 6"]
