"""Compiled code under a Python traceback (match/native.py): a Python twin that its own
module replaces by the compiled class gives way to the compiled site, and a Python line
calling into C finds the C site by the message's text, not a nearby one-value raise."""

from __future__ import annotations

import textwrap
from pathlib import Path

import pytest

from errdex.match import rank_lone
from errdex.match.api import Answer, answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

SHA = "fedcba9876543210fedcba9876543210fedcba98"

PY_TWIN = textwrap.dedent(
    """\
    class Frozen:
        def __init__(self):
            self._frozen = False

        def append(self, item):
            if self._frozen:
                raise RuntimeError("Cannot modify frozen list.")


    try:
        from ._frozen import Frozen as CFrozen
    except ImportError:
        pass
    else:
        Frozen = CFrozen
    """
)
PYX_TWIN = textwrap.dedent(
    """\
    cdef class Frozen:
        cdef bint _frozen

        def append(self, item):
            if self._frozen:
                raise RuntimeError("Cannot modify frozen list.")
    """
)


def _catalogue(root: Path, files: dict[str, str], repo: str) -> Path:
    for rel, text in files.items():
        (root / rel).parent.mkdir(parents=True, exist_ok=True)
        (root / rel).write_text(text)
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo)
    db = root.parent / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, repo, result, "2026-12-02T00:00:00.000Z")
    return db


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


@pytest.mark.parametrize("shadowed", [True, False])
def test_a_python_twin_its_module_replaces_gives_way_to_the_compiled_site(
    tmp_path: Path, shadowed: bool
) -> None:
    python = PY_TWIN if shadowed else PY_TWIN.replace("Frozen = CFrozen", "Other = CFrozen")
    db = _catalogue(
        tmp_path / "frozen",
        {"frozen/__init__.py": python, "frozen/_frozen.pyx": PYX_TWIN},
        "example/frozen",
    )
    with SqliteStore(db) as store:
        twin = next(e for e in store.iter_envelopes() if e["record"]["filePath"].endswith(".py"))
    (answer,) = answers("RuntimeError: Cannot modify frozen list.", db)
    best = answer.candidates[0]
    if not shadowed:  # nothing says which runs: both stay tied, as the text leaves them
        assert "shadowedBy" not in twin["evidence"]
        assert {c.filePath for c in answer.group} == {"frozen/__init__.py", "frozen/_frozen.pyx"}
        return
    assert twin["evidence"]["shadowedBy"] == {
        "module": "frozen._frozen",
        "line": _line(PY_TWIN, "from ._frozen"),
        "conditional": True,
    }
    assert "runs only where it fails" in twin["record"]["documentation"]
    assert (best.filePath, best.lineNumber) == ("frozen/_frozen.pyx", _line(PYX_TWIN, "raise"))
    assert answer.group == []  # no longer tied
    assert best.confidence >= 0.6
    other = next(c for c in answer.candidates if c.filePath == "frozen/__init__.py")
    assert other.confidence < best.confidence / 2
    assert any("runs only where that import fails" in r for r in other.reasons)


def test_a_traceback_through_the_python_twin_still_answers_it(tmp_path: Path) -> None:
    """The traceback shows the Python line raised (FROZEN_NO_EXTENSIONS, a failed build):
    the record's shadowing does not override what the traceback says."""
    db = _catalogue(
        tmp_path / "frozen",
        {"frozen/__init__.py": PY_TWIN, "frozen/_frozen.pyx": PYX_TWIN},
        "example/frozen",
    )
    line = _line(PY_TWIN, "raise RuntimeError")
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 3, in <module>\n    x.append(1)\n'
        f'  File "/venv/lib/python3.11/site-packages/frozen/__init__.py", line {line}, in append\n'
        '    raise RuntimeError("Cannot modify frozen list.")\n'
        "RuntimeError: Cannot modify frozen list.\n"
    )
    (answer,) = answers(tb, db)
    assert (answer.candidates[0].filePath, answer.candidates[0].lineNumber) == (
        "frozen/__init__.py",
        line,
    )


