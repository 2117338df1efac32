"""The TypeErrors Cython's generated argument parsing raises, catalogued at the ``def``
line (the forms and lines are those lxml 5.3.0 prints: ``SubElement() takes at least 2
positional arguments (1 given)`` at ``etree.pyx``'s ``def SubElement`` line)."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.extract.cython import extract_cython
from errdex.extract.cython.arguments import NOTE
from errdex.match.api import answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

PYX = textwrap.dedent(
    """\
    cdef class _Element:
        def set(self, key, value):
            self._set(key, value)

        def get(self, key, default=None):
            return default

        def __getitem__(self, x):
            return x

        def tag(self):
            return 1

    def tostring(element_or_tree, *, encoding=None, bint pretty_print=False):
        return b""

    def SubElement(_Element _parent not None, _tag, attrib=None, nsmap=None, **_extra):
        return None

    def rows(str name, int n, *more):
        return n
    """
)
#: Each function's generated messages, by the def line.
EXPECTED = {
    2: [
        "set() takes exactly 2 positional arguments ({given} given)",
        "set() got an unexpected keyword argument '{kw}'",
        "set() got multiple values for keyword argument '{kw}'",
    ],
    5: [
        "get() takes at least 1 positional argument ({given} given)",
        "get() takes at most 2 positional arguments ({given} given)",
        "get() got an unexpected keyword argument '{kw}'",
        "get() got multiple values for keyword argument '{kw}'",
    ],
    14: [
        "tostring() takes exactly 1 positional argument ({given} given)",
        "tostring() got an unexpected keyword argument '{kw}'",
        "tostring() got multiple values for keyword argument '{kw}'",
    ],
    17: [
        "SubElement() takes at least 2 positional arguments ({given} given)",
        "SubElement() takes at most 4 positional arguments ({given} given)",
        "SubElement() got multiple values for keyword argument '{kw}'",
        "Argument '_parent' has incorrect type (expected lxml.etree._Element, got {type})",
    ],
    20: [
        "rows() takes at least 2 positional arguments ({given} given)",
        "rows() got an unexpected keyword argument '{kw}'",
        "rows() got multiple values for keyword argument '{kw}'",
        "Argument 'name' has incorrect type (expected str, got {type})",
    ],
}


def test_every_python_visible_signature_gives_its_generated_errors() -> None:
    sites = [
        s for s in extract_cython(PYX, "src/lxml/etree.pyx", arguments=True) if NOTE in s.notes
    ]
    found: dict[int, list[str]] = {}
    for s in sites:
        found.setdefault(s.line, []).append(s.template.display)
    assert found == EXPECTED  # no site for a slot (__getitem__) nor a method of no argument
    first = sites[0]
    assert (first.error_class, first.qualname, first.function) == (
        "TypeError",
        "lxml.etree._Element.set",
        "set",
    )
    get_few = next(s for s in sites if s.line == 5)
    assert get_few.template.match("get() takes at least 1 positional argument (0 given)")
    assert not get_few.template.match("get() takes at least 1 positional argument (no given)")


def _catalogue(tmp_path: Path, files: dict[str, str]) -> Path:
    """A catalogue of ``src/lxml/<name>`` files, scanned as ``lxml/lxml``."""
    root = tmp_path / "lxml"
    (root / "src" / "lxml").mkdir(parents=True)
    for name, text in files.items():
        (root / "src" / "lxml" / name).write_text(text)
    checkout = open_source(str(root), repo="lxml/lxml", sha="2" * 40)
    result = scan_checkout(checkout, repo="lxml/lxml")
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "lxml/lxml", result, "2026-12-06T00:00:00.000Z")
    return db


def test_a_traceback_through_the_def_line_finds_the_generated_error(tmp_path: Path) -> None:
    """lxml's ``tostring(el, extra=1)`` prints the ``def`` line as its innermost frame."""
    db = _catalogue(tmp_path, {"etree.pyx": PYX})
    paste = (
        "Traceback (most recent call last):\n"
        '  File "/tmp/x.py", line 3, in <module>\n'
        '  File "src/lxml/etree.pyx", line 14, in lxml.etree.tostring\n'
        "TypeError: tostring() got an unexpected keyword argument 'extra'\n"
    )
    (answer,) = answers(paste, db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/lxml/etree.pyx", 14)
    assert "unexpected keyword argument" in best.errorMessage
    assert best.confidence >= 0.9


ETREE = (
    'include "parser.pxi"\n\ndef XML(text, _BaseParser parser=None):\n    return text\n\n'
    "def fromstring(text, parser=None):\n    return text\n"
)
PARSER = (
    "cdef class _BaseParser:\n    pass\n\n"
    "def set_default_parser(_BaseParser parser=None):\n    return parser\n"
)


def _frameless(call: str) -> str:
    """A type test fails before the function prints a frame: the user's line is innermost."""
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/x.py", line 3, in <module>\n'
        f"    {call}\n"
        "TypeError: Argument 'parser' has incorrect type "
        "(expected lxml.etree._BaseParser, got int)\n"
    )


