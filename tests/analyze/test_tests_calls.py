"""Test links through objects the call graph does not type (blind review 2026-12-03):
``self.gen`` bound in a subclass's body (``test_random``), ``self.tp`` bound to a class
(``test_io``), ``self.module`` bound to ``import_fresh_module(...)`` (``test_warnings``);
and what must not be linked: a reached copy of a message whose true raise is called back
from C (``re``'s ``checkTemplateError``); without a message, a call with more arguments
than the function takes, or a site whose function hands on through ``setattr`` or an
unseen ``super()``."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Random:
    def seed(self, a=None):
        if not isinstance(a, (int, str)):
            raise TypeError("The only supported seed types are int and str")
        return a


class SystemRandom(Random):
    def seed(self, a=None):
        return None


class Pair:
    def __init__(self, reader, writer):
        if not writer:
            raise OSError('"writer" argument must be writable.')
        self.reader = reader


def _setoption(arg):
    if arg.count(":") > 4:
        raise ValueError("too many fields (max 5): %r" % (arg,))
    return arg


class Context:
    def __setattr__(self, name, value):
        if name == "rounding" and not isinstance(value, int):
            raise TypeError("rounding must be an int")
        object.__setattr__(self, name, value)


def localcontext(**kwargs):
    ctx = Context()
    for key, value in kwargs.items():
        if key not in ("prec", "rounding"):
            raise TypeError(f"{key!r} is an invalid keyword argument")
        setattr(ctx, key, value)
    return ctx


def check(func):
    if not callable(func):
        raise TypeError("the first argument must be callable")
    return func


def reduce(function, sequence):
    it = iter(sequence)
    try:
        value = next(it)
    except StopIteration:
        raise TypeError("reduce() of empty iterable with no initial value") from None
    for element in it:
        value = function(value, element)
    return value


def assert_has_awaits(awaits, calls, any_order=False):
    if not any_order:
        if calls != awaits:
            raise AssertionError("Awaits not found.")
        return
    missing = [c for c in calls if c not in awaits]
    if missing:
        raise AssertionError("%r not all found in await list" % (missing,))
"""

#: ``parse`` is reached by ``sub``; ``parse_template``'s copy only through
#: ``_compile_template``, which nothing in Python calls (C code calls it back).
PARSER = """\
class error(Exception):
    pass


def parse(pattern, refs=()):
    for g in refs:
        raise error("invalid group reference %d" % g)
    return pattern


def parse_template(template):
    if template.startswith("\\\\"):
        raise error("invalid group reference %d" % int(template[1:]))
    return template


def _compile_template(template):
    return parse_template(template)


def sub(pattern, repl, string):
    return _engine(parse(pattern)).sub(repl, string)


def _engine(p):
    return p
"""

TESTS = """\
import unittest

from test.support import import_helper
from pkg import lib, parser

py_lib = import_helper.import_fresh_module("pkg.lib", blocked=["_lib"])
c_lib = import_helper.import_fresh_module("pkg.lib", fresh=["_lib"])


class BasicOps:
    def test_seedargs(self):
        with self.assertRaises(TypeError):
            self.gen.seed(1 + 2j)

    def test_seed_arity(self):
        self.assertRaises(TypeError, self.gen.seed, 1, 2, 3, 4)


class MersenneOps(BasicOps, unittest.TestCase):
    gen = lib.Random()


class SystemOps(BasicOps, unittest.TestCase):
    gen = lib.SystemRandom()


class PairTest(unittest.TestCase):
    def test_not_writeable(self):
        self.assertRaises(OSError, self.tp, 1, 0)


class PyPairTest(PairTest):
    tp = lib.Pair


class OptionTests(unittest.TestCase):
    def test_improper_input(self):
        self.assertRaises(ValueError, self.module._setoption, "1:2:3:4:5:6")


class PyOptionTests(OptionTests):
    module = py_lib


class COptionTests(OptionTests):
    module = c_lib


class ContextTests(unittest.TestCase):
    def test_kwargs(self):
        self.assertRaises(TypeError, lib.localcontext, rounding="")


class CheckTests(unittest.TestCase):
    def test_no_argument(self):
        self.assertRaises(TypeError, lib.check)

    def test_not_callable(self):
        self.assertRaises(TypeError, lib.check, 2)

    def test_through_a_lambda(self):
        self.assertRaises(TypeError, lambda: lib.check(3))


class ReduceTests(unittest.TestCase):
    def test_reduce(self):
        self.assertRaises(TypeError, lib.reduce, 42, (42, 42))
        self.assertRaises(TypeError, lib.reduce, max, [])


class TemplateTests(unittest.TestCase):
    def test_numeric_escape(self):
        with self.assertRaises(parser.error) as cm:
            parser.sub("x", "\\\\1", "x")
        self.assertEqual(cm.exception.args[0], "invalid group reference 1")


class AwaitTests(unittest.TestCase):
    def test_any_order(self):
        with self.assertRaises(AssertionError):
            lib.assert_has_awaits([], ["foo"], any_order=True)

    def test_in_order(self):
        self.assertRaises(AssertionError, lib.assert_has_awaits, [], ["foo"])
"""

