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
        "Triggered under a condition on private attributes of what was passed as `klass`."
    ), trigger
    assert "internal" not in trigger and "_set_" not in trigger
    # a private attribute of a module global is not the passed ``child``'s
    other = str(_records(tmp_path)["bad kind"]["triggerScenarios"])
    assert other.startswith("Triggered under an internal condition of `settings.add_node`."), other
