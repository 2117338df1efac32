"""Solutions on real code: no requirement through a special method nobody calls by name.

In CPython 3.11, ``io.__getattr__(name)`` warns when ``name == 'OpenWrapper'`` (reached
by ``io.OpenWrapper``) and ``cgi.FieldStorage.__getattr__(name)`` raises
``AttributeError`` when ``name != 'value'`` (any missing attribute): "pass `name` to
`__getattr__()`" names a call no user writes, and for ``cgi`` says the opposite of what
to do. ``tarfile.TarFile.taropen`` is called by name and keeps its requirement.
"""

from __future__ import annotations

import pytest

from .stdlib_items import ON_311, Item, stdlib_items

pytestmark = ON_311


@pytest.fixture(scope="module")
def items() -> list[Item]:
    return stdlib_items("io.py", "cgi.py", "tarfile.py")


def texts(items: list[Item], qualname: str) -> list[str]:
    found = [
        [*r["solutions"], *r["preventionTips"]]
        for r, e in items
        if e["site"]["qualname"] == qualname
    ]
    assert found, qualname
    return [t for group in found for t in group]


@pytest.mark.parametrize("qualname", ["io.__getattr__", "cgi.FieldStorage.__getattr__"])
def test_no_requirement_through_getattr(items: list[Item], qualname: str) -> None:
    for text in texts(items, qualname):
        assert "__getattr__()`" not in text, text


def test_a_method_called_by_name_keeps_its_requirement(items: list[Item]) -> None:
    assert any(
        t.startswith("Pass `mode` to `TarFile.taropen()` as one of `'r'`, `'a'`, `'w'` or `'x'`:")
        for t in texts(items, "tarfile.TarFile.taropen")
    )