Links = dict[int, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests linked to each site, by the site's file and line."""
    root: Path = tmp_path_factory.mktemp("calls")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "lib.py").write_text(LIBRARY)
    (root / "pkg" / "parser.py").write_text(PARSER)
    (root / "tests").mkdir()
    (root / "tests" / "test_lib.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/calls"), repo="o/calls")
    return {
        (record["filePath"].rpartition("/")[2], record["lineNumber"]): evidence["tests"]
        for record, evidence in result.items
    }


def _names(links: Links, file: str, line: int) -> list[str]:
    return [t["name"].rpartition("::")[2] for t in links[(file, line)]]


def test_an_attribute_a_subclass_body_binds_to_an_instance(links: Links) -> None:
    """``gen = lib.Random()`` in one concrete subclass of the mixin the test is in."""
    assert _names(links, "lib.py", 4) == ["test_seedargs"]


def test_an_attribute_bound_to_a_class_is_its_constructor(links: Links) -> None:
    assert _names(links, "lib.py", 16) == ["test_not_writeable"]


def test_a_module_imported_fresh_with_its_accelerator_blocked(links: Links) -> None:
    """``py_lib = import_fresh_module("pkg.lib", blocked=[...])`` is ``pkg.lib``; the
    ``fresh=["_lib"]`` twin (the C module) binds nothing."""
    assert _names(links, "lib.py", 22) == ["test_improper_input"]


def test_without_a_message_a_call_the_graph_cannot_follow_leaves_it_open(
    links: Links,
) -> None:
    """``localcontext(rounding="")`` fails in ``Context.__setattr__``, reached through
    ``setattr``: the one raise the graph shows is not known to be it."""
    assert links[("lib.py", 37)] == []
    assert links[("lib.py", 29)] == []


def test_too_many_arguments_are_the_interpreters_type_error(links: Links) -> None:
    """``assertRaises(TypeError, self.gen.seed, 1, 2, 3, 4)`` fails before ``seed``
    runs."""
    assert "test_seed_arity" not in _names(links, "lib.py", 4)


def test_too_few_arguments_are_the_interpreters_type_error(links: Links) -> None:
    assert _names(links, "lib.py", 44) == ["test_not_callable", "test_through_a_lambda"]


def test_a_reached_copy_of_a_message_called_back_from_c_is_no_link(links: Links) -> None:
    """``parse``'s raise is reached and fits, but so does ``parse_template``'s, whose only
    caller is a private function nothing calls: neither is claimed."""
    assert links[("parser.py", 7)] == []
    assert links[("parser.py", 13)] == []


def test_a_literal_passed_where_the_function_calls_it_is_the_interpreters_type_error(
    links: Links,
) -> None:
    """``reduce(42, (42, 42))`` fails calling ``42``: the interpreter's "'int' object is
    not callable", not ``reduce``'s own raise; ``reduce(max, [])`` is that raise."""
    assert [t["line"] for t in links[("lib.py", 53)]] == [68]


