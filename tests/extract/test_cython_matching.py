"""A Cython traceback frame finds its ``.pyx`` site as a ``.py`` frame finds its site."""

from __future__ import annotations

from pathlib import Path

import pytest

from errdex.match import match
from errdex.match.layouts import frame_keys, record_keys
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore

FROZEN = """\
cdef class FrozenList:
    cdef readonly bint frozen

    cdef object _check_frozen(self):
        if self.frozen:
            raise RuntimeError("Cannot modify frozen list.")

    def append(self, item):
        self._check_frozen()
"""
# the same message in the Python fallback, as frozenlist ships it
FALLBACK = """\
class FrozenList:
    def insert(self, pos, item):
        if self._frozen:
            raise RuntimeError("Cannot modify frozen list.")

    def append(self, item):
        if self._frozen:
            raise RuntimeError("Cannot modify frozen list.")
"""


@pytest.fixture(autouse=True)
def _own_cache(tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("XDG_CACHE_HOME", str(tmp_path_factory.mktemp("xdg")))


@pytest.fixture
def catalogue(tmp_path: Path) -> Path:
    pkg = tmp_path / "frozenlist"
    pkg.mkdir()
    (pkg / "__init__.py").write_text(FALLBACK)
    (pkg / "_frozenlist.pyx").write_text(FROZEN)
    checkout = open_source(str(tmp_path), repo="aio-libs/frozenlist", sha="1" * 40)
    result = scan_checkout(checkout, repo="aio-libs/frozenlist")
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "aio-libs/frozenlist", result, "2026-12-01T00:00:00.000Z")
    return db


def _traceback(path: str) -> str:
    return (
        "Traceback (most recent call last):\n"
        '  File "/home/u/app.py", line 3, in <module>\n'
        "    fl.append(2)\n"
        f'  File "{path}", line 9, in frozenlist._frozenlist.FrozenList.append\n'
        f'  File "{path}", line 6, in frozenlist._frozenlist.FrozenList._check_frozen\n'
        "RuntimeError: Cannot modify frozen list.\n"
    )


@pytest.mark.parametrize("path", ["frozenlist/_frozenlist.pyx", "_frozenlist.pyx"])
def test_a_cython_frame_finds_its_pyx_site_top_1(catalogue: Path, path: str) -> None:
    best = match(_traceback(path), catalogue)[0]
    assert (best.filePath, best.lineNumber) == ("frozenlist/_frozenlist.pyx", 6)
    assert best.confidence >= 0.9


def test_record_keys_of_cython_files() -> None:
    assert "_frozenlist.pyx" in record_keys("frozenlist/_frozenlist.pyx", ())
    keys = record_keys("pandas/_libs/hashtable_class_helper.pxi.in", ())
    assert "pandas/_libs/hashtable_class_helper.pxi" in keys
    assert "hashtable_class_helper.pxi" in keys
    # a Python file keeps its keys: a bare name is never one
    assert record_keys("frozenlist/__init__.py", ()) == ("frozenlist/__init__.py",)
    assert set(frame_keys("_frozenlist.pyx")) & set(record_keys("frozenlist/_frozenlist.pyx", ()))


# pandas' hashtable_class_helper.pxi.in (2.2.3's text, trimmed to two dtypes and the
# get_item method), rendered into pandas/_libs/hashtable.pyx by its ``include``
PANDAS_TEMPLATE = """\
cdef class HashTable:

    pass

{{py:

# name, dtype, c_type, to_c_type
dtypes = [('Float64', 'float64', 'float64_t', ''),
          ('Int64', 'int64', 'int64_t', '')]

}}


{{for name, dtype, c_type, to_c_type in dtypes}}

cdef class {{name}}HashTable(HashTable):

    cpdef get_item(self, {{dtype}}_t val):
        \"\"\"Extracts the position of val from the hashtable.\"\"\"
        cdef:
            khiter_t k
            {{c_type}} cval

        cval = {{to_c_type}}(val)
        k = kh_get_{{dtype}}(self.table, cval)
        if k != self.table.n_buckets:
            return self.table.vals[k]
        else:
            raise KeyError(val)

{{endfor}}
"""

# printed by pandas 3.1.1 (its wheel, a real run): ``Int64HashTable().get_item()`` and
# ``.get_item(1, val=2)``
PANDAS_TRACEBACK = """\
Traceback (most recent call last):
  File "/tmp/f46-scratch/pd1.py", line 3, in <module>
    t.get_item({call})
  File "pandas/_libs/hashtable_class_helper.pxi", line 2767, in pandas._libs.hashtable.Int64HashTable.get_item
TypeError: {message}
"""
PANDAS_ERRORS = {
    "": (
        "get_item() takes exactly 1 positional argument (0 given)",
        "get_item() takes exactly 1 positional argument ({given} given)",
    ),
    "1, val=2": (
        "get_item() got multiple values for keyword argument 'val'",
        "get_item() got multiple values for keyword argument '{kw}'",
    ),
}
PANDAS_LINE = 2767


def _placed_at(template: str, line: int) -> str:
    """``template`` after comment lines standing in for the ones the real template holds
    above it (3.1.1's sdist was not at hand), so its Int64 ``get_item`` renders at ``line``,
    where the build printed it: the template's own lines and text are pandas'."""
    from Cython import Tempita

    rendered = str(Tempita.sub(template)).splitlines()
    defs = [n for n, text in enumerate(rendered, 1) if "cpdef get_item" in text]
    return "# earlier helpers\n" * (line - defs[-1]) + template


@pytest.mark.parametrize("call", sorted(PANDAS_ERRORS))
def test_a_pandas_argument_error_finds_its_template_s_generated_site(
    tmp_path: Path, call: str
) -> None:
    """Cython's own argument check of a function a Tempita template renders, pasted as
    pandas printed it: the site generated at the rendered ``def`` line answers, the Int64
    rendering before the Float64 one whose text is the same."""
    libs = tmp_path / "pandas" / "_libs"
    libs.mkdir(parents=True)
    (libs / "hashtable.pyx").write_text('include "hashtable_class_helper.pxi"\n')
    template = _placed_at(PANDAS_TEMPLATE, PANDAS_LINE)
    (libs / "hashtable_class_helper.pxi.in").write_text(template)
    checkout = open_source(str(tmp_path), repo="pandas-dev/pandas", sha="2" * 40)
    result = scan_checkout(checkout, repo="pandas-dev/pandas", analyze=False)
    db = tmp_path / "errdex.db"
    with SqliteStore(db) as store:
        store_scan(store, checkout, "pandas-dev/pandas", result, "2026-12-06T00:00:00.000Z")
    message, template = PANDAS_ERRORS[call]
    best = match(PANDAS_TRACEBACK.format(call=call, message=message), db)[0]
    assert (best.filePath, best.lineNumber) == (
        "pandas/_libs/hashtable_class_helper.pxi.in",
        PANDAS_LINE,
    )
    assert best.errorMessage == template
    assert best.confidence >= 0.9
