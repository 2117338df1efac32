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
    assert builtin_rooted("Unlisted", bases)
