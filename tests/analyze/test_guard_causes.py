"""A private condition no rule restates is named as an internal one, not printed."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SETTERS = """\
def set_option(klass, name):
    if not hasattr(klass, "_set_" + name):
        raise AttributeError(name)
    return name


def _helper(klass, name):
    if not hasattr(klass, "_get_" + name):
        raise AttributeError(name)
    return name


def get_option(klass, name):
    return _helper(klass, name)
"""


def test_a_function_s_private_condition_is_named_as_internal(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "setters.py", SETTERS)
    found = {r["lineNumber"]: r for r, _ in items}
    trigger = found[3]["triggerScenarios"]
    assert trigger.startswith("Triggered under an internal condition of `setters.set_option`.")
    assert "_set_" not in trigger + found[3]["documentation"]
    helper = found[9]["triggerScenarios"]  # a private owner is not named: the line is
    assert "under an internal condition of the raising function (line 9)" in helper, helper
