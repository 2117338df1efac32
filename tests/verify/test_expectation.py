"""A run of a snippet cut from a test is the test's only where the test would take the
error it raised (blind review 2026-12-06, record 10: ``test_total_timeout_connect``
expects ``ConnectTimeout``; with the network cut its snippet raised the base class
``ConnectionError`` at another line, and errdex said the test expects that error there)."""

from __future__ import annotations

import ast
from pathlib import Path

from click.testing import CliRunner

from errdex.cli import main
from errdex.store import SqliteStore
from errdex.verify.expectation import Expectation, accepts, expectation_at
from errdex.verify.sandbox import RunResult

NET = '''\
import os


class LinkError(OSError):
    """The connection failed."""


class LinkTimeout(LinkError):
    """The connection timed out."""


def connect(host):
    if os.environ.get("NET_UP_FOR_TESTS") == "slow":
        raise LinkTimeout(f"timed out connecting to {host}")
    raise LinkError(f"cannot connect to {host.strip()}")
'''

TESTS = """\
import pytest

from acme.net import LinkTimeout, connect


def test_timeout():
    with pytest.raises(LinkTimeout):
        connect("10.255.255.1")
"""

REPO = "acme/net"


def _func(text: str) -> ast.FunctionDef:
    node = ast.parse(text).body[0]
    assert isinstance(node, ast.FunctionDef)
    return node


def _raised(*classes: str, message: str = "") -> RunResult:
    return RunResult("raised", error_class=classes[0], classes=classes, message=message)


def test_the_expected_classes_and_regex_are_read() -> None:
    func = _func(
        "def test_x(self):\n"
        "    with pytest.raises((mod.A, B), match='bad'):\n"
        "        f()\n"
        "    self.assertRaisesRegex(C, 'no+', g, 1)\n"
        "    with self.assertRaises(self.failureException):\n"
        "        h()\n"
    )
    assert expectation_at(func, 2) == Expectation(("A", "B"), "bad")
    assert expectation_at(func, 4) == Expectation(("C",), "no+")
    assert expectation_at(func, 5) == Expectation()  # not read: rules nothing out


def test_every_form_the_analyst_links_is_read_here_too() -> None:
    """The analyst links ``assertRaisesRegexp`` and numpy's ``assert_raises_regex``; a run
    of a snippet cut from such a test is judged by the same class and regex."""
    func = _func(
        "def test_x(self):\n"
        "    self.assertRaisesRegexp(C, 'old+', g, 1)\n"
        "    assert_raises_regex(D, 'np+', h)\n"
        "    with assert_raises(E):\n"
        "        k()\n"
    )
    assert expectation_at(func, 2) == Expectation(("C",), "old+")
    assert expectation_at(func, 3) == Expectation(("D",), "np+")
    assert expectation_at(func, 4) == Expectation(("E",))
    deprecated = _raised("mod.C", message="bad")
    assert not accepts(expectation_at(func, 2), deprecated)  # its regex is not met


def test_a_base_class_is_not_what_a_subclass_expectation_takes() -> None:
    base = _raised("acme.net.LinkError", "builtins.OSError", message="cannot connect to h")
    sub = _raised("acme.net.LinkTimeout", "acme.net.LinkError", message="timed out")
    assert not accepts(Expectation(("LinkTimeout",)), base)
    assert accepts(Expectation(("LinkTimeout",)), sub)
    assert accepts(Expectation(("LinkError",)), sub)  # a subclass raised: the test passes
    assert not accepts(Expectation(("LinkError",), "refused"), base)
    assert accepts(Expectation(("OSError",), "cannot connect"), base)
    assert accepts(Expectation(), base)


def test_a_run_the_test_would_fail_is_not_the_tests_reproducer(tmp_path: Path) -> None:
    root = tmp_path / "net"
    (root / "acme").mkdir(parents=True)
    (root / "tests").mkdir()
    (root / "acme" / "__init__.py").write_text("")
    (root / "acme" / "net.py").write_text(NET)
    (root / "tests" / "test_net.py").write_text(TESTS)
    db = tmp_path / "net.db"
    runner = CliRunner()
    scanned = runner.invoke(main, ["scan", str(root), "--repo", REPO, "--db", str(db)])
    assert scanned.exit_code == 0, scanned.output
    args = ["verify", REPO, "--db", str(db), "--path", str(root), "--no-progress"]
    verified = runner.invoke(main, [*args, "--tests", str(root / "tests")])
    assert verified.exit_code == 0, verified.output
    with SqliteStore(db) as store:
        by_line = {e["record"]["lineNumber"]: e["evidence"] for e in store.iter_envelopes(REPO)}
    # ``raise LinkError``: the snippet raised it here, and the test would have failed
    assert "reproducer" not in by_line[15], {
        k: v for k, v in by_line[15]["reproducer"].items() if k != "tracebackTail"
    }
    check = by_line[15]["verification"]["fields"]["reproducer"]
    assert check["status"] == "failed", check
    assert "which the test's LinkTimeout is not" in check["reason"], check
    assert "reproducer" not in by_line[14]  # nothing raised LinkTimeout


def test_a_parametrized_class_is_read_from_the_snippet() -> None:
    """``test_errors(self, url, exception)`` expects ``pytest.raises(exception)``; the
    snippet binds ``exception = ConnectionError`` from the parametrize case it runs."""
    func = _func(
        "def test_errors(url, exception):\n    with pytest.raises(exception):\n        f()\n"
    )
    read = expectation_at(func, 2)
    assert read.classes == () and read.variable == "exception"
    program = "url = 'http://fe80::1'\nexception = InvalidURL\nrequests.get(url)\n"
    assert read.bound(program).classes == ("InvalidURL",)
    raised = _raised("requests.exceptions.ConnectionError", message="refused")
    assert not accepts(read.bound(program), raised)
    assert accepts(read.bound("exception = make()\nf()\n"), raised)  # not read: taken


def test_deprecated_call_takes_the_deprecation_classes() -> None:
    """``pytest.deprecated_call(f, x)`` names no class: its first argument is the callable
    (re-read, stop 34: it was read as the expected class)."""
    func = _func(
        "def test_x():\n"
        "    pytest.deprecated_call(old, 1)\n"
        "    with pytest.deprecated_call():\n"
        "        old(2)\n"
    )
    for line in (2, 3):
        found = expectation_at(func, line)
        assert "DeprecationWarning" in found.classes and found.variable == ""
    assert not accepts(expectation_at(func, 2), _raised("builtins.UserWarning"))


def test_a_class_from_one_item_of_a_loop_over_pairs_is_read() -> None:
    """``for exc, arg in [(ValueError, 1)]: with pytest.raises(exc)``: the item's snippet
    binds ``exc, arg = (ValueError, 1)``, and the class check was off for it."""
    func = _func(
        "def test_loop():\n    for exc, arg in [(ValueError, 1)]:\n"
        "        with pytest.raises(exc):\n            f(arg)\n"
    )
    read = expectation_at(func, 3)
    assert read.bound("exc, arg = (ValueError, 1)\nf(arg)\n").classes == ("ValueError",)
    assert read.bound("arg, exc = (1, make())\nf(arg)\n").classes == ()
