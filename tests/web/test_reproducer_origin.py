"""The words under a reproducer: cut from a test, or built by errdex."""

from __future__ import annotations

from errdex.web.reproducer_origin import origin


def test_a_built_call_is_never_said_cut_from_its_test() -> None:
    guarded = "tests/t.py::test_a (x=-1 makes `x < 0` true)"
    assert origin({"test": guarded, "built": guarded}) == (
        "Built by errdex from the guard:",
        guarded,
    )
    plain = "errdex's plain call of `f` (the raise has no condition)"
    assert origin({"test": "", "built": plain}) == ("Built by errdex:", plain)
    as_is = "tests/t.py::test_a (its call, up to the raise that has no condition)"
    assert origin({"test": "tests/t.py::test_a", "built": as_is})[0] == "Built by errdex:"


def test_a_test_s_own_statements_are_cut_from_it() -> None:
    assert origin({"test": "tests/t.py::test_a"}) == ("Cut from", "tests/t.py::test_a")
    assert origin({"test": ""}) is None
