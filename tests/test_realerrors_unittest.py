"""Real errors from a unittest suite (bench/realerrors/run_unittest.py): CPython's held-out check."""

from __future__ import annotations

import json
import shutil
import sys
import sysconfig
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1] / "bench" / "realerrors"))
import run_unittest

TINY = """
import json
import unittest


class Tiny(unittest.TestCase):
    def test_context_form(self):
        with self.assertRaises(json.JSONDecodeError):
            json.loads("")

    def test_callable_form(self):
        self.assertRaises(json.JSONDecodeError, json.loads, "   ")

    def test_raised_by_the_test_through_the_stdlib(self):
        def hook(obj):
            raise KeyError("mine")

        with self.assertRaises(KeyError):
            json.loads("{}", object_hook=hook)
"""


def test_choose_takes_every_nth_module_of_the_sorted_list() -> None:
    names = ["test_c", "test.test_asyncio.test_a", "test_b", "test_a", "test_d"]
    assert run_unittest.choose(names, 2, 0) == ["test.test_asyncio.test_a", "test_b", "test_d"]
    assert run_unittest.choose(names, 2, 1) == ["test_a", "test_c"]


def test_a_unittest_module_gives_rows_at_the_stdlib_raise(tmp_path: Path) -> None:
    here = Path(run_unittest.__file__).resolve().parent
    shutil.copy2(here / "plugin.py", tmp_path / "realerrors_plugin.py")
    shutil.copy2(here / "unittest_child.py", tmp_path / "unittest_child.py")
    shutil.copy2(run_unittest.BASE_PLUGIN, tmp_path / "errdex_harvest_base.py")
    (tmp_path / "tiny_suite.py").write_text(TINY)
    captures = tmp_path / "captures.jsonl"
    outcome = run_unittest.run_module(
        sys.executable, "tiny_suite", tmp_path, captures, tmp_path / "log.txt", 120
    )
    assert outcome == "ok", (tmp_path / "log.txt").read_text()
    summary = json.loads(captures.read_text().splitlines()[-1])
    assert summary["testsRun"] == 3 and summary["failures"] == summary["errors"] == 0
    stdlib = sysconfig.get_paths()["stdlib"]
    rows, outside = run_unittest.rows_of(captures, stdlib, "3.x")
    assert outside == 0
    by_test = {row["test_id"].rsplit(".", 1)[1]: row for row in rows}
    assert set(by_test) == {
        "test_context_form",
        "test_callable_form",
        "test_raised_by_the_test_through_the_stdlib",
    }
    for name in ("test_context_form", "test_callable_form"):
        row = by_test[name]
        assert row["catalogue_file"] == "Lib/json/decoder.py"
        assert row["is_python_raise"] is True and row["site_kind"] == "raise"
        assert row["exc_type"] == "json.decoder.JSONDecodeError"
        assert row["traceback_text"].startswith("Traceback (most recent call last):")
        assert row["traceback_text"].rstrip().endswith(row["message"])
    mine = by_test["test_raised_by_the_test_through_the_stdlib"]
    assert mine["raise_file"] == "json/decoder.py"
    assert mine["site_kind"] == "from_test_code" and mine["is_python_raise"] is False
