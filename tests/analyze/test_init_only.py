"""A guard over an attribute only ``__init__`` sets is said as an ``__init__`` that did
not run (``threading.Thread``'s ``_initialized``; paired blind review, stop 36)."""

from __future__ import annotations

import shutil
import sysconfig
import threading
from pathlib import Path

import pytest

from errdex.scan import scan_checkout
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
    assert "_mode" not in trigger  # said less: an internal condition, not the code
    assert trigger.startswith("Triggered under a condition on the internal state of its `Worker`")


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