def test_the_function_the_innermost_line_calls_decides_the_generated_error(
    tmp_path: Path,
) -> None:
    """``_BaseParser`` is a class of the module (defined in the included ``parser.pxi``),
    so ``XML`` in ``etree.pyx`` has the site too; of the two, the called one answers, and
    a call of neither (``fromstring``, catalogued, with no type test) leaves the error not
    catalogued, not answered by the other."""
    db = _catalogue(tmp_path, {"etree.pyx": ETREE, "parser.pxi": PARSER})
    (answer,) = answers(_frameless("etree.XML('<a/>', parser=1)"), db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("src/lxml/etree.pyx", 3)
    assert best.confidence >= 0.9 and answer.group == []
    (other,) = answers(_frameless("etree.fromstring('<a/>', parser=1)"), db)
    assert other.candidates == []
    assert {c.lineNumber for c in other.ruled_out} == {3, 4}
    (alone,) = answers(_frameless("x").splitlines()[-1], db)  # the message alone: a tie
    assert {(c.filePath, c.lineNumber) for c in alone.group} == {
        ("src/lxml/etree.pyx", 3),
        ("src/lxml/parser.pxi", 4),
    }


KW_ONLY = textwrap.dedent(
    """\
    def kwonly(a, *, b, c=1):
        return a

    def only_keywords(*, key, str name):
        return key
    """
)


def test_a_missing_keyword_only_argument_is_named_as_cython_names_it() -> None:
    """Cython 3.3.1 (``__Pyx_RaiseKeywordRequired``, checked against a build of this
    file): ``kwonly(1)`` raises ``kwonly() needs keyword-only argument b``, one message per
    required keyword-only argument (``c`` has a default), and ``only_keywords(1)``
    ``only_keywords() takes exactly 0 positional arguments (1 given)``."""
    sites = extract_cython(KW_ONLY, "pkg/m.pyx", arguments=True)
    found = {(s.line, s.template.display) for s in sites if NOTE in s.notes}
    assert found == {
        (1, "kwonly() takes exactly 1 positional argument ({given} given)"),
        (1, "kwonly() got an unexpected keyword argument '{kw}'"),
        (1, "kwonly() got multiple values for keyword argument '{kw}'"),
        (1, "kwonly() needs keyword-only argument b"),
        (4, "only_keywords() takes exactly 0 positional arguments ({given} given)"),
        (4, "only_keywords() got an unexpected keyword argument '{kw}'"),
        (4, "only_keywords() needs keyword-only argument key"),
        (4, "only_keywords() needs keyword-only argument name"),
        (4, "Argument 'name' has incorrect type (expected str, got {type})"),
    }
    needs = next(s for s in sites if "needs" in s.template.display)
    assert needs.template.match("kwonly() needs keyword-only argument b") is not None
    assert needs.template.match("kwonly() needs keyword-only argument c") is None


MULTIPLE = textwrap.dedent(
    """\
    def f(a, b=1, *, c=2):
        return a

    cdef class K:
        def m(self, x, y=0):
            return x

    def star(a, *args, **kw):
        return a

    def posonly(a, b, /, c=0):
        return a

    def only_positional(a, b, /):
        return a

    class P:
        def pm(self, a, b=1):
            return a
    """
)


def test_an_argument_given_twice_is_named_as_cython_names_it() -> None:
    """Cython 3.3.1 (``__Pyx_RaiseDoubleKeywordsError``, checked against a build of this
    file): ``f(1, a=2)`` raises ``f() got multiple values for keyword argument 'a'``, also
    with ``**kw`` (``star(1, a=2)``), for a plain class's ``self`` (``P().pm(1, self=2)``)
    and for ``c`` after positional-only ones (``posonly(1, 2, 3, c=4)``); a function whose
    every argument is positional-only cannot be given one twice (``posonly(1, 2, a=4)``:
    unexpected keyword)."""
    sites = extract_cython(MULTIPLE, "pkg/m.pyx", arguments=True)
    twice = {
        s.line: s.template
        for s in sites
        if NOTE in s.notes and "multiple values" in s.template.display
    }
    assert sorted(twice) == [1, 5, 8, 11, 18]
    assert twice[1].match("f() got multiple values for keyword argument 'b'") is not None
    assert twice[5].match("m() got multiple values for keyword argument 'x'") is not None
    assert twice[18].match("pm() got multiple values for keyword argument 'self'") is not None
    assert twice[1].match("f() got an unexpected keyword argument 'b'") is None
