"""Tests that need their test case, conftest fixtures and click's CliRunner, run for real."""

from __future__ import annotations

import ast
import textwrap
from pathlib import Path
from typing import Any

from errdex.store import SqliteStore
from errdex.verify._test_cases import CaseIndex, blocked_modules
from errdex.verify.from_tests import candidates, module_of

from .conftest import REPO, Tree

CLI = """\
import click


@click.command()
@click.argument("n", type=int)
def main(n):
    if n > 3:
        raise click.UsageError(f"n must be at most 3, got {n}")
"""

CONFTEST = """\
import pytest
from click.testing import CliRunner


@pytest.fixture(scope="function")
def runner(request):
    return CliRunner()
"""

TEST_CLI = """\
from acme.cli import main


def test_too_big(runner):
    result = runner.invoke(main, ["9"])
    assert result.exit_code == 2
"""

BASES = """\
import unittest

from acme import core


class Base(unittest.TestCase):
    def setUp(self):
        self.core = core
"""

TEST_MIXIN = """\
from tests.bases import Base


class Checks:
    def call(self):
        return self.core.unreached([])

    def test_unreached(self):
        with self.assertRaises(RuntimeError):
            self.call()


class TestChecks(Checks, Base):
    pass
"""


def _write(tree: Tree, files: dict[str, str]) -> None:
    for rel, text in files.items():
        (tree.root / rel).write_text(text)


def _evidence(tree: Tree, file_path: str, line: int | None = None) -> list[dict[str, Any]]:
    with SqliteStore(tree.db) as store:
        return [
            e["evidence"]
            for e in store.iter_envelopes(REPO)
            if e["record"]["filePath"] == file_path
            and line in (None, int(e["record"]["lineNumber"]))
        ]


def _rescan(tree: Tree) -> None:
    from click.testing import CliRunner

    from errdex.cli import main

    done = CliRunner().invoke(
        main, ["scan", str(tree.root), "--repo", REPO, "--db", str(tree.db), "--no-progress"]
    )
    assert done.exit_code == 0, done.output


def test_a_mixin_test_runs_under_its_concrete_test_case(tree: Tree) -> None:
    _write(tree, {"tests/bases.py": BASES, "tests/test_mixin.py": TEST_MIXIN})
    result = tree.verify()
    assert result.exit_code == 0, result.output
    (unreached,) = _evidence(tree, "acme/core.py", 27)
    rep = unreached["reproducer"]
    assert rep["raised"] == "RuntimeError: nothing reaches this"
    assert rep["test"] == "tests/test_mixin.py::Checks::test_unreached"
    assert "self = TestChecks('test_unreached')" in rep["snippet"]
    assert "self.setUp()" in rep["snippet"]


def test_a_conftest_fixture_and_a_cli_runner_invoke_reproduce(tree: Tree) -> None:
    (tree.root / "acme" / "cli.py").write_text(CLI)
    _write(tree, {"tests/conftest.py": CONFTEST, "tests/test_cli.py": TEST_CLI})
    _rescan(tree)
    result = tree.verify()
    assert result.exit_code == 0, result.output
    (evidence,) = _evidence(tree, "acme/cli.py")
    rep = evidence["reproducer"]
    assert rep["raised"] == "UsageError: n must be at most 3, got 9"
    assert rep["site"] == "acme/cli.py:8"
    assert "runner = CliRunner()" in rep["snippet"]
    assert "standalone_mode=False, catch_exceptions=False" in rep["snippet"]


def _index(modules: dict[str, str]) -> CaseIndex:
    index = CaseIndex()
    for rel, text in modules.items():
        index.add(module_of(rel), ast.parse(text), rel)
    return index


def test_concrete_classes_come_from_other_modules_and_carry_their_blocks() -> None:
    init = textwrap.dedent(
        """
        import unittest
        from test.support.import_helper import import_fresh_module
        pyjson = import_fresh_module('json', blocked=['_json'])
        class PyTest(unittest.TestCase):
            json = pyjson
        """
    )
    decode = textwrap.dedent(
        """
        from test.test_json import PyTest
        class TestDecode:
            def test_bad(self):
                self.assertRaises(ValueError, self.json.loads, '[')
        class TestPyDecode(TestDecode, PyTest):
            pass
        """
    )
    index = _index({"test/test_json/__init__.py": init, "test/test_json/test_decode.py": decode})
    assert index.concrete("test.test_json.test_decode", "TestDecode") == [
        "test.test_json.test_decode.TestPyDecode"
    ]
    (cand,) = candidates(decode, "test/test_json/test_decode.py", index)
    assert cand.blocked == ("_json",)
    assert cand.program.splitlines()[:3] == [
        "from test.test_json.test_decode import TestPyDecode",
        "TestPyDecode.setUpClass()",
        "self = TestPyDecode('test_bad')",
    ]
    assert cand.program.endswith("self.json.loads('[')")
    # without the index the test needs its test case and yields nothing
    assert candidates(decode, "test/test_json/test_decode.py") == []


def test_blocked_modules_are_read_from_both_forms() -> None:
    tree = ast.parse(
        "import sys\nsys.modules['_heapq'] = None\n"
        "P = import_helper.import_fresh_module('decimal', blocked=['_decimal'])\n"
    )
    assert blocked_modules(tree) == frozenset({"_heapq", "_decimal"})


def test_a_fixture_that_uses_request_is_out_of_reach(tmp_path: Path) -> None:
    conftest = "import pytest\n@pytest.fixture\ndef thing(request):\n    return request.param\n"
    test = (
        "import pytest\ndef test_a(thing):\n    with pytest.raises(ValueError):\n        f(thing)\n"
    )
    index = _index({"tests/conftest.py": conftest})
    assert candidates(test, "tests/test_a.py", index) == []


def test_an_invoke_inside_an_expectation_lets_the_error_out() -> None:
    test = (
        "import pytest\nfrom click.testing import CliRunner\nfrom acme.cli import main\n"
        "def test_w():\n    runner = CliRunner()\n"
        "    with pytest.warns(UserWarning):\n        runner.invoke(main, ['1'])\n"
    )
    (cand,) = candidates(test, "tests/test_w.py", _index({}))
    assert cand.warns
    assert cand.program.endswith(
        "runner.invoke(main, ['1'], standalone_mode=False, catch_exceptions=False)"
    )
