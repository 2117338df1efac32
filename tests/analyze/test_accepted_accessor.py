"""A type list is never said as a call of a property's setter one hop up: ``obj.val = v``
runs it, so "Pass `v` to `Box.val()`" names no call a user writes (rr8, a read-only
review)."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from .stdlib_items import one_file_items

SOURCE = textwrap.dedent(
    """\
    __all__ = ["Box"]


    def _check(v):
        if isinstance(v, int):
            return v
        raise TypeError("bad")


    class Box:
        @property
        def val(self):
            return self._v

        @val.setter
        def val(self, v):
            self._v = _check(v)
    """
)


def test_the_setter_runs_on_assignment() -> None:
    space: dict[str, object] = {}
    exec(compile(SOURCE, "m.py", "exec"), space)
    box = space["Box"]()  # type: ignore[operator]
    with pytest.raises(TypeError):
        box.val = "x"


def test_no_call_of_a_setter_is_named(tmp_path: Path) -> None:
    (record,) = [
        r for r, _ in one_file_items(tmp_path, "m.py", SOURCE) if r["errorMessage"] == "bad"
    ]
    said = " ".join(record["solutions"])
    assert "`Box.val()`" not in said, said
