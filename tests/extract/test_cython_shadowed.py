"""A Cython module that binds ``type``/``str``/``repr`` keeps its ``{type(x)}`` holes any
text, as a Python module does (extract/cython/shadowed.py): with ``def f(x, type=len)`` the
hole prints ``3``, not ``<class 'str'>``. Struct fields and ``cdef class`` attributes bind
no name, so they keep the hole typed."""

from __future__ import annotations

import pytest

from errdex.extract.cython import extract_cython
from errdex.extract.cython.parse import parse_cython
from errdex.extract.cython.shadowed import cython_binds_any
from errdex.extract.python.shadowed import CLASS_PRINTERS

SHADOWED = 'def f9(x, type=len):\n    raise TypeError(f"bad {type(x)}")\n'
PLAIN = 'def f9(x):\n    raise TypeError(f"bad {type(x)}")\n'


def test_a_shadowed_type_keeps_the_hole_any_text() -> None:
    (site,) = extract_cython(SHADOWED, "m.pyx")
    assert site.template.match("bad 3") is not None  # what f9('abc') prints


def test_the_builtin_type_types_the_hole() -> None:
    (site,) = extract_cython(PLAIN, "m.pyx")
    assert site.template.match("bad <class 'str'>") is not None
    assert site.template.match("bad 3") is None


@pytest.mark.parametrize(
    ("source", "binds"),
    [
        ("def g(y):\n    cdef int str = 3\n", True),
        ("def g(y):\n    for repr in y:\n        pass\n", True),
        ("from m import a as type\n", True),
        ("try:\n    pass\nexcept E as repr:\n    pass\n", True),
        ("a, (b, type) = 1, (2, 3)\n", True),
        ("x = [type for type in y]\n", True),
        ("cdef class A:\n    def m(self, type):\n        pass\n", True),
        ("cdef struct S:\n    int type\n", False),
        ("cdef class A:\n    cdef public int type\n", False),
        ("obj.type = 1\nf(type=1)\n", False),
        ("def f(x):\n    return str(type(x))\n", False),
        # a base type names the type used, binding nothing (lxml: ``def f(str s)``)
        ("def f(str s):\n    pass\n", False),
        ('cdef str x = "a"\n', False),
        ("cdef object f(type t):\n    pass\n", False),
        ("cdef object f(int type):\n    pass\n", True),
    ],
)
def test_bindings_read_from_cythons_tree(source: str, binds: bool) -> None:
    assert cython_binds_any(parse_cython(source), CLASS_PRINTERS) is binds
