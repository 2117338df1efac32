"""A helper that takes the error class as a parameter (review rr6 of e48's inlining):
``assertRaisesMessage``'s ``except exc_type`` and ``checkraises(self, exc, ...)`` under a
``subTest`` gave an expectation with no class, which :func:`accepts` passed for any error,
and the handler's message check was dropped."""

from __future__ import annotations

import ast
import textwrap

from errdex.verify._test_cases import CaseIndex
from errdex.verify.expectation import accepts
from errdex.verify.from_tests import Candidate, candidates, module_of
from errdex.verify.sandbox import RunResult

SOURCE = textwrap.dedent(
    """
    import re
    import unittest
    from fractions import Fraction as F


    class T(unittest.TestCase):
        def assertRaisesMessage(self, exc_type, message, callable, *args, **kwargs):
            try:
                callable(*args, **kwargs)
            except exc_type as e:
                self.assertEqual(message, str(e))
            else:
                self.fail("%s not raised" % exc_type.__name__)

        def assertOddMessage(self, exc_type, message, callable, *args):
            try:
                callable(*args)
            except exc_type as e:
                self.assertTrue(len(str(e)) > len(message))

        def checkraises(self, exc, obj, *args, expected_msg=None):
            with self.assertRaises(exc) as cm:
                F(obj, *args)

        def checkPatternError(self, pattern, errmsg):
            with self.assertRaises(re.error) as cm:
                re.compile(pattern)

        def test_pattern(self):
            self.checkPatternError(r'[\\N]', 'missing {')

        def test_msg(self):
            self.assertRaisesMessage(ValueError, "Invalid literal", F, [])

        def test_odd(self):
            self.assertOddMessage(ValueError, "x", F, "3/")

        def test_sub(self):
            with self.subTest(n=1):
                self.checkraises(ValueError, [])

        def test_unknown(self):
            for kind in self.kinds:
                self.checkraises(kind, [])
    """
)
PATH = "Lib/test/test_zz.py"


def _cands() -> dict[str, list[Candidate]]:
    tree = ast.parse(SOURCE)
    index = CaseIndex()
    index.add(module_of(PATH), tree, PATH)
    out: dict[str, list[Candidate]] = {}
    for cand in candidates(tree, PATH, index):
        out.setdefault(cand.test.rsplit("::", 1)[1], []).append(cand)
    return out


def _raised(cls: str, message: str) -> RunResult:
    return RunResult("raised", error_class=cls, classes=(cls,), message=message)


def test_an_except_of_the_helpers_parameter_names_the_class_the_call_passed() -> None:
    cands = _cands()["test_msg"]
    assert cands
    for cand in cands:
        assert cand.expects.classes == ("ValueError",)
        # F([]) raises TypeError: the test fails on it, and so must the run
        assert not accepts(cand.expects, _raised("builtins.TypeError", "bad"))
        # the handler's assertEqual(message, str(e)) holds the message to the whole text
        assert not accepts(cand.expects, _raised("builtins.ValueError", "Invalid literal: x"))
        assert accepts(cand.expects, _raised("builtins.ValueError", "Invalid literal"))


def test_a_with_under_a_subtest_binds_the_class_too() -> None:
    cands = _cands()["test_sub"]
    assert cands
    for cand in cands:
        assert cand.expects.classes == ("ValueError",)
        assert not accepts(cand.expects, _raised("builtins.TypeError", "bad"))


def test_a_helpers_candidate_whose_class_or_check_is_not_read_is_refused() -> None:
    cands = _cands()
    assert "test_unknown" not in cands  # the class is self.kinds' item: never read
    assert "test_odd" not in cands  # the handler checks the message in a way not read


def test_a_class_the_helper_names_itself_rules_nothing_out_as_in_a_test() -> None:
    """test_re's ``checkPatternError``: ``assertRaises(re.error)`` is no parameter of the
    helper; unread (a lower-case name), it is taken as a test's own is (re/_parser.py:350
    was lost in a stdlib sample when every unread class was refused)."""
    programs = {c.program for c in _cands()["test_pattern"]}
    assert programs
    assert all(p.endswith("re.compile(pattern)") for p in programs)
