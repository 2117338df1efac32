"""A catch is never placed around a call that only stores a generator (``Reader()``),
and no handler goes around an ``async def`` that uses one in a way not read (rr8, a read-only
review: "Catch ValueError around the call to Reader()" and "around the call to load()";
run here, neither call raises)."""

from __future__ import annotations

import asyncio
import textwrap
from pathlib import Path

import pytest

from .stdlib_items import one_file_items

SOURCE = textwrap.dedent(
    """\
    __all__ = ["Reader", "load"]


    def _gen(n):
        for i in range(n):
            if i > 3:
                raise ValueError("too many")
            yield i


    class Reader:
        def __init__(self, n):
            self._it = _gen(n)

        def __iter__(self):
            return self._it


    def _keys(n):
        for i in range(n):
            if i > 3:
                raise KeyError("many")
            yield i


    async def load(n):
        items = _keys(n)
        return list(items)
    """
)


def test_the_calls_really_raise_nothing(tmp_path: Path) -> None:
    space: dict[str, object] = {}
    exec(compile(SOURCE, "m.py", "exec"), space)
    reader = space["Reader"](9)  # type: ignore[operator]
    with pytest.raises(ValueError):
        list(reader)
    coroutine = space["load"](9)  # type: ignore[operator]
    with pytest.raises(KeyError):
        asyncio.run(coroutine)


def test_no_handler_around_a_call_that_only_stores_or_makes(tmp_path: Path) -> None:
    found = {
        r["errorMessage"]: " ".join(r["solutions"])
        for r, _ in one_file_items(tmp_path, "m.py", SOURCE)
    }
    assert "around the call to `Reader()`" not in found["too many"], found["too many"]
    assert "around the call to `load()`" not in found["'many'"], found["'many'"]
