"""A frameless Cython argument error under a Python line: which sites that line's calls
reach (:mod:`errdex.match.native_called`), so the right one is never ruled out."""

from __future__ import annotations

from pathlib import Path

from errdex.match.api import answers
from errdex.match.native_called import Reach, reach
from tests.extract.test_cython_arguments import ETREE, PARSER, _catalogue

PARSERS = (
    "cdef class XMLParser:\n"
    "    def __init__(self, *, remove_blank_text=False):\n"
    "        pass\n\n"
    "cdef class HTMLParser:\n"
    "    def __init__(self, *, remove_comments=False):\n"
    "        pass\n"
)


def _paste(call: str, message: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/x.py", line 3, in <module>\n'
        f"    {call}\n"
        f"TypeError: {message}\n"
    )


def test_a_class_called_reaches_its_construction(tmp_path: Path) -> None:
    """``XMLParser(bogus=1)`` calls ``XMLParser``; the site's function is ``__init__``."""
    db = _catalogue(tmp_path, {"parser.pyx": PARSERS})
    message = "__init__() got an unexpected keyword argument 'bogus'"
    (answer,) = answers(_paste("p = etree.XMLParser(bogus=1)", message), db)
    assert ("src/lxml/parser.pyx", 2) in {(c.filePath, c.lineNumber) for c in answer.candidates}
    assert 2 not in {c.lineNumber for c in answer.ruled_out}


def test_a_name_the_catalogue_does_not_know_rules_nothing_out(tmp_path: Path) -> None:
    """``f`` may be ``etree.XML`` by another name, ``map`` calls what it is handed."""
    db = _catalogue(tmp_path, {"etree.pyx": ETREE, "parser.pxi": PARSER})
    message = "Argument 'parser' has incorrect type (expected lxml.etree._BaseParser, got int)"
    for call in ("f('<a/>', parser=1)", "docs = list(map(load, texts))"):
        (answer,) = answers(_paste(call, message), db)
        assert answer.ruled_out == [], call
        found = {(c.filePath, c.lineNumber) for c in [*answer.candidates, *answer.group]}
        assert ("src/lxml/etree.pyx", 3) in found, call


def test_reach() -> None:
    known = frozenset({"XML", "fromstring"})
    assert reach("XML", ["XML"], known) == Reach.CALLED
    assert reach("__cinit__", ["XMLParser"], known) == Reach.CALLED
    assert reach("XML", ["fromstring", "len"], known) == Reach.NOT_CALLED
    assert reach("XML", ["XMLParser"], known) == Reach.NOT_CALLED  # a class: its construction
    assert reach("__call__", ["fromstring"], known) == Reach.UNKNOWN  # an instance, any name
    assert reach("XML", ["f"], known) == Reach.UNKNOWN
    assert reach("XML", ["list", "map"], known) == Reach.UNKNOWN
