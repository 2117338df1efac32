"""Tracebacks that end at a Python line calling into C: matched to the C site by message.

A C or C++ site prints no frame of its own; its Python twin (the pure-Python fallback
raising the same message) would be the innermost frame if it had raised. Real errors are
provoked from simplejson's and ujson's compiled speedups and matched against catalogues
of their sdists.
"""

from __future__ import annotations

import os
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from errdex.match.api import NOT_CATALOGUED, answers
from errdex.scan import scan_checkout, store_scan
from errdex.source import open_source
from errdex.store import SqliteStore
from tests.extract._c_sdists import sdist, store_compiled, wheels

SHA = "89abcdef0123456789abcdef0123456789abcdef"

CODEC = textwrap.dedent(
    """\
    from tinycodec._speedups import c_encode


    def encode(obj):
        return c_encode(obj)


    def py_encode(obj):
        if isinstance(obj, str):
            return obj.encode()
        raise TypeError(f"cannot encode {type(obj).__name__} objects")
    """
)
SPEEDUPS = textwrap.dedent(
    """\
    #include <Python.h>

    static PyObject *
    c_encode(PyObject *self, PyObject *obj)
    {
        if (!PyUnicode_Check(obj)) {
            PyErr_Format(PyExc_TypeError, "cannot encode %.100s objects", Py_TYPE(obj)->tp_name);
            return NULL;
        }
        return PyUnicode_AsUTF8String(obj);
    }
    """
)


def _build(root: Path, repo: str, include: list[str] | None = None) -> None:
    checkout = open_source(str(root), repo=repo, sha=SHA)
    result = scan_checkout(checkout, repo=repo, include=include or [])
    with SqliteStore(root.parent / "errdex.db") as store:
        store_scan(store, checkout, repo, result, "2026-12-01T00:00:00.000Z")


@pytest.fixture
def twins(tmp_path: Path) -> Path:
    pkg = tmp_path / "codec" / "src" / "tinycodec"
    pkg.mkdir(parents=True)
    (pkg / "__init__.py").write_text("")
    (pkg / "codec.py").write_text(CODEC)
    (pkg / "_speedups.c").write_text(SPEEDUPS)
    _build(tmp_path / "codec", "example/tinycodec")
    return tmp_path / "errdex.db"


def _line(text: str, needle: str) -> int:
    return next(n for n, line in enumerate(text.splitlines(), 1) if needle in line)


def _traceback(
    innermost: str, line: int, message: str = "TypeError: cannot encode complex objects"
) -> str:
    return textwrap.dedent(
        f"""\
        Traceback (most recent call last):
          File "/home/me/app.py", line 3, in <module>
            tinycodec.codec.encode(1j)
          File "/venv/lib/python3.11/site-packages/tinycodec/codec.py", line {line}, in encode
            {innermost}
        {message}
        """
    )


def test_a_python_line_calling_c_finds_the_c_site_not_its_python_twin(twins: Path) -> None:
    tb = _traceback("return c_encode(obj)", _line(CODEC, "return c_encode"))
    (answer,) = answers(tb, twins)
    best = answer.candidates[0]
    assert (best.filePath, best.lineNumber) == (
        "src/tinycodec/_speedups.c",
        _line(SPEEDUPS, "PyErr_Format"),
    )
    assert best.holes == {"Py_TYPE(obj)->tp_name": "complex"}
    assert best.confidence >= 0.9
    assert any("no frame of its own" in r for r in best.reasons)
    assert answer.candidates[1].filePath == "src/tinycodec/codec.py"


def test_the_python_twin_wins_when_the_traceback_shows_its_raise(twins: Path) -> None:
    tb = _traceback('raise TypeError(f"cannot encode', _line(CODEC, "raise TypeError"))
    (answer,) = answers(tb, twins)
    assert answer.candidates[0].filePath == "src/tinycodec/codec.py"


def test_a_message_of_another_class_is_not_answered_with_the_c_site(twins: Path) -> None:
    tb = _traceback("return c_encode(obj)", 5, "ValueError: cannot encode complex objects")
    (answer,) = answers(tb, twins)
    assert (answer.status, answer.candidates) == (NOT_CATALOGUED, [])
    done = subprocess.run(
        [sys.executable, "-m", "errdex", "match", "--db", str(twins)],
        input=tb,
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 1, done.stdout


# -- real errors from compiled speedups ------------------------------------------------

#: (code a user might write, the C file and the call that raises it)
PROVOKED = [
    (
        "import simplejson; simplejson.dumps({1j: 1})",
        "simplejson/_speedups.c",
        "keys must be str, int",
    ),
    ("import ujson; ujson.dumps(object())", "src/ujson/encode.c", "is not JSON serializable"),
    (
        "import ujson; ujson.dumps([], indent=2000)",
        "src/ujson/encode.c",
        "Maximum allowed indentation",
    ),
    ("import ujson; ujson.loads(1)", "src/ujson/decode.c", "Expected string, bytes, or bytearray"),
    (
        "import ujson; ujson.dumps({}, separators=1)",
        "src/ujson/encode.c",
        "expected tuple or None as separator",
    ),
    ("import ujson; ujson.dump([], 1)", "src/ujson/encode.c", '"expected file"'),
]


@pytest.fixture(scope="module")
def compiled(tmp_path_factory: pytest.TempPathFactory) -> tuple[Path, Path]:
    """(catalogue of simplejson's and ujson's sdists, folder with their wheels)."""
    libs = wheels("simplejson", "ujson")
    root = tmp_path_factory.mktemp("compiled")
    db = root / "errdex.db"
    with SqliteStore(db) as store:
        store_compiled(store, SHA)
    return db, libs


def _provoke(code: str, libs: Path, tmp_path: Path) -> str:
    """Run ``code`` as a user's script (so the traceback prints its source lines)."""
    script = tmp_path / "script.py"
    script.write_text(code.replace("; ", "\n") + "\n")
    env = {**os.environ, "PYTHONPATH": str(libs)}
    done = subprocess.run(
        [sys.executable, str(script)], capture_output=True, text=True, timeout=60, env=env
    )
    assert done.returncode == 1, done.stderr
    return done.stderr


@pytest.mark.parametrize(("code", "path", "needle"), PROVOKED)
def test_real_c_raised_errors_match_their_c_site_top_1(
    compiled: tuple[Path, Path], code: str, path: str, needle: str, tmp_path: Path
) -> None:
    db, libs = compiled
    tb = _provoke(code, libs, tmp_path)
    (answer,) = answers(tb, db)
    assert answer.candidates, tb
    best = answer.candidates[0]
    source = (
        sdist(path.split("/")[0] if path.startswith("simplejson") else "ujson") / path
    ).read_text()
    lines = source.splitlines()
    assert best.filePath == path, (tb, best)
    window = "\n".join(lines[best.lineNumber - 1 : best.lineNumber + 2])
    assert needle in window, (best, window)
    # sites the paste cannot tell apart (two ``expected file`` checks in ujson_dump) share it
    together = sum(c.confidence for c in answer.group) if answer.group else best.confidence
    assert together >= 0.9, answer.candidates
    assert all(c.filePath == path for c in answer.group)