DECODER = textwrap.dedent(
    """\
    from tinyjson._speedups import scan_once


    class DecodeError(ValueError):
        def __init__(self, msg, pos):
            super().__init__(f"{msg}: char {pos}")


    def raw_decode(s, idx=0):
        try:
            return scan_once(s, idx)
        except StopIteration as err:
            raise DecodeError(errmsg("Expecting value", s, err.value))
    """
)
SPEEDUPS = textwrap.dedent(
    """\
    #include <Python.h>
    #define ERR_STRING_UNTERMINATED "Unterminated string starting at"

    static PyObject *DecodeError;

    static void
    raise_errmsg(const char *msg, PyObject *s, Py_ssize_t end)
    {
        PyObject *exc = PyObject_CallFunction(DecodeError, "(zn)", msg, end);
        if (exc) {
            PyErr_SetObject(DecodeError, exc);
            Py_DECREF(exc);
        }
    }

    static PyObject *
    scanstring(PyObject *pystr, Py_ssize_t begin)
    {
        raise_errmsg(ERR_STRING_UNTERMINATED, pystr, begin);
        return NULL;
    }
    """
)


def test_a_python_line_calling_c_finds_the_c_site_by_its_text_not_a_nearby_one_value_raise(
    tmp_path: Path,
) -> None:
    """simplejson.loads('"abc'): the innermost frame is ``return scan_once(…)``, a few
    lines above ``raise JSONDecodeError(errmsg(…))``, whose one value fits any message."""
    db = _catalogue(
        tmp_path / "tinyjson",
        {
            "tinyjson/__init__.py": "",
            "tinyjson/decoder.py": DECODER,
            "tinyjson/_speedups.c": SPEEDUPS,
        },
        "example/tinyjson",
    )
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 3, in <module>\n    raw_decode(\'"abc\')\n'
        '  File "/venv/lib/python3.11/site-packages/tinyjson/decoder.py", '
        f"line {_line(DECODER, 'return scan_once')}, in raw_decode\n"
        "    return scan_once(s, idx)\n"
        "tinyjson.decoder.DecodeError: Unterminated string starting at: char 0\n"
    )
    (answer,) = answers(tb, db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "tinyjson/_speedups.c",
        _line(SPEEDUPS, "raise_errmsg(ERR"),
    )
    assert any("no frame of its own" in r for r in best.reasons)
    assert best.confidence > 0.5


def test_the_index_alone_settles_the_twin_with_no_store_to_read(tmp_path: Path) -> None:
    """``shadowedBy`` is carried in the match index: ranking on the index after its store
    is closed (a saved index, a server's) still puts the compiled site first."""
    from errdex.match.api import clues_from, errors_in
    from errdex.match.index import MatchIndex
    from errdex.match.rank import rank

    db = _catalogue(
        tmp_path / "frozen",
        {"frozen/__init__.py": PY_TWIN, "frozen/_frozen.pyx": PYX_TWIN},
        "example/frozen",
    )
    with SqliteStore(db) as store:
        MatchIndex.build(store.iter_envelopes()).save(tmp_path / "saved")
    index = MatchIndex.load(tmp_path / "saved")  # read back from its files
    assert index is not None
    python = [i for i in range(len(index)) if index.entry(i).file_path == "frozen/__init__.py"]
    assert [index.shadowed_by(i) for i in python] == ["frozen._frozen"]
    assert all(index.shadowed_by(i) is None for i in range(len(index)) if i not in python)
    ranked = rank(clues_from(errors_in("RuntimeError: Cannot modify frozen list.")), index)
    paths = [index.entry(s.index).file_path for s in ranked]
    assert paths == ["frozen/_frozen.pyx", "frozen/__init__.py"]
    assert ranked[0].group_size == 1
    assert ranked[1].confidence < ranked[0].confidence / 2


