"""A call a caller makes only under a flag of its own state carries that flag.

Mirrors CPython 3.11's ``asyncio.base_events``: ``call_soon`` checks its callback only
``if self._debug:``, yet the record of ``_check_callback``'s ``TypeError`` said
``call_soon(1)`` raises it (blind review 2026-12-06: the debug condition on the way was
dropped). The flag is said with the entry point, the trigger and the solution; an entry
point that calls with no flag first is preferred for the requirement.
"""

from __future__ import annotations

import ast
from pathlib import Path

from errdex.analyze.callsites import call_sites
from errdex.analyze.flag_words import DEBUG_MODE

from .stdlib_items import ON_311, Item, one_file_items, stdlib_items

LOOP = '''
class BaseEventLoop:
    def __init__(self):
        self._debug = False

    def set_debug(self, enabled):
        self._debug = enabled

    def _check_callback(self, callback):
        if not callable(callback):
            raise TypeError("a callable object was expected")

    def call_soon(self, callback, *args):
        """Arrange for a callback to be called as soon as possible."""
        if self._debug:
            self._check_callback(callback)
        return callback
'''

POOL = '''
class Pool:
    def __init__(self):
        self._strict = False

    def _check(self, item):
        if item is None:
            raise ValueError("no item")

    def put(self, item):
        """Put an item."""
        if self._strict:
            self._check(item)

    def add(self, item):
        """Add an item."""
        self._check(item)
'''


def _records(tmp_path: Path, name: str, text: str) -> list[Item]:
    if "/" in name:
        (tmp_path / name).parent.mkdir()
        (tmp_path / name).parent.joinpath("__init__.py").write_text("")
    return one_file_items(tmp_path, name, text)


def test_the_call_keeps_the_flag_it_is_made_under() -> None:
    func = ast.parse(POOL).body[0].body[2]  # type: ignore[attr-defined]
    sites, _ = call_sites(func)
    assert [(s.ref, s.when) for s in sites] == [(("self", "_check"), "self._strict")]
    add = ast.parse(POOL).body[0].body[3]  # type: ignore[attr-defined]
    assert [s.when for s in call_sites(add)[0]] == [None]


def test_debug_mode_is_said_for_call_soon(tmp_path: Path) -> None:
    [(record, _)] = _records(tmp_path, "asyncio/base_events.py", LOOP)
    trigger = str(record["triggerScenarios"])
    assert trigger.startswith(
        "Triggered when the arguments passed to `BaseEventLoop.call_soon()` make "
        "`not callable(callback)` true (`callback` reaches the check unchanged), "
        f"{DEBUG_MODE}."
    )
    assert (
        f"`asyncio.base_events.BaseEventLoop.call_soon`, which calls it directly, {DEBUG_MODE}"
        in trigger
    )
    assert record["solutions"][0].endswith(f"when `not callable(callback)`, {DEBUG_MODE}.")


def test_an_ungated_entry_point_is_preferred(tmp_path: Path) -> None:
    [(record, _)] = _records(tmp_path, "pool.py", POOL)
    trigger = str(record["triggerScenarios"])
    assert trigger.startswith(
        "Triggered when the arguments passed to `Pool.add()` make `item is None` true "
        "(`item` reaches the check unchanged)."
    )
    assert (
        "`pool.Pool.put`, which calls it directly, only when `self._strict` holds in `Pool.put`"
        in trigger
    )


@ON_311
def test_the_stdlib_record_of_check_callback() -> None:
    found = [
        r
        for r, _ in stdlib_items("asyncio/base_events.py")
        if r["errorMessage"].startswith("a callable object was expected by")
    ]
    assert found
    for record in found:
        trigger = str(record["triggerScenarios"])
        # call_soon, call_soon_threadsafe and run_in_executor all check under ``if self._debug:``
        assert (
            f"make `not callable(callback)` true (`callback` reaches the check unchanged), {DEBUG_MODE}."
            in trigger
        )
        assert f"when `not callable(callback)`, {DEBUG_MODE}." in record["solutions"][0]
        assert (
            f"`asyncio.base_events.BaseEventLoop.call_soon`, which calls it directly, {DEBUG_MODE}"
            in trigger
        )


TWICE = '''
class Reader:
    def __init__(self):
        self._first = None
        self._loaded = False

    def _next(self, n):
        if n < 0:
            raise ValueError("negative count")

    def scan(self, n):
        """Scan n items."""
        if self._first is not None:
            self._next(n)
        if not self._loaded:
            self._next(n)
'''


def test_no_flag_where_another_call_is_made_under_another(tmp_path: Path) -> None:
    """``TarFile.__iter__`` calls ``next()`` under ``if self.firstmember is not None`` and
    again under ``elif not self._loaded``: neither flag alone is a condition of the raise."""
    [(record, _)] = _records(tmp_path, "reader.py", TWICE)
    trigger = str(record["triggerScenarios"])
    assert "`reader.Reader.scan`, which calls it directly." in trigger
    assert "only when" not in trigger
