"""An abstract method's record says where its class gets ``ABCMeta``, as the source
writes it: "(an `abc.ABC` subclass)" of ``numbers.Integral`` was false (stop-37 paired
blind review), since ``numbers.Number`` is ``class Number(metaclass=ABCMeta)``."""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import ON_311, one_file_items, stdlib_items

NUMS = """\
import abc
from abc import ABCMeta, abstractmethod


class Number(metaclass=ABCMeta):
    pass


class Integral(Number):
    @abstractmethod
    def __invert__(self):
        raise NotImplementedError


class Shape(abc.ABC):
    @abstractmethod
    def area(self):
        raise NotImplementedError


class Plain:
    @abstractmethod
    def size(self):
        raise NotImplementedError
"""


def _triggers(tmp_path: Path) -> dict[int, str]:
    items = one_file_items(tmp_path, "nums.py", NUMS)
    return {int(r["lineNumber"]): str(r["triggerScenarios"]) for r, _ in items}


def test_a_metaclass_base_is_named_not_called_an_abc_subclass(tmp_path: Path) -> None:
    trigger = _triggers(tmp_path)[12]
    assert "an `abc.ABC` subclass" not in trigger
    assert (
        "under `ABCMeta` (`Number`, a base of `Integral`, is declared with "
        "`metaclass=ABCMeta`) a subclass of `Integral`" in trigger
    ), trigger


def test_an_abc_base_is_named_and_a_missing_one_is_said(tmp_path: Path) -> None:
    found = _triggers(tmp_path)
    assert "under `ABCMeta` (`Shape` derives from `abc.ABC`)" in found[18], found[18]
    assert "errdex found no `abc.ABC` base nor `metaclass=ABCMeta`" in found[24], found[24]


@ON_311
def test_numbers_integral_in_the_stdlib() -> None:
    (record,) = [
        r
        for r, _ in stdlib_items("numbers.py")
        if r["filePath"] == "Lib/numbers.py" and r["lineNumber"] == 376
    ]  # Integral.__invert__
    assert "(`Number`, a base of `Integral`, is declared with `metaclass=ABCMeta`)" in str(
        record["documentation"]
    )


DERIVED = """\
from abc import ABCMeta, abstractmethod


class Meta(ABCMeta):
    pass


class Base(metaclass=Meta):
    @abstractmethod
    def run(self):
        raise NotImplementedError


class Other(type):
    pass


class Loose(metaclass=Other):
    @abstractmethod
    def run(self):
        raise NotImplementedError
"""


def test_a_metaclass_derived_from_abcmeta_is_followed(tmp_path: Path) -> None:
    items = one_file_items(tmp_path, "derived.py", DERIVED)
    found = {int(r["lineNumber"]): str(r["triggerScenarios"]) for r, _ in items}
    assert (
        "under `ABCMeta` (`Base` is declared with `metaclass=Meta`, which derives from "
        "`ABCMeta`) a subclass of `Base`" in found[11]
    ), found[11]
    assert "errdex found no `abc.ABC` base nor `metaclass=ABCMeta`" in found[21], found[21]
