"""Exceptions a Cython helper returns, found through a ``cdef class``'s base, and the
message of a class of the module whose base comes from another one (lxml's xpath.pxi)."""

from __future__ import annotations

import textwrap

from errdex.extract.cython import extract_cython
from errdex.extract.cython.returns import builtin_rooted

XPATH = textwrap.dedent(
    """\
    class XPathSyntaxError(LxmlSyntaxError, XPathError):
        pass

    class LocalError(ValueError):
        pass

    cdef class _XPathEvaluatorBase:
        cdef _build_parse_error(self):
            return XPathSyntaxError(
                self._error_log._buildExceptionMessage("Error in xpath expression"),
                self._error_log)

    cdef class XPath(_XPathEvaluatorBase):
        def __init__(self, path):
            if self._xpath is NULL:
                raise self._build_parse_error()
            raise LocalError("bad", path)
    """
)


def test_a_helper_a_cdef_base_class_defines_gives_its_class() -> None:
    sites = [s for s in extract_cython(XPATH, "lxml/xpath.pyx") if s.line == 16]
    assert sites and {s.error_class for s in sites} == {"XPathSyntaxError"}


def test_a_class_with_a_base_from_elsewhere_may_print_its_arguments_its_own_way() -> None:
    """``XPathSyntaxError(message, log)`` prints ``message`` alone in lxml (its base's
    ``__init__``): besides the tuple Python's rules give, the site is one value."""
    shown = {s.template.display for s in extract_cython(XPATH, "lxml/xpath.pyx") if s.line == 16}
    assert any(t.startswith("({") for t in shown)
    assert any(t.startswith("{XPathSyntaxError(") for t in shown)
    local = {s.template.display for s in extract_cython(XPATH, "lxml/xpath.pyx") if s.line == 17}
    assert local == {"('bad', {path})"}  # derived from builtins only: Python's rules hold


def test_builtin_rooted() -> None:
    bases: dict[str, list[str | None]] = {
        "A": ["ValueError"],
        "B": ["A"],
        "C": ["LxmlError"],
        "D": ["B", None],
    }
    assert builtin_rooted("A", bases) and builtin_rooted("B", bases)
    assert not builtin_rooted("C", bases) and not builtin_rooted("D", bases)
    # a class the module lists no bases for (a cdef class, one an include defines) may
    # print its arguments its own way: not rooted, as when it is a listed class's base
    assert not builtin_rooted("Unlisted", bases)
    assert not builtin_rooted("E", {"E": ["Unlisted"]})


ODD_BASES = textwrap.dedent(
    """\
    bases = (Exception,)
    class Star(*bases):
        pass
    class Mixed(ValueError, *bases):
        pass
    class Item(bases[0]):
        pass
    class Made(make_base()):
        pass
    class Meta(ValueError, metaclass=M):
        pass
    def f(a):
        raise Star(a, 1)
    def g(a):
        raise Mixed(a, 1)
    def h(a):
        raise Item(a, 1)
    def i(a):
        raise Made(a, 1)
    def j(a):
        raise Meta(a, 1)
    """
)


def test_bases_of_any_shape_are_read_or_skipped() -> None:
    """``class E(*bases)`` and other bases the statement does not name do not stop the
    file (Cython gives no tuple of them): each raise is found, and a class with such a
    base is not taken as printing its arguments by Python's rules."""
    sites: dict[str, set[str]] = {}
    for s in extract_cython(ODD_BASES, "pkg/m.pyx"):
        sites.setdefault(s.error_class, set()).add(s.template.display)
    assert set(sites) == {"Star", "Mixed", "Item", "Made", "Meta"}
    for odd in ("Star", "Mixed", "Item", "Made"):
        assert sites[odd] == {"({a}, 1)", "{a}{…}1"}  # the class prints something between
    assert sites["Meta"] == {"({a}, 1)"}  # named bases, all builtins
