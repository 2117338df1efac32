"""A typing object used as a class or subscripted: the fix is to use it as an annotation.

Mirrors CPython 3.11's ``typing``: ``_SpecialForm.__instancecheck__`` raises for every
object, ``_AnyMeta.__instancecheck__`` when the class is ``Any``, and ``Self`` (run by
``@_SpecialForm`` for ``Self[...]``) raises "{self} is not subscriptable" (checked:
``typing.Self[int]``, ``isinstance(1, typing.Any)`` and ``issubclass(int, typing.Union)``
raise those TypeErrors). A plain function raising the same words is no special form.
"""

from __future__ import annotations

from pathlib import Path

from .stdlib_items import one_file_items

SOURCE = """
class _SpecialForm:
    def __init__(self, getitem):
        self._getitem = getitem

    def __getitem__(self, parameters):
        return self._getitem(self, parameters)

    def __instancecheck__(self, obj):
        raise TypeError(f"{self} cannot be used with isinstance()")

    def __subclasscheck__(self, cls):
        raise TypeError(f"{self} cannot be used with issubclass()")


@_SpecialForm
def Self(self, parameters):
    raise TypeError(f"{self} is not subscriptable")


def lookup(self, parameters):
    raise TypeError(f"{self} is not subscriptable")
"""


def _solutions(tmp_path: Path) -> dict[int, list[str]]:
    items = one_file_items(tmp_path, "m.py", SOURCE)
    return {r["lineNumber"]: r["solutions"] for r, _ in items}


def test_isinstance_and_issubclass_with_a_special_form(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    assert found[10][0].startswith(
        "Do not pass this object to `isinstance()` as the class to test against: "
        "`_SpecialForm.__instancecheck__` raises `TypeError` for every object"
    )
    assert found[13][0].startswith("Do not pass this object to `issubclass()`")


def test_a_special_form_that_takes_no_parameters(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    assert found[18] == [
        "Write `Self` on its own, without brackets: `Self[...]` raises `TypeError` on every "
        "use, as `Self` takes no parameters."
    ]
    assert not found[22][0].startswith("Write ")  # no special form runs it
