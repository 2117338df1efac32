"""Every expectation form issue 10 lists, each on a test written the way suites write it:
the link must land on the one site the test reaches, and a test that expects nothing must
not be linked (issue 10, item 2)."""

from __future__ import annotations

from pathlib import Path
from typing import Any

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = '''\
import warnings


class ConfigError(ValueError):
    """A configuration value is wrong."""


def parse_port(text):
    if not text.isdigit():
        raise ConfigError(f"port must be digits, got {text!r}")
    return int(text)


def parse_host(text):
    if " " in text:
        raise ConfigError("host may not contain spaces")
    return text


def legacy_option(name):
    warnings.warn(f"option {name} is deprecated", DeprecationWarning)
    return name


def load_timeout(value):
    if value < 0:
        raise OverflowError("timeout must be non-negative")
    return value


class Reader:
    def __init__(self, source):
        self.source = source

    def read_block(self, size):
        if size <= 0:
            raise IndexError(f"block size must be positive, not {size}")
        return self.source[:size]

    def seek(self, where):
        if where > len(self.source):
            raise EOFError("seek past the end")
        return where

    def rewind(self):
        warnings.warn("rewind is slow", ResourceWarning)


def check_flags(flags):
    if flags & 8:
        raise PermissionError("flag 8 is reserved")
    return flags


def lookup_codec(name):
    if name != "utf-8":
        raise LookupError(f"unknown codec {name}")
    return name


def split_pair(text):
    if "=" not in text:
        raise KeyError("missing '=' in pair")
    return text.split("=", 1)


def strict_mode(value):
    if value not in (0, 1):
        raise AssertionError("strict mode is 0 or 1")
    return value


def scale(factor):
    if factor == 0:
        raise ZeroDivisionError("scale factor of zero")
    return 1 / factor


def to_bytes(value):
    if not isinstance(value, str):
        raise TypeError(f"expected str, got {type(value).__name__}")
    return value.encode()


def unicode_name(value):
    if not value:
        raise UnicodeError("empty name")
    return value


def buffer_size(n):
    if n > 100:
        raise BufferError("buffer over 100")
    return n


def want_int(n):
    if not isinstance(n, int):
        raise NotImplementedError("only ints")
    return n


def future_flag(name):
    warnings.warn(f"flag {name} will change", FutureWarning)


def recurse_limit(n):
    if n > 1000:
        raise RecursionError("limit too deep")
    return n


def make_name(n):
    if n is None:
        raise NameError("no name given")
    return n


def spawn(command):
    if not command:
        raise ChildProcessError("empty command")
    return command
'''

TESTS = """\
import unittest
import warnings
from unittest import TestCase as TC

import pytest
import pytest as pt
from pytest import raises, warns
from pytest import fail

from pkg import core
from pkg.core import Reader, parse_host


class UnittestForms(unittest.TestCase):
    def setUp(self):
        self.reader = Reader(b"abc")

    def test_raises_cm(self):
        with self.assertRaises(OverflowError):
            core.load_timeout(-1)

    def test_raises_callable(self):
        self.assertRaises(PermissionError, core.check_flags, 8)

    def test_raises_regex_cm(self):
        with self.assertRaisesRegex(core.ConfigError, "port must be digits"):
            core.parse_port("x")

    def test_raises_regex_callable(self):
        self.assertRaisesRegex(core.ConfigError, "may not contain", parse_host, "a b")

    def test_warns_cm(self):
        with self.assertWarns(FutureWarning):
            core.future_flag("x")

    def test_warns_regex_callable(self):
        self.assertWarnsRegex(DeprecationWarning, "is deprecated", core.legacy_option, "x")

    def test_cm_exception_message(self):
        with self.assertRaises(LookupError) as cm:
            core.lookup_codec("latin-9")
        self.assertEqual(str(cm.exception), "unknown codec latin-9")

    def test_attribute_on_local(self):
        r = Reader(b"")
        with self.assertRaises(EOFError):
            r.seek(10)

    def test_attribute_on_setup(self):
        self.assertRaises(IndexError, self.reader.read_block, 0)

    def test_try_else_fail(self):
        try:
            core.split_pair("novalue")
        except KeyError:
            pass
        else:
            self.fail("split_pair accepted a pair without '='")

    def test_try_raise_failure_exception(self):
        try:
            core.scale(0)
        except ZeroDivisionError:
            pass
        else:
            raise self.failureException("scale(0) did not raise")


class AliasedCase(TC):
    def test_aliased_case(self):
        with self.assertRaises(TypeError):
            core.to_bytes(1)

    def _check_raises(self, exc, func, *args):
        with self.assertRaises(exc):
            func(*args)

    def test_helper_with_callable(self):
        self._check_raises(BufferError, core.buffer_size, 200)

    def _spawn_nothing(self):
        return core.spawn([])

    def test_method_helper(self):
        with self.assertRaises(ChildProcessError):
            self._spawn_nothing()


def expect_failure(exc, func, *args):
    with pytest.raises(exc):
        func(*args)


def test_module_helper():
    expect_failure(NotImplementedError, core.want_int, "x")


def test_pytest_raises_match():
    with pytest.raises(core.ConfigError, match="host may not"):
        core.parse_host("a b")


def test_pytest_raises_callable():
    pytest.raises(UnicodeError, core.unicode_name, "")


def test_alias_module_raises():
    with pt.raises(RecursionError):
        core.recurse_limit(5000)


def test_from_import_raises():
    with raises(NameError, match="no name"):
        core.make_name(None)


def test_from_import_warns():
    with warns(ResourceWarning):
        Reader(b"").rewind()


def test_pytest_warns_callable():
    pytest.warns(DeprecationWarning, core.legacy_option, "y")


def test_try_imported_fail():
    try:
        core.strict_mode(3)
    except AssertionError:
        pass
    else:
        fail("strict_mode(3) was accepted")


def _call_only(func, *args):
    return func(*args)


def test_helper_that_expects_nothing():
    _call_only(core.check_flags, 8)


def test_a_builtin_message_that_fits_by_chance():
    with pytest.raises(TypeError) as exc:
        len(1, 2)
    assert "(2 given)" in str(exc.value)


def test_try_that_swallows():
    try:
        core.check_flags(8)
    except PermissionError:
        pass
"""

