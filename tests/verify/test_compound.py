"""A ``try`` around an expectation keeps its ``finally`` (e48), reviewed (rr6): a cleanup
that raised counted as the expected raise though the call raised nothing, and one that
waited on what the cut removed hung the run until its timeout."""

from __future__ import annotations

import ast
import subprocess
import sys
import textwrap

from errdex.verify.from_tests import Candidate, candidates

SOURCE = textwrap.dedent(
    """
    import unittest, threading

    class T(unittest.TestCase):
        def test_finally_wait(self):
            done = threading.Event()
            t = threading.Thread(target=done.wait)
            t.start()
            try:
                self.assertRaises(ValueError, int, "x")
                done.set()
            finally:
                t.join()

        def test_finally_raises(self):
            lock = threading.Lock()
            try:
                self.assertRaises(ValueError, int, "1")
                lock.acquire()
            finally:
                lock.release()

        def test_finally_breaks(self):
            for x in "ab":
                try:
                    self.assertRaises(ValueError, int, x)
                finally:
                    break

        def _check(self, s):
            self.assertRaises(ValueError, int, s)

        def test_helper_in_finally(self):
            try:
                self._check("a")
            finally:
                self._check("b")
            self._check("c")
    """
)


def _cands(name: str) -> list[Candidate]:
    cands = candidates(ast.parse(SOURCE), "Lib/test/test_zz.py")
    return [c for c in cands if c.test.endswith("::" + name)]


def _run(program: str) -> str:
    """The last line of the run's stderr: the error it ended with ('' for none)."""
    done = subprocess.run(
        [sys.executable, "-c", program], capture_output=True, text=True, timeout=20
    )
    lines = done.stderr.strip().splitlines()
    return lines[-1] if lines else ""


def test_an_error_of_the_cleanup_is_never_the_runs() -> None:
    (cand,) = _cands("test_finally_raises")
    assert _run(cand.program) == ""  # int('1') raised nothing; lock.release() was swallowed


def test_the_finally_gets_what_the_try_ran_after_the_expectation() -> None:
    (cand,) = _cands("test_finally_wait")
    assert _run(cand.program).startswith("ValueError: invalid literal")  # done.set() ran


def test_a_finally_that_ends_the_error_is_not_kept() -> None:
    cands = _cands("test_finally_breaks")
    assert cands
    for cand in cands:
        assert "break" not in cand.program
        ast.parse(cand.program)


def test_a_try_left_without_its_helper_finally_parses() -> None:
    cands = _cands("test_helper_in_finally")
    assert cands
    for cand in cands:
        ast.parse(cand.program)
