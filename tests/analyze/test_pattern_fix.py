"""A parameter that does not match the function's regular expression: the fix is its form."""

from __future__ import annotations

from pathlib import Path

from errdex.analyze.quoting import NO_FIX

from .stdlib_items import one_file_items

SOURCE = """
import re

_FORMAT = re.compile(r"(?P<num>\\d+)/(?P<den>\\d+)")


class Version:
    version_re = re.compile(r"^(\\d+)\\.(\\d+)$")

    def parse(self, vstring):
        match = self.version_re.match(vstring)
        if not match:
            raise ValueError("invalid version number '%s'" % vstring)
        return match


def fraction(text):
    m = _FORMAT.match(text)
    if m is None:
        raise ValueError(f"Invalid literal for fraction: {text!r}")
    return m


def _private(text):
    m = _FORMAT.match(text)
    if m is None:
        raise ValueError("Invalid literal: %r" % text)
    return m


def timed(text):
    m = re.fullmatch(r"(?P<sign>[+-])?(?P<h>\\d{1,3})(:(?P<m>\\d{2})(:(?P<s>\\d{2}))?)?", text)
    if m is None:
        raise ValueError("Invalid time: " + text)
    return m


def relabel(text):
    text = text.strip()
    m = _FORMAT.match(text)
    if m is None:
        raise ValueError("Invalid label: %r" % text)
    return m
"""


def test_a_string_that_does_not_match_the_functions_pattern(tmp_path: Path) -> None:
    """``StrictVersion.parse``, ``Fraction("x")``, ``zoneinfo``'s TZ strings: "errdex
    found no fix" where the test reads ``m = PATTERN.match(param)``; the fix is the form
    of the string the caller passed."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r["solutions"] for r, _ in items}
    assert by_message["invalid version number '%s'"][0] == (
        "Pass `vstring` to `Version.parse()` as a string in the form the regular expression "
        "`Version.version_re` accepts: the call raises `ValueError` when `vstring` does not "
        "match it (line 13)."
    )
    assert by_message["Invalid literal for fraction: {text!r}"][0] == (
        "Pass `text` to `fraction()` as a string in the form the regular expression the "
        "function reads it with accepts: the call raises `ValueError` when `text` does not "
        "match it (line 20). The message shows the value of `text` that was passed."
    )
    # a private function is no call a caller writes; a parameter bound again is not theirs
    assert by_message["Invalid literal: %r"] == [NO_FIX]
    # (the public ``relabel`` gets the handler: issue 10, no pattern fix and no filler)
    (label,) = by_message["Invalid label: %r"]
    assert label.startswith("Catch `ValueError` around the call to `relabel()`"), label


def test_the_condition_said_through_the_match_it_holds(tmp_path: Path) -> None:
    """Blind review stop 35 (records 18, 31): "when `match is None`", "when `not mo`"
    name a local the reader never sees; the documentation says the match call instead."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r for r, _ in items}
    doc = by_message["invalid version number '%s'"]["documentation"]
    assert "when `not self.version_re.match(vstring)`" in doc
    assert "`not match`" not in doc
    # a long literal pattern is no sentence a reader follows: the local is kept
    assert "when `m is None`" in by_message["Invalid time: {text}"]["documentation"]
    # a private pattern would drop the condition from the prose: the local is kept
    assert "when `m is None`" in by_message["Invalid label: %r"]["documentation"]


LOOKALIKES = """
import re

BWORD = re.compile(rb"[a-z]+")
WORD = re.compile(r"[a-z]+")


class Index:
    def search(self, key):
        return None


index = Index()


def lookup(key):
    node = index.search(key)
    if node is None:
        raise ValueError("invalid key")
    return node


def token(data):
    m = BWORD.fullmatch(data)
    if m is None:
        raise ValueError("invalid token")
    return m


def word(text):
    text = text.strip().lower()
    m = WORD.fullmatch(text)
    if m is None:
        raise ValueError("invalid word")
    return m
"""


def test_only_a_compiled_pattern_is_a_regular_expression(tmp_path: Path) -> None:
    """Re-read of the merged change (session 37): ``index.search(key)`` is a lookup, not a
    regular expression; a bytes pattern takes bytes, not "a string"."""
    items = one_file_items(tmp_path, "m.py", LOOKALIKES)
    by_message = {r["errorMessage"]: r for r, _ in items}
    lookup = by_message["invalid key"]
    assert not any("regular expression" in s for s in lookup["solutions"])
    assert "index.search" not in lookup["documentation"]
    (token,) = by_message["invalid token"]["solutions"][:1]
    assert token.startswith("Pass `data` to `token()` as bytes in the form the regular ")
    assert "as a string" not in token


def test_a_rebound_parameter_is_not_said_through_the_match(tmp_path: Path) -> None:
    """Re-read of the merged change (session 37): after ``text = text.strip().lower()``
    the condition is not ``WORD.fullmatch(text) is None`` of the caller's text
    (``word("ABC")`` does not raise); pattern_fix already left such a parameter out."""
    items = one_file_items(tmp_path, "m.py", LOOKALIKES)
    word = next(r for r, _ in items if r["errorMessage"] == "invalid word")
    assert "WORD.fullmatch(text)" not in word["triggerScenarios"]
    assert "WORD.fullmatch(text)" not in word["documentation"]


def test_the_form_of_the_callers_string_is_checked_not_caught(tmp_path: Path) -> None:
    """Re-read of the merged change (session 37): where the solution is the form the
    caller's string must take, "try-catch" left the fix to a handler; it is validation."""
    items = one_file_items(tmp_path, "m.py", SOURCE)
    by_message = {r["errorMessage"]: r for r, _ in items}
    for message in ("invalid version number '%s'", "Invalid literal for fraction: {text!r}"):
        assert by_message[message]["solutions"][0].startswith("Pass ")
        assert by_message[message]["handlingStrategy"] == "validation"
    # no form to state (the parameter is bound again first): left as it was
    assert by_message["Invalid label: %r"]["handlingStrategy"] == "try-catch"


LAZY = """
import re

_NAME = None


def resolve(name):
    global _NAME
    if _NAME is None:
        _NAME = re.compile(r"^[a-z]+$")
    m = _NAME.match(name)
    if not m:
        raise ValueError(f"invalid format: {name!r}")
    return m
"""


def test_a_pattern_compiled_on_first_use_is_a_regular_expression(tmp_path: Path) -> None:
    """``pkgutil.resolve_name``: ``_NAME_PATTERN = None`` at the top level, compiled under
    ``global`` on first use, is a compiled pattern all the same."""
    ((record, _),) = one_file_items(tmp_path, "m.py", LAZY)
    assert record["solutions"][0].startswith("Pass `name` to `resolve()` as a string in the form")
