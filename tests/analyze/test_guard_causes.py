"""A private condition no rule restates is named as an internal one, or as private
attributes of what was passed, not printed as code."""

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


def test_a_function_s_private_condition_is_named_as_internal(tmp_path: Path) -> None:
    found = _records(tmp_path)
    trigger = str(found["settings not ready"]["triggerScenarios"])
    assert trigger.startswith("Triggered under an internal condition of `settings.check`.")
    assert "_ready" not in trigger + str(found["settings not ready"]["documentation"])
    helper = str(found["settings not loaded"]["triggerScenarios"])  # a private owner is
    assert "under an internal condition of the raising function (line 11)" in helper, helper


def test_a_parameter_s_private_attribute_is_not_internal(tmp_path: Path) -> None:
    """``_pydecimal.Decimal.quantize``'s ``exp._exp``: what was passed decides."""
    trigger = str(_records(tmp_path)["{name}"]["triggerScenarios"])
    assert trigger.startswith(
        "Triggered under a condition on what was passed as `name` and private attributes of"
        " what was passed as `klass`."
    ), trigger
    assert "internal" not in trigger and "_set_" not in trigger
    # a private attribute of a module global is not the passed ``child``'s
    other = str(_records(tmp_path)["bad kind"]["triggerScenarios"])
    assert other.startswith(
        "Triggered under a condition on what was passed as `child` and an internal condition"
        " of `settings.add_node`."
    ), other


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
    part of the case, said beside "internal state" (re-reader, stop 38)."""
    items = one_file_items(tmp_path, "mix.py", MIXED)
    said = {r["lineNumber"]: r["triggerScenarios"] for r, _ in items}
    assert "what was passed as `n` and the internal state of its `Sem` object" in said[12]
    assert "what was passed as `name` and the internal state of its `Sem` object" in said[16]
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
