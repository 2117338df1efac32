"""Holes that print a class (``{type(x)}``, C's ``%R`` of ``Py_TYPE(x)``) admit only a
class's repr, as the runtime prints it."""

from __future__ import annotations

import re
import textwrap

from errdex.extract.c import extract_c
from errdex.extract.class_holes import typed_class_holes
from errdex.extract.cython import extract_cython
from errdex.template import Hole, MessageTemplate

PYX = textwrap.dedent(
    """\
    def serialize(element, child, s):
        if element is None:
            raise TypeError, f"Type '{type(element)}' cannot be serialized."
        if child is None:
            raise TypeError(f"Invalid child type: {type(child)!r} in {child.__class__}")
        if s is None:
            raise TypeError("expected str, got " + str(type(s)))
        raise TypeError(f"got {type(s).__name__} of {s}")
    """
)
C = textwrap.dedent(
    """\
    static PyObject *f(PyObject *self, PyObject *x) {
        if (x == NULL) {
            PyErr_Format(PyExc_TypeError, "expected bytes, got %R", (PyObject *)Py_TYPE(x));
            return NULL;
        }
        PyErr_Format(PyExc_TypeError, "expected bytes, got %S of %R", x->ob_type, x);
        return NULL;
    }
    """
)


def _fits(pattern: str, message: str) -> bool:
    return re.fullmatch(pattern, message) is not None


def test_a_cython_hole_of_a_class_admits_only_a_class_repr() -> None:
    sites = extract_cython(PYX, "pkg/ser.pyx")
    kinds = [[p.kind for p in s.template.parts if isinstance(p, Hole)] for s in sites]
    assert kinds == [["class_repr"], ["class_repr", "class_repr"], ["class_repr"], ["", ""]]
    pattern = sites[0].template.pattern
    assert _fits(pattern, "Type '<class 'int'>' cannot be serialized.")
    assert _fits(pattern, "Type '<enum 'Color'>' cannot be serialized.")
    assert not _fits(pattern, "Type 'int' cannot be serialized.")
    assert not _fits(sites[2].template.pattern, "expected str, got 12")
    assert sites[0].template.display == "Type '{type(element)}' cannot be serialized."


def test_a_c_conversion_of_a_type_admits_only_a_class_repr() -> None:
    sites = extract_c(C, "pkg/mod.c")
    kinds = [[p.kind for p in s.template.parts if isinstance(p, Hole)] for s in sites]
    assert kinds == [["class_repr"], ["class_repr", ""]]
    assert _fits(sites[0].template.pattern, "expected bytes, got <class 'str'>")
    assert not _fits(sites[0].template.pattern, "expected bytes, got 'abc'")


def test_an_expression_around_a_class_is_not_a_class() -> None:
    for text in ("{type(a) + str(b)}", "{type(x):>9}", "{type(x).__name__}", "{kind(x)}"):
        template = typed_class_holes(MessageTemplate([Hole(text, text[1:-1])]))
        assert template.parts[0] == Hole(text, text[1:-1]), text
    c_hole = MessageTemplate([Hole("%R", "Py_TYPE(a) == b")])
    assert typed_class_holes(c_hole, "c") == c_hole


def test_a_precision_cuts_the_class_repr_so_the_hole_stays_untyped() -> None:
    """``%.5R`` of ``Py_TYPE(x)`` prints ``<clas``: a typed hole would refuse the message."""
    text = 'void f(PyObject *x) {\n    PyErr_Format(PyExc_TypeError, "got %.5R", Py_TYPE(x));\n}\n'
    (site,) = extract_c(text, "pkg/mod.c")
    assert [p.kind for p in site.template.parts if isinstance(p, Hole)] == [""]
    assert _fits(site.template.pattern, "got <clas")