def test_literals_the_test_passes_rule_a_raise_out(links: Links) -> None:
    """``any_order=True`` makes ``not any_order`` false: of the function's two raises
    the one below is the test's; passing nothing for it decides nothing."""
    assert _names(links, "lib.py", 66) == ["test_any_order"]
    assert links[("lib.py", 62)] == []


_TWO_LEVEL_LIB = """\
def compile(pattern):
    if pattern.count("(") != pattern.count(")"):
        raise SyntaxError("missing ), unterminated subpattern")
    if pattern.startswith("*"):
        raise SyntaxError("nothing to repeat")
    return pattern
"""

_TWO_LEVEL_TESTS = """\
import unittest

import relib


class PatternTests(unittest.TestCase):
    def check_error(self, pattern, errmsg):
        with self.assertRaises(SyntaxError) as cm:
            relib.compile(pattern)
        self.assertEqual(str(cm.exception), errmsg)

    def check_both(self, pattern, errmsg):
        self.check_error(pattern, errmsg)
        self.check_error(pattern + "", errmsg)

    def test_unbalanced(self):
        self.check_both("(a", "missing ), unterminated subpattern")
"""


def test_a_helper_calling_the_helper_that_holds_the_expectation(tmp_path: Path) -> None:
    """A test calls ``check_both``, which calls ``check_error`` with its own parameters,
    which holds the ``assertRaises`` and the message check: the test is linked to the
    raise its message names, through the helper it calls, and to no other."""
    (tmp_path / "relib.py").write_text(_TWO_LEVEL_LIB)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_relib.py").write_text(_TWO_LEVEL_TESTS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/re"), repo="o/re")
    found = {r["errorMessage"]: ev["tests"] for r, ev in result.items}
    (link,) = found["missing ), unterminated subpattern"]
    assert link["name"] == "tests/test_relib.py::PatternTests::test_unbalanced"
    assert link["via"] == "tests.test_relib.PatternTests.check_both"
    assert link["match"] == "missing ), unterminated subpattern"
    assert found["nothing to repeat"] == []


_SUITE_HELPERS_TESTS = """\
import unittest

import relib


def _build(p):
    return _compiled(p)


def _compiled(p):
    return relib.compile(p)


class PatternTests(unittest.TestCase):
    def _do(self, p):
        return relib.compile(p)

    def check(self, p, msg):
        with self.assertRaises(SyntaxError) as cm:
            self._do(p)
        self.assertEqual(str(cm.exception), msg)

    def test_wrapped(self):
        self.check("(a", "missing ), unterminated subpattern")

    def test_through_module_helpers(self):
        with self.assertRaises(SyntaxError):
            _build("(")
"""

_ONE_RAISE_LIB = """\
def compile(pattern):
    if pattern.count("(") != pattern.count(")"):
        raise SyntaxError("missing ), unterminated subpattern")
    return pattern
"""


def test_a_helper_whose_expectation_calls_a_method_of_the_suite(tmp_path: Path) -> None:
    """``check`` holds the expectation over ``self._do(p)``, a method of the suite that
    calls the library: the test that calls ``check`` with the message is linked. Without
    a message, a raise reached only through the suite's own helpers is left open even when
    it is the one raise of the class reached (``test_sax``'s ``check_parse`` hides the
    parser's own error behind ``make_parser``'s)."""
    (tmp_path / "relib.py").write_text(_ONE_RAISE_LIB)
    (tmp_path / "tests").mkdir()
    (tmp_path / "tests" / "test_relib.py").write_text(_SUITE_HELPERS_TESTS)
    result = scan_checkout(open_source(str(tmp_path), repo="o/re"), repo="o/re")
    found = {r["errorMessage"]: ev["tests"] for r, ev in result.items}
    links = {t["name"].split("::")[-1]: t for t in found["missing ), unterminated subpattern"]}
    assert links["test_wrapped"]["via"] == "tests.test_relib.PatternTests.check"
    assert links["test_wrapped"]["match"] == "missing ), unterminated subpattern"
    assert "test_through_module_helpers" not in [t["name"].split("::")[-1] for t in link_all(found)]


def link_all(found: dict[str, list[dict[str, Any]]]) -> list[dict[str, Any]]:
    return [t for tests in found.values() for t in tests]
