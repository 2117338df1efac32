"""A hook sentence only where the attribute the caller calls through can hold the
override's class (read-only review, session 38: ``self._meter = Meter()`` was said to be
a ``Strict``)."""

from __future__ import annotations

from pathlib import Path

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Base:
    def check(self, value):
        return value


class Strict(Base):
    def check(self, value):
        if value < 0:
            raise ValueError("value must not be negative")
        return value


class Loose(Base):
    def check(self, value):
        if value > 10:
            raise ValueError("value too large")
        return value


class Meter:
    def check(self, value):
        return True


class Holder:
    def __init__(self):
        self._meter = Meter()

    def run(self, value):
        return self._meter.check(value)


class Panel:
    def __init__(self, meter):
        self._meter = meter

    def show(self, value):
        return self._meter.check(value)


class Gate:
    def __init__(self):
        self._rule = Strict()

    def open(self, value):
        return self._rule.check(value)


_RULES = {"strict": (Strict, 0), "base": (Base, 1)}


class Table:
    def __init__(self, kind="base"):
        self._rule = _RULES[kind][0]()

    def apply(self, value):
        return self._rule.check(value)


class Chooser:
    def __init__(self, rule=None):
        self._rule = Base() if rule is None else rule

    def pick(self, value):
        return self._rule.check(value)
"""


def _said(tmp_path: Path) -> dict[str, str]:
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    (tmp_path / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(tmp_path), repo="o/hh"), repo="o/hh")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_only_holders_that_can_hold_the_override_are_named(tmp_path: Path) -> None:
    said = _said(tmp_path)
    strict = said["value must not be negative"]
    # ``Holder`` holds a ``Meter`` and ``Panel`` whatever it is given: neither is said
    assert "Holder.run" not in strict and "Panel.show" not in strict
    # ``Gate`` builds a ``Strict``; ``Chooser`` a ``Base`` a parameter may replace
    assert strict.startswith("It comes from a call of `")
    assert "where the object it calls `check` on is a `Strict`" in strict
    loose = said["value too large"]
    assert "Gate.open" not in loose and "Holder.run" not in loose
    assert loose.startswith("It comes from a call of `Chooser.pick()` where the object")
    assert "Table.apply" not in loose  # the table holds Strict and Base, never a Loose


def test_a_class_a_parameter_picks_from_a_table(tmp_path: Path) -> None:
    """``logging.Formatter``: ``self._style = _STYLES[style][0](fmt)``."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    only_table = LIBRARY.replace("class Gate:", "class _Gate:").replace(
        "class Chooser:", "class _Chooser:"
    )
    (tmp_path / "pkg" / "core.py").write_text(only_table)
    result = scan_checkout(open_source(str(tmp_path), repo="o/ht"), repo="o/ht")
    said = {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}
    assert said["value must not be negative"].startswith(
        "It comes from a call of `Table.apply()` where the object it calls `check` on is a `Strict`"
    )


def test_a_dropped_hook_falls_back_to_the_next_sentence(tmp_path: Path) -> None:
    """Not "the object it calls `check` on is a `Strict`": the call of the method itself."""
    (tmp_path / "pkg").mkdir()
    (tmp_path / "pkg" / "__init__.py").write_text("")
    only_meter = LIBRARY.split("class Panel:")[0]
    (tmp_path / "pkg" / "core.py").write_text(only_meter)
    result = scan_checkout(open_source(str(tmp_path), repo="o/hf"), repo="o/hf")
    said = {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}
    assert said["value must not be negative"].startswith(
        "It comes from a call of `Strict.check()` that passes `value` as a negative value"
    )
