"""Test links through every expectation form a test suite writes (issue 10, item 2)."""

from __future__ import annotations

from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
import warnings


class ParseError(ValueError):
    pass


def parse(text):
    if not text:
        raise ParseError("empty input")
    return text


def coerce(value):
    if not isinstance(value, int):
        raise TypeError(f"expected an int, got {type(value).__name__}")
    return value


def old(x):
    warnings.warn("old() is deprecated; use new()", DeprecationWarning)
    return x
"""

TESTS = """\
import unittest

import numpy.testing as npt
import pytest as pt
from nose.tools import assert_raises_regexp
from numpy.testing import assert_raises
from pytest import raises

import lib


class TestForms(unittest.TestCase):
    def test_try_else_fail(self):
        try:
            lib.parse("")
        except lib.ParseError as e:
            assert str(e) == "empty input"
        else:
            self.fail("no error")

    def test_try_body_fail(self):
        try:
            lib.coerce("x")
            self.fail("coerce accepted a str")
        except TypeError:
            pass

    def test_method_bound_to_a_local_name(self):
        expect = self.assertRaises
        expect(TypeError, lib.coerce, "z")
        expect = print
        expect(lib.ParseError, lib.parse, "")

    def test_lambda_over_the_callable(self):
        badtype = lambda f: self.assertRaises(TypeError, f)
        badtype(lambda: lib.coerce("w"))
        badparse = lambda f: print(lib.ParseError, f)
        badparse(lambda: lib.parse(""))

    def test_warns_callable(self):
        self.assertWarns(DeprecationWarning, lib.old, 1)

    def test_warns_regex(self):
        with self.assertWarnsRegex(DeprecationWarning, "use new"):
            lib.old(1)


def test_aliased_raises():
    with raises(lib.ParseError):
        lib.parse("")


def test_aliased_module():
    pt.raises(TypeError, lib.coerce, "y")


def test_numpy_testing_forms():
    assert_raises(TypeError, lib.coerce, "n")
    with npt.assert_raises_regex(lib.ParseError, "empty"):
        lib.parse("")
    npt.assert_warns(DeprecationWarning, lib.old, 2)


def test_nose_tools_form():
    assert_raises_regexp(TypeError, "expected an int", lib.coerce, "m")


@pt.mark.parametrize(
    "exception, text, message",
    [(TypeError, "u", "expected an int"), pt.param(lib.ParseError, "", "empty", id="empty")],
)
def test_parametrized_class_and_message(exception, text, message):
    with pt.raises(exception, match=message):
        lib.coerce(text) if text else lib.parse(text)


@pt.mark.parametrize("exception", [lib.ParseError])
def test_parametrized_class_with_a_constant_message(exception):
    with pt.raises(exception, match="empty"):
        lib.parse("")


def test_try_that_is_not_an_expectation():
    try:
        lib.parse("")
    except lib.ParseError:
        pass
"""


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[tuple[str, str]]]:
    root = tmp_path_factory.mktemp("forms")
    (root / "lib.py").write_text(LIBRARY)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/forms"), repo="o/forms")
    out: dict[str, list[tuple[str, str]]] = {}
    for record, evidence in result.items:
        tests: list[dict[str, Any]] = evidence["tests"]
        out[record["errorMessage"].split()[0]] = sorted(
            (t["name"].split("::")[-1], t["kind"]) for t in tests
        )
    return out


def test_try_except_fail_forms_link(links: dict[str, list[tuple[str, str]]]) -> None:
    assert ("test_try_else_fail", "try-except") in links["empty"]
    assert ("test_try_body_fail", "try-except") in links["expected"]


def test_a_try_that_never_fails_the_test_is_not_a_link(
    links: dict[str, list[tuple[str, str]]],
) -> None:
    assert all(name != "test_try_that_is_not_an_expectation" for name, _ in links["empty"])


def test_unittest_warning_forms_link(links: dict[str, list[tuple[str, str]]]) -> None:
    assert links["old()"] == [
        ("test_numpy_testing_forms", "assertWarns"),
        ("test_warns_callable", "assertWarns"),
        ("test_warns_regex", "assertWarnsRegex"),
    ]


def test_aliased_pytest_imports_link(links: dict[str, list[tuple[str, str]]]) -> None:
    assert ("test_aliased_raises", "pytest.raises") in links["empty"]
    assert ("test_aliased_module", "pytest.raises") in links["expected"]


def test_an_expectation_method_bound_to_a_local_name_links(
    links: dict[str, list[tuple[str, str]]],
) -> None:
    """``expect = self.assertRaises`` / ``expect(E, f, x)`` (CPython's ``test_string``,
    ``test_argparse``); bound again to something else, the name expects nothing."""
    assert ("test_method_bound_to_a_local_name", "assertRaises") in links["expected"]
    assert all(name != "test_method_bound_to_a_local_name" for name, _ in links["empty"])


def test_a_lambda_that_passes_its_callable_to_an_expectation_links(
    links: dict[str, list[tuple[str, str]]],
) -> None:
    """``badvalue = lambda f: self.assertRaises(ValueError, f)`` / ``badvalue(lambda:
    UUID(''))`` (CPython's ``test_uuid``); a lambda over anything else expects nothing."""
    assert ("test_lambda_over_the_callable", "assertRaises") in links["expected"]
    assert all(name != "test_lambda_over_the_callable" for name, _ in links["empty"])


def test_numpy_testing_wrappers_link(links: dict[str, list[tuple[str, str]]]) -> None:
    """``numpy.testing.assert_raises``/``assert_raises_regex``/``assert_warns`` and
    ``nose.tools.assert_raises_regexp`` wrap unittest's methods with their arguments:
    read as those."""
    assert ("test_numpy_testing_forms", "assertRaises") in links["expected"]
    assert ("test_numpy_testing_forms", "assertRaisesRegex") in links["empty"]
    assert ("test_numpy_testing_forms", "assertWarns") in links["old()"]
    assert ("test_nose_tools_form", "assertRaisesRegex") in links["expected"]


def test_parametrize_cases_give_the_class_and_the_message(
    links: dict[str, list[tuple[str, str]]],
) -> None:
    """``@pytest.mark.parametrize("exception, message", [(TypeError, "…"), …])`` over
    ``pytest.raises(exception, match=message)``: read once per case."""
    assert ("test_parametrized_class_and_message", "pytest.raises") in links["expected"]
    assert ("test_parametrized_class_and_message", "pytest.raises") in links["empty"]
    assert ("test_parametrized_class_with_a_constant_message", "pytest.raises") in links["empty"]


UNREAD_FIRST = """\
import pytest

import lib


def test_unread_then_read():
    with pytest.raises(pick()):
        lib.coerce(2)
    with pytest.raises(TypeError):
        lib.coerce("x")


def test_read_then_unread():
    with pytest.raises(TypeError):
        lib.coerce("y")
    with pytest.raises(pick()):
        lib.coerce(3)
"""


def test_an_expectation_whose_class_is_not_read_touches_no_other() -> None:
    """pandas' tests: ``with pytest.raises(<a class not read>):`` as a function's first
    expectation sank the whole analysis of pandas (IndexError), and after another one it
    gave that one its own call's constants."""
    from errdex.analyze.walk import module_facts

    facts = module_facts(
        UNREAD_FIRST, "tests/test_u.py", "tests/test_u.py", "tests.test_u", is_test=True
    )
    assert facts is not None
    by_line = {e.line: e.constants for e in facts.expects}
    assert by_line == {9: {"0": "x"}, 14: {"0": "y"}}, by_line