#: A module no test imports: a short message fitting it by chance is no link.
SHELL = """\
def arity(*args):
    if len(args) != 1:
        raise TypeError(f"arity() takes exactly one argument ({len(args)} given)")
    return args[0]
"""

Links = dict[str, list[dict[str, Any]]]


@pytest.fixture(scope="module")
def links(tmp_path_factory: pytest.TempPathFactory) -> Links:
    """The tests linked to each site, by the site's function."""
    root: Path = tmp_path_factory.mktemp("forms")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    (root / "pkg" / "shell.py").write_text(SHELL)
    (root / "tests").mkdir()
    (root / "tests" / "test_forms.py").write_text(TESTS)
    result = scan_checkout(open_source(str(root), repo="o/forms"), repo="o/forms")
    out: Links = {}
    for _, evidence in result.items:
        function = evidence["site"]["function"].rpartition(".")[2]
        out[function] = evidence["tests"]
    return out


def _names(links: Links, function: str) -> list[tuple[str, str]]:
    return [(t["name"].rpartition("::")[2], t["kind"]) for t in links[function]]


@pytest.mark.parametrize(
    ("function", "test", "kind"),
    [
        ("load_timeout", "test_raises_cm", "assertRaises"),
        ("check_flags", "test_raises_callable", "assertRaises"),
        ("parse_port", "test_raises_regex_cm", "assertRaisesRegex"),
        ("parse_host", "test_raises_regex_callable", "assertRaisesRegex"),
        ("future_flag", "test_warns_cm", "assertWarns"),
        ("legacy_option", "test_warns_regex_callable", "assertWarnsRegex"),
        ("parse_host", "test_pytest_raises_match", "pytest.raises"),
        ("unicode_name", "test_pytest_raises_callable", "pytest.raises"),
        ("legacy_option", "test_pytest_warns_callable", "pytest.warns"),
        ("recurse_limit", "test_alias_module_raises", "pytest.raises"),
        ("make_name", "test_from_import_raises", "pytest.raises"),
        ("rewind", "test_from_import_warns", "pytest.warns"),
        ("to_bytes", "test_aliased_case", "assertRaises"),
        ("split_pair", "test_try_else_fail", "try-except"),
        ("scale", "test_try_raise_failure_exception", "try-except"),
        ("strict_mode", "test_try_imported_fail", "try-except"),
        ("seek", "test_attribute_on_local", "assertRaises"),
        ("read_block", "test_attribute_on_setup", "assertRaises"),
        ("lookup_codec", "test_cm_exception_message", "assertRaises"),
        ("buffer_size", "test_helper_with_callable", "assertRaises"),
        ("want_int", "test_module_helper", "pytest.raises"),
        ("spawn", "test_method_helper", "assertRaises"),
    ],
)
def test_each_form_links_its_site(links: Links, function: str, test: str, kind: str) -> None:
    assert (test, kind) in _names(links, function)


def test_each_test_links_one_site(links: Links) -> None:
    """No form spills onto a site its test does not reach."""
    seen: dict[str, list[str]] = {}
    for function, tests in links.items():
        for t in tests:
            seen.setdefault(t["name"], []).append(function)
    assert {name: fs for name, fs in seen.items() if len(fs) != 1} == {}


def test_tests_that_expect_nothing_are_not_links(links: Links) -> None:
    assert _names(links, "check_flags") == [("test_raises_callable", "assertRaises")]


def test_a_helper_link_names_the_helper(links: Links) -> None:
    (test,) = links["buffer_size"]
    assert test["via"].endswith("AliasedCase._check_raises")
    assert test["snippet"] == "self._check_raises(BufferError, core.buffer_size, 200)"
    assert test["match"] is None  # the helper checks no message


def test_unittest_message_check_is_the_match(links: Links) -> None:
    (test,) = links["lookup_codec"]
    assert (test["match"], test["matchForm"]) == ("unknown codec latin-9", "equals")


def test_a_short_message_does_not_link_a_site_the_test_never_reaches(links: Links) -> None:
    """``len(1, 2)`` raises in C; "(2 given)" fitting arity's template is chance."""
    assert links["arity"] == []
