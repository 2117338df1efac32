"""A guard over an attribute only ``__init__`` sets is said as an ``__init__`` that did
not run (``threading.Thread``'s ``_initialized``; paired blind review, stop 36)."""

from __future__ import annotations

import os
import shutil
import sysconfig
import threading
import time
from pathlib import Path

import pytest

from errdex.scan import scan_checkout
from errdex.scan_cache import ScanCache
from errdex.source import open_source

from .stdlib_items import one_file_items

WORKER = """\
class Worker:
    _initialized = False
    _mode = "r"

    def __init__(self, name):
        self.name = name
        self._initialized = True
        self._mode = "w"

    def start(self):
        if not self._initialized:
            raise RuntimeError("worker.__init__() not called")

    def name_of(self):
        assert self._initialized, "Worker.__init__() was not called"
        return self.name

    def write(self):
        if self._mode != "w":
            raise ValueError("not open for writing")

    def reopen(self):
        self._mode = "r"
"""


def _triggers(tmp_path: Path) -> dict[int, str]:
    items = one_file_items(tmp_path, "worker.py", WORKER)
    return {r["lineNumber"]: str(r["triggerScenarios"]) for r, _ in items}


def test_an_attribute_only_init_sets_is_an_init_that_did_not_run(tmp_path: Path) -> None:
    found = _triggers(tmp_path)
    for line in (12, 15):  # an ``if`` and an ``assert``
        assert found[line].startswith(
            "Triggered when the `Worker` object's `__init__` did not run: a subclass of"
            " `Worker` whose `__init__` does not call `super().__init__()`"
        ), found[line]
        assert "_initialized" not in found[line]


def test_an_attribute_another_method_sets_is_no_init_cause(tmp_path: Path) -> None:
    """``reopen`` stores ``_mode`` too: a skipped ``__init__`` is not the only way."""
    trigger = _triggers(tmp_path)[20]
    assert "__init__" not in trigger
    assert trigger.startswith('Triggered when `self._mode != "w"`.'), trigger  # as code


def test_a_thread_subclass_without_super_init(tmp_path: Path) -> None:
    """The stdlib's own ``Thread.start``: the record says the cause the run shows."""

    class Quiet(threading.Thread):
        def __init__(self) -> None:  # no super().__init__()
            pass

    with pytest.raises(RuntimeError, match=r"thread.__init__\(\) not called"):
        Quiet().start()
    shutil.copy(Path(sysconfig.get_paths()["stdlib"]) / "threading.py", tmp_path)
    result = scan_checkout(open_source(str(tmp_path), repo="o/t"), repo="o/t")
    (record,) = [
        r
        for r, _ in result.items
        if r["errorMessage"] == "thread.__init__() not called" and "start" in r["documentation"]
    ]
    assert "`Thread` object's `__init__` did not run" in record["triggerScenarios"]
    assert "`Thread` object's `__init__` did not run" in record["documentation"]


UNSURE = {
    "cond.py": """\
class A:
    _ready = False

    def __init__(self, flag=False):
        if flag:
            self._ready = True

    def go(self):
        if not self._ready:
            raise RuntimeError("not ready")
""",
    "early.py": """\
class B:
    _ready = False

    def __init__(self, data):
        if not data:
            return
        self._ready = True

    def go(self):
        if not self._ready:
            raise RuntimeError("not ready")
""",
    "closure.py": """\
class D:
    def __init__(self):
        def later():
            self._done = True

        self._cb = later
        self._started = True

    def go(self):
        if not hasattr(self, "_done"):
            raise RuntimeError("not done")
""",
    "dunder.py": """\
class F:
    _ready = False

    def __init__(self):
        self._ready = True

    def stop(self):
        object.__setattr__(self, "_ready", False)

    def go(self):
        if not self._ready:
            raise RuntimeError("stopped")
""",
    "base.py": """\
class Base:
    def close(self):
        self._closed = True
""",
    "sub.py": """\
from base import Base


class Reader(Base):
    _closed = True

    def __init__(self, f):
        self.f = f
        self._closed = False

    def read(self):
        if self._closed:
            raise ValueError("I/O operation on closed file")
        return self.f.read()
""",
}


def test_no_init_cause_where_another_store_may_set_it(tmp_path: Path) -> None:
    """A store under an ``if``, after an early ``return``, only in a closure, through
    ``object.__setattr__`` or in a base's method in another module: "`__init__` did not
    run" would be false (re-reader, stop 38)."""
    for name, text in UNSURE.items():
        (tmp_path / name).write_text(text)
    result = scan_checkout(open_source(str(tmp_path), repo="o/u"), repo="o/u")
    said = [str(r["triggerScenarios"]) for r, _ in result.items]
    assert len(said) == 5
    assert all("did not run" not in s for s in said), said


FIRST = (
    """\
class W:
    _ready = False

    def __init__(self):
        self._ready = True

    def go(self):
        if not self._ready:
            raise RuntimeError("not ready")
"""
    + "\n" * 40
    + "def helper(n):\n    return n + 1\n"
)


def test_a_store_added_elsewhere_analyses_the_record_again(tmp_path: Path) -> None:
    """An incremental scan re-analyses the record when ``helper`` comes to store
    ``n._ready``: the rule read the whole module (inc2.py, re-reader stop 38)."""
    root = tmp_path / "repo"
    root.mkdir()
    (root / "m.py").write_text(FIRST)

    def trigger() -> str:
        with ScanCache(tmp_path / "cache.db") as cache:
            found = scan_checkout(open_source(str(root), repo="o/m"), repo="o/m", cache=cache)
        (record,) = [r for r, _ in found.items]
        return str(record["triggerScenarios"])

    assert "did not run" in trigger()
    (root / "m.py").write_text(FIRST.replace("    return n + 1\n", "    n._ready = False\n"))
    os.utime(root / "m.py", ns=(time.time_ns() + 10**9, time.time_ns() + 10**9))
    assert "did not run" not in trigger()


def test_a_file_python_cannot_read_stores_nothing(tmp_path: Path) -> None:
    """The stdlib's ``test/tokenizedata/bad_coding.py`` took every ``Thread`` init cause
    away when an unreadable file counted as a store (stop 38)."""
    from errdex.analyze.attr_stores import stores_elsewhere

    bad = tmp_path / "bad_coding.py"
    bad.write_bytes(b"# -*- coding: uft-8 -*-\nself._initialized = 1\n")
    own = tmp_path / "own.py"
    own.write_text("x = 1\n")
    good = tmp_path / "good.py"
    good.write_text("def f(t):\n    t._initialized = True\n")
    found = stores_elsewhere("_initialized", [str(bad), str(own), str(good)], str(own))
    assert found == ((str(good), 1),)
