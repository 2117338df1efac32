"""Messages a test checks by hand on the error it caught, and suites' helpers that check
one their caller passes (blind review 2026-12-02: ``test_re``'s ``checkPatternError``
compares ``cm.exception.msg`` with its ``errmsg`` parameter; ``test_sax``'s
``verify_empty_nsattrs`` is passed ``AttributesNSImpl({}, {})``)."""

from __future__ import annotations

import ast
from pathlib import Path
from typing import Any

import pytest

from errdex.analyze.expects_checks import Check, message_check
from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = '''\
class PatternError(Exception):
    """A bad pattern; ``str()`` adds the position to ``msg``."""

    def __init__(self, msg, pos):
        self.msg = msg
        self.pos = pos
        super().__init__(f"{msg} at position {pos}")


def compile_pattern(text):
    if text.startswith("*"):
        raise PatternError("nothing to repeat before the star", 0)
    if text.count("(") != text.count(")"):
        raise PatternError("unbalanced parenthesis in the pattern", len(text))
    if "{,}" in text:
        raise PatternError("empty repeat bounds", text.index("{"))
    return text


def check_output(*args, **kwargs):
    for kw in ("stdout", "check"):
        if kw in kwargs:
            raise ValueError(f"{kw} argument not allowed, it will be overridden")
    return run(*args, **kwargs)


def run(*args, capture_output=False, **kwargs):
    if capture_output and kwargs.get("stdout") is not None:
        raise ValueError("stdout and stderr arguments may not be used with capture_output")
    return args


class Source:
    def error(self, msg, pos=0):
        return PatternError(msg, pos)


def parse_flag(text):
    source = Source()
    if not text:
        raise source.error("missing flag name")
    if not text.isalpha():
        msg = "unknown flag letter" if text.isascii() else "missing flag name"
        raise source.error(msg, 1)
    return text


def _trailing():
    raise ValueError("Extra data")


#: A call through a table: no call-graph edge from decode to _trailing.
_HANDLERS = {"trailing": _trailing}


def decode(kind):
    return _HANDLERS[kind]()


class Table:
    def __init__(self, rows):
        self.rows = rows

    def value_of(self, name):
        if name not in self.rows:
            raise KeyError(name)
        return self.rows[name]
'''

#: A module the tests neither call nor import.
POLICY = """\
class Policy:
    def __getattr__(self, name):
        raise AttributeError(
            "{!r} object has no attribute {!r}".format(type(self).__name__, name)
        )
"""

TESTS = """\
import unittest

from pkg import patterns
from pkg.patterns import Table


class PatternTests(unittest.TestCase):
    def check_error(self, pattern, errmsg, pos=None):
        with self.assertRaises(patterns.PatternError) as cm:
            patterns.compile_pattern(pattern)
        with self.subTest(pattern=pattern):
            err = cm.exception
            self.assertEqual(err.msg, errmsg)
            if pos is not None:
                self.assertEqual(err.pos, pos)

    def verify_empty(self, table):
        self.assertRaises(KeyError, table.value_of, "missing")

    def test_star(self):
        self.check_error("*a", "nothing to repeat before the star", 0)

    def test_parenthesis(self):
        msg = "unbalanced parenthesis in the pattern"
        self.check_error("(a", msg, 2)

    def test_keyword(self):
        self.check_error("a", errmsg="no such message anywhere here", pos=0)

    def test_not_a_constant(self):
        self.check_error("a{,}", self.expected_text())

    def test_empty_table(self):
        self.verify_empty(Table({}))

    def test_short_text(self):
        with self.assertRaises(ValueError) as c:
            patterns.check_output("x", stdout=1)
        self.assertIn("stdout", c.exception.args[0])

    def test_short_message_through_a_table(self):
        with self.assertRaisesRegex(ValueError, "Extra data"):
            patterns.decode("trailing")

    def test_message_of_a_conditional(self):
        with self.assertRaises(patterns.PatternError) as cm:
            patterns.parse_flag("\\u00e9")
        self.assertEqual(cm.exception.msg, "missing flag name")

    def test_interpreter_message(self):
        with self.assertRaises(AttributeError) as cm:
            getattr(1, "lower")
        err = cm.exception
        self.assertEqual(str(err), "'int' object has no attribute 'lower'")
"""

Links = dict[str, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests linked to each site, by the site's line."""
    root: Path = tmp_path_factory.mktemp("checks")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "patterns.py").write_text(LIBRARY)
    (root / "pkg" / "policy.py").write_text(POLICY)
    (root / "tests").mkdir()
    (root / "tests" / "test_patterns.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/checks"), repo="o/checks")
    return {record["errorMessage"]: evidence["tests"] for record, evidence in result.items}


def _tests(links: Links, start: str) -> list[dict[str, Any]]:
    (found,) = [tests for message, tests in links.items() if message.startswith(start)]
    return found


def test_a_helper_checks_the_message_its_caller_passes(links: Links) -> None:
    (test,) = _tests(links, "nothing to repeat")
    assert test["name"].endswith("::test_star")
    assert test["via"].endswith("PatternTests.check_error")
    assert (test["match"], test["matchForm"]) == ("nothing to repeat before the star", "contains")
    assert test["snippet"] == 'self.check_error("*a", "nothing to repeat before the star", 0)'


