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


SCOPED = (
    "def serialize(x):\n"
    '    raise TypeError(f"Type {type(x)} cannot be serialized.")\n'
    "\n"
    "cdef class Log:\n"
    "    cpdef _append(self, int domain, int type):\n"
    '        raise ValueError(f"bad {type(domain)}")\n'
)


def test_a_binding_in_one_function_leaves_the_others_typed() -> None:
    """lxml's etree.pyx binds ``type`` as a parameter of one method: only that method's
    holes are open, so ``serialize``'s still admits only a class repr."""
    sites = {s.line: s.template for s in extract_cython(SCOPED, "m.pyx")}
    assert sites[2].match("Type <class 'int'> cannot be serialized.") is not None
    assert sites[2].match("Type int cannot be serialized.") is None
    assert sites[6].match("bad 3") is not None  # type is the int parameter there


def test_a_module_level_binding_opens_every_hole() -> None:
    sites = extract_cython("type = len\n" + SCOPED, "m.pyx")
    assert all(s.template.match("Type 3 cannot be serialized.") is not None for s in sites[:1])
