"""The C and C++ extractor: what Python extensions raise below Python.

``walk`` finds the sites (C API calls that set an error or warn, C++ ``throw``, status
errors), ``capi`` and ``argparse`` say what each C API call's message is, ``cpp`` maps
C++ classes to the Python ones bindings raise, ``messages`` and ``formats`` turn
message expressions and printf formats into templates, ``scope`` writes the enclosing
function and guards. Files are read with the tree-sitter C and C++ grammars.
"""

from __future__ import annotations

from errdex.extract.site import ErrorSite

from .grammar import Dialect, parser_for
from .walk import NO_FRAME, FileWalker

__all__ = ["NO_FRAME", "extract", "extract_c", "language_of", "parser_for"]

_CPP_SUFFIXES = (".cc", ".cpp", ".cxx", ".hpp", ".hh", ".hxx", ".c++")
#: What marks a ``.h`` header as C++ (pybind11's headers are ``.h``).
_CPP_MARKS = (b"namespace ", b"template <", b"template<", b"throw ", b"::", b"class ")


_BINDING_MARKS = (b"pybind11", b"nanobind")


def language_of(file_path: str, data: bytes) -> Dialect:
    """``.c`` is C, ``.cc``/``.cpp``/… C++, and a ``.h`` header C++ when it reads as C++."""
    if file_path.endswith(_CPP_SUFFIXES):
        return "cpp"
    if file_path.endswith(".h") and any(mark in data for mark in _CPP_MARKS):
        return "cpp"
    return "c"


def extract_c(text: str, file_path: str) -> list[ErrorSite]:
    """Every error-setting call, warning, ``throw`` and status error in one C/C++ file.

    tree-sitter recovers from what it cannot parse (macros it does not expand), so a
    file always yields the sites of the parts it read.
    """
    data = text.encode("utf-8", "surrogatepass")
    language = language_of(file_path, data)
    tree = parser_for(language).parse(data)
    walker = FileWalker(tree, file_path, language)
    walker.binding = any(mark in data for mark in _BINDING_MARKS)
    return walker.run()


def extract(text: str, file_path: str, lines: list[str]) -> list[ErrorSite]:
    """The registry's entry point (see :mod:`errdex.extract.registry`)."""
    return extract_c(text, file_path)