def test_a_message_bound_to_a_local_name(links: Links) -> None:
    (test,) = _tests(links, "unbalanced parenthesis")
    assert test["name"].endswith("::test_parenthesis")


def test_a_message_that_fits_no_site_links_none(links: Links) -> None:
    names = [t["name"] for tests in links.values() for t in tests]
    assert not any(n.endswith("::test_keyword") for n in names)


def test_a_message_errdex_cannot_read_is_not_claimed(links: Links) -> None:
    """``self.expected_text()`` is no text: the call reaches three sites of the class, so
    there is no link, and none says a message it did not read."""
    names = [t["name"] for tests in links.values() for t in tests]
    assert not any(n.endswith("::test_not_a_constant") for n in names)


def test_an_object_the_caller_builds_gives_its_class_methods(links: Links) -> None:
    (test,) = _tests(links, "{name")  # ``raise KeyError(name)``: its message is the name
    assert test["name"].endswith("::test_empty_table")
    assert test["via"].endswith("PatternTests.verify_empty")
    assert test["match"] is None


def _check(source: str, params: frozenset[str] = frozenset()) -> Check | None:
    body = ast.parse(source).body
    return message_check(body, "cm", {"known": "from a name"}, params)


@pytest.mark.parametrize(
    ("source", "expected"),
    [
        ('assert "x" in str(cm.value)', Check("x")),
        ('assert str(cm.value) == "x"', Check("x", whole=True)),
        ('self.assertEqual("x", str(cm.exception))', Check("x", whole=True)),
        ('self.assertEqual(cm.exception.args[0], "x")', Check("x")),
        ('self.assertEqual(cm.exception.msg, "x")', Check("x")),
        ('self.assertIn("x", cm.exception.message)', Check("x")),
        ('self.assertRegex(str(cm.exception), "x+")', Check("x+", regex=True)),
        ('err = cm.exception\nself.assertEqual(str(err), "x")', Check("x", whole=True)),
        (
            "with self.subTest(a=1):\n    self.assertEqual(cm.exception.msg, known)",
            Check("from a name"),
        ),
        ("self.assertEqual(cm.exception.msg, errmsg)", Check(None, param="errmsg")),
    ],
)
def test_message_check_forms(source: str, expected: Check) -> None:
    assert _check(source, frozenset({"errmsg"})) == expected


@pytest.mark.parametrize(
    "source",
    [
        'self.assertEqual(other.msg, "x")',  # not the caught error
        'self.assertEqual(cm.exception.pos, "x")',  # not its message
        "self.assertEqual(cm.exception.msg, errmsg)",  # errmsg is no parameter here
        'a = 1\nb = 2\nc = 3\nself.assertEqual(str(cm.exception), "x")',  # too far after
        'with open("f"):\n    self.assertEqual(str(cm.exception), "x")',  # not a subTest
    ],
)
def test_what_is_no_message_check(source: str) -> None:
    assert _check(source) is None


def test_the_interpreters_message_is_no_link_to_a_copy_of_it(links: Links) -> None:
    """``getattr(1, "lower")`` raises in C; its message fits Policy's template only
    through the holes, and the test neither calls nor imports Policy's module."""
    (tests,) = [t for message, t in links.items() if "object has no attribute" in message]
    assert tests == []


def test_a_short_text_a_sooner_site_could_hold_is_no_link(links: Links) -> None:
    """``'stdout' in c.exception.args[0]``: run()'s message holds "stdout" as text, but
    check_output, which the test calls, raises first with ``kw`` in a hole."""
    assert _tests(links, "stdout and stderr") == []


def test_a_short_message_wholly_literal_after_a_library_call(links: Links) -> None:
    """ "Extra data" is under 12 characters and the graph does not see decode reach
    _trailing; all of it is literal text and the test calls decode: a link."""
    (test,) = _tests(links, "Extra data")
    assert test["name"].endswith("::test_short_message_through_a_table")


def test_a_text_written_above_another_raise_is_ambiguous(links: Links) -> None:
    """The first raise's message is also the second's ``else`` branch, which the
    second's template through ``source.error(msg)`` leaves out (it has the first branch,
    "unknown flag letter"), as at ``re._parser``'s "missing :": test_re's ``(?-i)`` was
    linked to the wrong raise."""
    names = [t["name"] for tests in links.values() for t in tests]
    assert not any(n.endswith("::test_message_of_a_conditional") for n in names)


def test_a_call_over_several_lines_is_shown_whole() -> None:
    """The prose's "runs `…`" showed the second line of a helper call alone
    (``"bad inline flags: …", 4)``) for test_re's checkPatternError."""
    from errdex.analyze.situations import failing_call as _test_call
    from errdex.evidence import TestEvidence

    snippet = "self.checkPatternError(r'(?au:a)',\n        \"bad inline flags\", 4)"
    shown = _test_call(TestEvidence(snippet=snippet))  # type: ignore[typeddict-item]
    assert shown == "self.checkPatternError(r'(?au:a)', \"bad inline flags\", 4)"
    block = "with self.assertRaises(ValueError):\n    x = 1\n    f(x)"
    assert _test_call(TestEvidence(snippet=block)) == "f(x)"  # type: ignore[typeddict-item]
