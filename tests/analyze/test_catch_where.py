"""Catch advice names where to catch (blind review 2026-12-06, issue 10): the public call
errdex resolved, the import of the module for a raise in top-level code, or no place at
all, never "the call that reaches it", which names none."""

from __future__ import annotations

import textwrap
from pathlib import Path

from errdex.analyze.catch_where import around, own_call
from errdex.scan import scan_checkout
from errdex.source import open_source

CODE = textwrap.dedent(
    """\
    import os

    if os.name == "nt":
        raise ImportError("not on this platform")


    def fetch(path):
        with open(path) as f:
            f.read()
        raise OSError("the device is gone")


    class Pipe:
        def __len__(self):
            return _size(self)


    def _size(pipe):
        raise OSError("the pipe is closed")


    def _unused():
        raise OSError("the lock is stale")
    """
)


def _solutions(tmp_path: Path) -> dict[str, list[str]]:
    (tmp_path / "wire.py").write_text(CODE)
    result = scan_checkout(open_source(str(tmp_path), repo="o/wire"), repo="o/wire")
    return {r["errorMessage"]: r["solutions"] for r, _ in result.items}


def test_the_catch_names_the_call_the_import_or_no_place(tmp_path: Path) -> None:
    found = _solutions(tmp_path)
    assert found["not on this platform"] == [
        "Catch `ImportError` around the import of `wire` where the program must go on after it."
    ]
    assert found["the device is gone"] == [
        "Catch `OSError` around the call to `fetch()` where the program must go on after it."
    ]
    assert found["the pipe is closed"] == [
        "Catch `OSError` around the use of `Pipe.__len__` where the program must go on after it."
    ]
    assert found["the lock is stale"] == ["Catch `OSError` where the program must go on after it."]
    assert not any("reaches it" in s for ss in found.values() for s in ss)


def test_own_call_is_a_public_call_a_caller_writes() -> None:
    assert own_call("pkg.mod.Conn.send", "send") == "`pkg.mod.Conn.send()`"
    assert own_call("pkg.mod.Conn.__init__", "__init__") == "`pkg.mod.Conn()`"
    assert own_call("pkg._mod.send", "send") is None  # a private module
    assert own_call("pkg.mod.Conn.__len__", "__len__") is None  # run by ``len(x)``
    assert own_call("pkg.mod.f.<locals>.g", "g") is None
    assert own_call("pkg.mod", None) is None  # top-level code
    assert around(None, "pkg.mod") == " around the import of `pkg.mod`"
    assert around(None, None) == ""
