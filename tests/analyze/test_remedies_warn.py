"""The solution of a warning: a call goes on after it, unless the next statement raises
(``random.randrange`` warns, then raises ValueError: blind review at stop 30, record 25)."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

WARNS = """
import warnings


def _index(value):
    return value.__index__()


def shrink(step):
    try:
        istep = _index(step)
    except TypeError:
        istep = int(step)
        if istep != step:
            warnings.warn(
                "shrink() will raise TypeError in the future",
                DeprecationWarning,
                2,
            )
            # the old behaviour is gone
            raise ValueError("non-integer step for shrink()")
    return istep


def grow(step):
    if _index(step) < 0:
        warnings.warn("negative steps are deprecated", DeprecationWarning, 2)
        step = -step
    return step
"""


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    items = one_file_items(tmp_path, "steps.py", WARNS)
    return {e["site"]["qualname"]: r["solutions"] for r, e in items if e["site"]["kind"] == "warn"}


def test_a_warning_followed_by_a_raise_does_not_go_on(tmp_path: Path) -> None:
    (solution, *_) = _solutions(tmp_path)["steps.shrink"]
    line = WARNS.splitlines().index('            raise ValueError("non-integer step for shrink()")')
    assert "goes on after it" not in solution
    assert f"does not go on after it: the next statement raises `ValueError` (line {line + 1})" in (
        solution
    )


def test_a_warning_followed_by_other_code_goes_on(tmp_path: Path) -> None:
    (solution, *_) = _solutions(tmp_path)["steps.grow"]
    assert "goes on after it is issued" in solution
    assert "raises" not in solution


@ON_311
def test_random_randrange_warns_then_raises() -> None:
    items = stdlib_items("random.py")
    (solutions,) = [
        r["solutions"] for r, e in items if r["lineNumber"] == 334 and e["site"]["kind"] == "warn"
    ]
    assert "the next statement raises `ValueError` (line 336)" in solutions[0]