def test_a_twin_whose_compiled_module_is_not_catalogued_says_it_is_replaced(
    tmp_path: Path,
) -> None:
    """A wheel's catalogue without the ``.pyx``: the Python line is the only answer, and
    its reasons say the compiled module replaces it when that imports."""
    db = _catalogue(tmp_path / "frozen", {"frozen/__init__.py": PY_TWIN}, "example/frozen")
    (answer,) = answers("RuntimeError: Cannot modify frozen list.", db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("frozen/__init__.py", _line(PY_TWIN, "raise"))
    assert any(
        "replaces the definition with the one of frozen._frozen" in r
        and "no catalogued site of frozen._frozen fits" in r
        for r in best.reasons
    )


MODES = textwrap.dedent(
    """\
    #include <Python.h>

    static PyObject *
    load(PyObject *self, PyObject *args)
    {
        PyErr_SetString(PyExc_TypeError, "uuid_mode must be an integer value or None");
        return NULL;
    }

    static PyObject *
    decoder_new(PyTypeObject *type, PyObject *args, PyObject *kwargs)
    {
        PyErr_SetString(PyExc_TypeError, "uuid_mode must be an integer value or None");
        return NULL;
    }
    """
)


def test_a_type_called_on_the_innermost_line_finds_its_new_function(tmp_path: Path) -> None:
    """python-rapidjson raises one message in ``load`` and in ``decoder_new``: the line
    ``rapidjson.Decoder(uuid_mode="x")`` calls the type, whose ``tp_new`` C modules name
    ``decoder_new``; the message alone leaves both."""
    db = _catalogue(
        tmp_path / "tinyjson",
        {"tinyjson/__init__.py": "", "tinyjson/_modes.c": MODES},
        "example/tinyjson",
    )
    tb = (
        "Traceback (most recent call last):\n"
        '  File "/home/me/app.py", line 3, in <module>\n'
        '    tinyjson.Decoder(uuid_mode="x")\n'
        "TypeError: uuid_mode must be an integer value or None\n"
    )
    (answer,) = answers(tb, db)
    best = answer.candidates[0]
    new_line = next(n for n, text in enumerate(MODES.splitlines(), 1) if "decoder_new" in text) + 2
    assert (best.filePath, best.lineNumber) == ("tinyjson/_modes.c", new_line)
    assert not answer.group or len(answer.group) == 1
    assert any("calls Decoder()" in r for r in best.reasons)


LOOKUP_C = textwrap.dedent(
    """\
    #include <Python.h>

    static PyObject *
    _default_or_raise(PyObject *key, PyObject *deflt)
    {
        if (deflt != NULL) {
            return Py_NewRef(deflt);
        }
        PyErr_SetObject(PyExc_KeyError, key);
        return NULL;
    }
    """
)
LOOKUP_PY = textwrap.dedent(
    """\
    class MultiDict:
        def getone(self, key):
            raise KeyError(key)
    """
)

#: ``KeyError: 'b'`` below a Python line that calls into multidict.
GETONE = (
    "Traceback (most recent call last):\n"
    '  File "/home/me/app.py", line 3, in <module>\n    md.getone("b")\n'
    "KeyError: 'b'\n"
)


@pytest.mark.parametrize("line", ['md.getone("b")', 'md["b"]'])
def test_a_one_value_key_error_below_a_python_call_is_an_undecided_compiled_group(
    tmp_path: Path, line: str
) -> None:
    """multidict's ``md.getone("b")`` raises ``KeyError: 'b'`` in C, which prints no
    frame: the compiled one-value sites are left open (undecided, as the line's own
    lookups may raise it too), the Python twin is not (it would print its frame). A line
    that calls nothing (``md["b"]``) is a lookup of its own: no answer, as before."""
    db = _catalogue(
        tmp_path / "tinymd",
        {"tinymd/__init__.py": "", "tinymd/_md.c": LOOKUP_C, "tinymd/_md_py.py": LOOKUP_PY},
        "example/tinymd",
    )
    tb = (
        "Traceback (most recent call last):\n"
        f'  File "/home/me/app.py", line 3, in <module>\n    {line}\n'
        "KeyError: 'b'\n"
    )
    (answer,) = answers(tb, db)
    if line == 'md["b"]':
        assert not answer.candidates
        return
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("tinymd/_md.c", _line(LOOKUP_C, "PyErr_Set"))
    assert best.groupReason is not None and "interpreter" in best.groupReason
    assert all(not c.filePath.endswith(".py") for c in answer.candidates)


def test_the_compiled_group_and_the_frameless_group_of_one_class_stay_apart(
    tmp_path: Path,
) -> None:
    """The group below a Python call holds the compiled sites only; a message alone holds
    every one-value site of the class. The twins folded for one list are kept per index:
    the one asked first must not stand in for the other (either order)."""
    db = _catalogue(
        tmp_path / "tinymd",
        {"tinymd/__init__.py": "", "tinymd/_md.c": LOOKUP_C, "tinymd/_md_py.py": LOOKUP_PY},
        "example/tinymd",
    )
    below = GETONE
    alone = "KeyError: 'b'\n"
    for first, second in ((below, alone), (alone, below)):
        files = {}
        for text in (first, second):
            (answer,) = answers(text, db)
            files[text] = {c.filePath for c in answer.candidates}
        assert files[below] == {"tinymd/_md.c"}
        assert "tinymd/_md_py.py" in files[alone]


PACKAGE_INIT = textwrap.dedent(
    """\
    import os

    if os.environ.get("TABLE_NO_EXTENSIONS"):
        from ._table_py import Table
    else:
        from ._table import Table
    """
)
PACKAGE_PY = textwrap.dedent(
    """\
    class Table:
        def pop(self):
            raise KeyError("empty table")
    """
)
PACKAGE_HEADER = textwrap.dedent(
    """\
    static PyObject *
    table_pop(PyObject *self)
    {
        PyErr_SetString(PyExc_KeyError, "empty table");
        return NULL;
    }
    """
)


def table_with(tmp_path: Path, compiled: dict[str, str]) -> Answer:
    """The answer to the table's message, the Python twin beside the ``compiled`` files."""
    files = {"table/__init__.py": PACKAGE_INIT, "table/_table_py.py": PACKAGE_PY, **compiled}
    db = _catalogue(tmp_path / "table", files, "example/table")
    (answer,) = answers("KeyError: 'empty table'", db)
    return answer


def _table_answer(tmp_path: Path, where: str) -> Answer:
    """The answer to the table's message, its compiled site's source at ``where``."""
    files = {
        "table/__init__.py": PACKAGE_INIT,
        "table/_table_py.py": PACKAGE_PY,
        where: PACKAGE_HEADER,
    }
    db = _catalogue(tmp_path / "table", files, "example/table")
    (answer,) = answers("KeyError: 'empty table'", db)
    return answer


@pytest.mark.parametrize("where", ["table/_table.c", "table/_lib/hashtable.h"])
def test_a_module_its_package_imports_only_in_place_of_the_compiled_one_gives_way(
    tmp_path: Path, where: str
) -> None:
    """multidict's shape: ``__init__`` imports the Python module only where a switch turns
    the compiled one off; the compiled site (in the module's source, or a header of its
    package that the source includes) ranks first, the Python one below it."""
    answer = _table_answer(tmp_path, where)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (where, _line(PACKAGE_HEADER, "PyErr_SetString"))
    other = next(c for c in answer.candidates if c.filePath == "table/_table_py.py")
    assert other.confidence < best.confidence
    assert any(
        "the library replaces the definition with the one of table._table" in r
        for r in other.reasons
    )


@pytest.mark.parametrize("where", ["other/table/hashtable.h", "bindings/table/hashtable.h"])
def test_a_header_outside_the_compiled_modules_package_is_not_its_source(
    tmp_path: Path, where: str
) -> None:
    """A header under a folder named like the package elsewhere (another package's, the
    bindings') builds no part of ``table._table``: the Python site does not give way to it,
    and its reason says no catalogued site of the compiled module fits."""
    answer = _table_answer(tmp_path, where)
    python = next(c for c in answer.candidates if c.filePath == "table/_table_py.py")
    header = next(c for c in answer.candidates if c.filePath == where)
    assert any("no catalogued site of table._table fits" in r for r in python.reasons)
    assert not any("replaces" in r for r in header.reasons)


SIBLING_C = '#include "Python.h"\n#include "_other.h"\nstatic int x;\n'


def test_a_sibling_extensions_header_is_not_the_compiled_modules_source(tmp_path: Path) -> None:
    """``table/_other.h`` is included by ``table/_other.c``, another extension of the same
    package: it builds none of ``table._table``, so the Python twin does not give way."""
    answer = table_with(tmp_path, {"table/_other.c": SIBLING_C, "table/_other.h": PACKAGE_HEADER})
    python = next(c for c in answer.candidates if c.filePath == "table/_table_py.py")
    assert any("no catalogued site of table._table fits" in r for r in python.reasons)
    header = next(c for c in answer.candidates if c.filePath == "table/_other.h")
    assert not any("replaces" in r for r in header.reasons)


MSGPACK_INIT = textwrap.dedent(
    """\
    try:
        from ._cmsgpack import Unpacker
    except ImportError:
        from .fallback import Unpacker
    """
)
MSGPACK_PY = textwrap.dedent(
    """\
    class Unpacker:
        def __init__(self, object_hook=None, object_pairs_hook=None):
            if object_hook is not None and object_pairs_hook is not None:
                raise TypeError("object_pairs_hook and object_hook are mutually exclusive.")
    """
)
MSGPACK_PYX = MSGPACK_PY.replace("class Unpacker", "cdef class Unpacker")


def test_an_included_pyx_is_the_source_of_the_module_including_it(tmp_path: Path) -> None:
    """msgpack's shape: ``_cmsgpack.pyx`` includes ``_unpacker.pyx``; the fallback's twin
    is replaced by ``msgpack._cmsgpack``, whose site is in the included file."""
    files = {
        "msgpack/__init__.py": MSGPACK_INIT,
        "msgpack/fallback.py": MSGPACK_PY,
        "msgpack/_cmsgpack.pyx": 'include "_unpacker.pyx"\n',
        "msgpack/_unpacker.pyx": MSGPACK_PYX,
    }
    db = _catalogue(tmp_path / "msgpack", files, "example/msgpack")
    (answer,) = answers("TypeError: object_pairs_hook and object_hook are mutually exclusive.", db)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == ("msgpack/_unpacker.pyx", 4)
    assert answer.group == []
    other = next(c for c in answer.candidates if c.filePath == "msgpack/fallback.py")
    assert any("runs only where that import fails" in r for r in other.reasons)


def test_the_compiled_group_is_read_past_the_first_python_sites(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """A class raised with one value at more Python sites than an undecided group reads
    (thousands of ``KeyError(key)`` at a million templates): the compiled ones after them
    still make the group below a Python call, counted alone."""
    monkeypatch.setattr(rank_lone, "MAX_UNDECIDED", 3)
    many = "".join(f"def get{n}(key):\n    raise KeyError(key)\n" for n in range(4))
    db = _catalogue(
        tmp_path / "tinymd",
        {"tinymd/__init__.py": "", "tinymd/_a_lookups.py": many, "tinymd/_md.c": LOOKUP_C},
        "example/tinymd",
    )
    (answer,) = answers(GETONE, db)
    assert [c.filePath for c in answer.candidates] == ["tinymd/_md.c"]
    assert any("one of 1 catalogued sites" in r for r in answer.candidates[0].reasons)
