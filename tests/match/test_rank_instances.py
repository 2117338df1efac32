"""A Cython frame on another template instance's line (:mod:`errdex.match.rank_instances`)."""

from __future__ import annotations

from pathlib import Path

from errdex.match.api import answers
from errdex.match.index import MatchIndex
from errdex.match.rank_instances import cython_method, instance_of
from tests.extract.test_cython_arguments import _catalogue

#: Two instances of one method; rendered, Float64's ``raise KeyError(val)`` is line 10 and
#: Int64's line 25 (the catalogue reads the rendered file).
TEMPLATE = """{{py:

dtypes = [('Float64', 'float64_t'), ('Int64', 'int64_t')]

}}

{{for name, c_type in dtypes}}

cdef class {{name}}HashTable:

    def get_item(self, {{c_type}} val):
        cdef Py_ssize_t k
        k = self.lookup(val)
        if k != self.end:
            return self.vals[k]
        else:
            raise KeyError(val)

    def set_item(self, {{c_type}} key, Py_ssize_t val):
        if key is None:
            raise KeyError(key)
        self.store(key, val)

{{endfor}}
"""


def _paste(line: int, function: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/x.py", line 3, in <module>\n'
        "    t.get_item(5)\n"
        f'  File "table.pxi", line {line}, in {function}\n'
        "KeyError: 5\n"
    )


def _first(db: Path, paste: str) -> int:
    (answer,) = answers(paste, db)
    return answer.candidates[0].lineNumber


def test_the_frame_names_the_instance_its_line_does_not(tmp_path: Path) -> None:
    """A build that put Int64's raise on line 10 (Float64's in the catalogue): the frame's
    ``Int64HashTable.get_item`` decides, its line does not."""
    db = _catalogue(tmp_path, {"table.pxi.in": TEMPLATE})
    (answer,) = answers(_paste(10, "lxml.table.Int64HashTable.get_item"), db)
    first = answer.candidates[0]
    assert first.lineNumber == 25
    assert first.confidence >= 0.9
    assert any("another instance of the template" in r for r in first.reasons)
    line_10 = next(c for c in answer.candidates if c.lineNumber == 10)
    assert line_10.confidence < 0.1
    saved = MatchIndex.load(tmp_path / "errdex.db.matchindex")  # read back: the same table
    assert saved is not None
    methods = {(saved.entry(i).line, instance_of(saved, i)) for i in range(len(saved))}
    assert (10, "Float64HashTable.get_item") in methods
    assert (25, "Int64HashTable.get_item") in methods


def test_a_frame_that_agrees_with_its_line_keeps_it(tmp_path: Path) -> None:
    db = _catalogue(tmp_path, {"table.pxi.in": TEMPLATE})
    assert _first(db, _paste(10, "lxml.table.Float64HashTable.get_item")) == 10
    assert _first(db, _paste(25, "lxml.table.Int64HashTable.get_item")) == 25


def test_a_method_with_no_such_site_leaves_the_line(tmp_path: Path) -> None:
    """``Int64HashTable.lookup`` raises nothing catalogued: the line stands."""
    db = _catalogue(tmp_path, {"table.pxi.in": TEMPLATE})
    assert _first(db, _paste(10, "lxml.table.Int64HashTable.lookup")) == 10


def test_a_raise_of_another_template_line_leaves_the_line(tmp_path: Path) -> None:
    """``Int64HashTable.set_item``'s ``KeyError`` (line 29) is rendered from another template
    line than line 10's ``get_item`` raise: not an instance of it, so the name cannot say
    the build moved one onto the other."""
    db = _catalogue(tmp_path, {"table.pxi.in": TEMPLATE})
    assert _first(db, _paste(10, "lxml.table.Int64HashTable.set_item")) == 10


#: Rendered, Float64Table.put's raise is line 5 and Int64Table.get's line 8.
TWO_METHODS = """{{for name in ['Float64', 'Int64']}}
cdef class {{name}}Table:
    def get(self, v):
        raise KeyError("no such key")
    def put(self, v):
        raise KeyError(v)
{{endfor}}
"""


def test_the_message_must_fit_the_named_methods_site(tmp_path: Path) -> None:
    """``KeyError: 5`` does not fit ``Int64Table.get``'s one ``KeyError("no such key")``:
    the line's ``raise KeyError(v)`` keeps the frame."""
    db = _catalogue(tmp_path, {"table.pxi.in": TWO_METHODS})
    assert _first(db, _paste(5, "lxml.table.Int64Table.get")) == 5


PYX = """
def helper(x):
    raise KeyError("helper failed")

def other(v):
    raise KeyError(v)

cdef class A:
    def get(self, v):
        raise KeyError("no such key")
    def put(self, v):
        raise KeyError(v)
"""


def test_functions_of_a_file_no_template_rendered_keep_their_lines(tmp_path: Path) -> None:
    """Two methods of one class, or two module functions, are not instances of a template:
    the frame's line stands (the message fits it, not the named function's raise)."""
    db = _catalogue(tmp_path, {"mod.pyx": PYX})
    for line, function in ((12, "lxml.mod.A.get"), (6, "lxml.mod.helper")):
        paste = _paste(line, function).replace("table.pxi", "src/lxml/mod.pyx")
        (answer,) = answers(paste, db)
        first = answer.candidates[0]
        assert first.lineNumber == line
        assert not any("instance" in r for c in answer.candidates for r in c.reasons)


def test_an_outer_frame_moves_only_its_own_credit(tmp_path: Path) -> None:
    """The innermost frame, on line 10 in ``Float64HashTable.get_item``, agrees with its line;
    an outer frame on the same line naming ``Int64HashTable.get_item`` lends line 25 an outer
    frame's credit, not the innermost's, and takes nothing from line 10."""
    db = _catalogue(tmp_path, {"table.pxi.in": TEMPLATE})
    paste = _paste(10, "lxml.table.Float64HashTable.get_item").replace(
        '  File "table.pxi"',
        '  File "table.pxi", line 10, in lxml.table.Int64HashTable.get_item\n'
        "    return other.get_item(5)\n"
        '  File "table.pxi"',
    )
    (answer,) = answers(paste, db)
    first = answer.candidates[0]
    assert first.lineNumber == 10
    assert first.confidence >= 0.9


def test_cython_method() -> None:
    assert cython_method("table.Int64HashTable.get_item") == "Int64HashTable.get_item"
    assert cython_method("table.take_1d") is None  # a module function: its name tells
    assert cython_method(None) is None
