"""A private condition no rule restates is printed as code: naming it "an internal
condition" or "the internal state of its object" was judged misleading in all 14
statements of the stop-37 paired blind review that showed it, where the code was judged
true in 10 of them."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SETTINGS = """\
settings = object()


def check():
    if not hasattr(settings, "_ready"):
        raise AttributeError("settings not ready")


def _helper():
    if not hasattr(settings, "_loaded"):
        raise AttributeError("settings not loaded")


def load():
    return _helper()


def set_option(klass, name):
    if not hasattr(klass, "_set_" + name):
        raise AttributeError(name)
    return name


def add_node(child):
    if child.kind not in settings._kinds:
        raise TypeError("bad kind")
    return child
"""


def _records(tmp_path: Path) -> dict[str, dict[str, object]]:
    items = one_file_items(tmp_path, "settings.py", SETTINGS)
    return {str(r["errorMessage"]): r for r, _ in items}


def test_a_private_condition_is_printed_as_code(tmp_path: Path) -> None:
    found = _records(tmp_path)
    trigger = str(found["settings not ready"]["triggerScenarios"])
    assert trigger.startswith('Triggered when `not hasattr(settings, "_ready")`.'), trigger
    assert "internal" not in trigger
    assert "internal" not in str(found["settings not loaded"]["triggerScenarios"])
    trigger = str(_records(tmp_path)["{name}"]["triggerScenarios"])
    assert trigger.startswith('Triggered when `not hasattr(klass, "_set_" + name)`.'), trigger


MIXED = """\
class _Err(Exception):
    pass


class Sem:
    def __init__(self, value=1):
        self._value = value
        self._initial_value = value

    def release(self, n=1):
        if self._value + n > self._initial_value:
            raise ValueError("Semaphore released too many times")

    def lookup(self, name):
        if name in self._name_parser_map:
            raise KeyError(name)

    def convert(self, proxy, strict=False):
        scheme = proxy.strip()
        if self._mode and strict:
            try:
                self._convert(scheme)
            except TypeError:
                raise ValueError("bad")

    def _convert(self, v):
        return int(v)


class E:
    _ready = False

    def __init__(self):
        self._ready = True

    def go(self, items):
        try:
            items.pop()
        except IndexError:
            if not self._ready:
                raise RuntimeError("empty and not ready")


def _conv(v):
    raise _Err(v)


def parse(data):
    _val = data.strip()
    try:
        _conv(_val)
    except _Err:
        raise ValueError("bad data")
"""


def test_the_caller_s_part_of_a_mixed_condition_is_kept(tmp_path: Path) -> None:
    """``self._value + n > self._initial_value`` (threading.Semaphore.release) and
    ``name in self._name_parser_map`` (argparse): the caller's ``n`` and ``name`` are
    part of the case: the condition is printed whole (re-reader, stop 38)."""
    items = one_file_items(tmp_path, "mix.py", MIXED)
    said = {r["lineNumber"]: r["triggerScenarios"] for r, _ in items}
    assert said[12].startswith("Triggered when `self._value + n > self._initial_value`."), said
    assert "`name in self._name_parser_map`" in said[16], said
    assert "`strict`" in said[24]


def test_an_init_cause_keeps_the_other_guards(tmp_path: Path) -> None:
    """Under ``except IndexError`` the init cause is said after what was caught, not
    instead of it (c_E, re-reader stop 38)."""
    items = one_file_items(tmp_path, "mix.py", MIXED)
    (said,) = [r["triggerScenarios"] for r, _ in items if r["lineNumber"] == 41]
    assert "after `items.pop()` raised `IndexError`" in said
    assert "the `E` object's `__init__` did not run" in said


def test_private_names_stay_out_of_the_conversion_prose(tmp_path: Path) -> None:
    """ "made into `_val` … raise `_Err`" named two private names (pv.py, stop 38)."""
    items = one_file_items(tmp_path, "mix.py", MIXED)
    (said,) = [r["triggerScenarios"] for r, _ in items if r["lineNumber"] == 53]
    assert "what was passed as `data` makes the call at line 51 fail" in said
    assert "_val" not in said and "_Err" not in said
