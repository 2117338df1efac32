"""``"…%s" % type(x)`` in a ``.pyx`` or ``.py`` raise prints the class's repr, as
``str(type(x))`` does (checked against a Cython 3.3.1 build: ``bad type <class 'int'>``;
Python prints the same)."""

from __future__ import annotations

import textwrap

import pytest

from errdex.extract.cython import extract_cython
from errdex.extract.python import extract_python
from errdex.template import MessageTemplate

PYX = textwrap.dedent(
    """\
    cdef check(x):
        if x is None:
            raise TypeError("bad type %s" % type(x))
        if x == 1:
            raise TypeError('bad %r' % (x.__class__,))
        if x == 2:
            raise TypeError('bad %r' % (x,))
        raise TypeError('%s is not %.3s' % (type(x), type(x)))
    """
)


#: The same raises as a plain Python module (``cdef`` -> ``def``).
PY = PYX.replace("cdef check", "def check")


def _by_line(suffix: str) -> dict[int, MessageTemplate]:
    if suffix == ".pyx":
        return {s.line: s.template for s in extract_cython(PYX, "pkg/m.pyx")}
    return {s.line: s.template for s in extract_python(PY, "pkg/m.py")}


#: Both readers share :mod:`errdex.extract.percent_class`.
both = pytest.mark.parametrize("suffix", [".pyx", ".py"])


@both
def test_a_percent_hole_of_a_class_admits_only_the_class_repr(suffix: str) -> None:
    templates = _by_line(suffix)
    for line, runtime, other in (
        (3, "bad type <class 'int'>", "bad type int"),
        (5, "bad <class 'pkg.m.Thing'>", "bad 'x'"),
    ):
        template = templates[line]
        assert template.match(runtime) is not None, line
        assert template.match(other) is None, line


@both
def test_any_other_percent_hole_stays_open(suffix: str) -> None:
    """``%r`` of a value prints its repr; ``%.3s`` prints a class's first three
    characters (``<cl``): neither is a class's repr."""
    templates = _by_line(suffix)
    assert templates[7].match("bad 'x'") is not None
    last = templates[8]
    assert last.match("<class 'str'> is not <cl") is not None
    assert last.match("a is not <cl") is None
    assert last.match("<class 'str'> is not abc") is not None


STRINGS = textwrap.dedent(
    """\
    cdef check(x):
        if x is None:
            raise TypeError('bad %r' % str(type(x)))
        raise TypeError('bad %s' % repr(x.__class__))
    """
)


@both
def test_r_of_the_string_of_a_class_is_a_quoted_string(suffix: str) -> None:
    """``"bad %r" % str(type(x))`` prints ``bad "<class 'int'>"`` (the string's repr);
    only ``%s`` prints str()/repr() of a class as the class's repr."""
    if suffix == ".pyx":
        sites = extract_cython(STRINGS, "pkg/m.pyx")
    else:
        sites = extract_python(STRINGS.replace("cdef check", "def check"), "pkg/m.py")
    templates = {s.line: s.template for s in sites}
    quoted = "bad %r" % str(int)  # noqa: UP031 (the form under test)
    assert quoted == "bad \"<class 'int'>\""
    assert templates[3].match(quoted) is not None
    assert templates[4].match("bad <class 'int'>") is not None
    assert templates[4].match("bad int") is None
