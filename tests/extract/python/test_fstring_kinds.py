"""An f-string field ``{n:d}`` prints the int's digits, as ``%d`` does: its hole is typed
``int``; other specs stay untyped. Checked against what the fixture really raises."""

from __future__ import annotations

from ._fixture import raised, templates_at

CODE = """\
def count(n, m):
    raise ValueError(f"got {n:d} items, {m=:d}, padded {n:>3d}")
"""


def test_a_d_spec_types_the_hole_as_digits() -> None:
    ((display, template),) = templates_at(CODE, "raise ValueError").items()
    assert display == "got {n:d} items, {m=:d}, padded {n:>3d}"
    assert [h.kind for h in template.holes] == ["int", "int", ""]
    printed = str(raised(CODE, "count(12, -3)"))
    assert printed == "got 12 items, m=-3, padded  12"
    assert template.match(printed) == {"n": "12", "m": "-3"}
    assert template.match("got twelve items, m=-3, padded  12") is None
