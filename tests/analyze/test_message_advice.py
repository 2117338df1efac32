"""Which sentences of a message are advice: an instruction or a requirement, not a statement."""

from __future__ import annotations

import pytest

from errdex.analyze.message_advice import advice_solutions, message_advice


@pytest.mark.parametrize(
    "message",
    [
        "Set of Tasks/Futures is empty.",  # blind review 2026-12-06, record 17
        "Use of StringIO input is deprecated",
        "Call to a deprecated function",
        "install-base or install-platbase supplied, but installation scheme is incomplete",
        "Warning: MARK chunk contains only %s marker%s instead of %s",
        "%r does not contain all of %r in its call list, found %r instead",
        "Expected {self._mock_name or 'mock'} to have been awaited.",  # record 00
        "expected not to find _set_{name}",
        "IncompleteRead(%i bytes read, %i more expected)",
        "write to closed file",
        "Template.open: bad mode",
        "win32 only",
        # mostly holes: formatting code or a bare "%s must be %s" (stop 33, record 16)
        "{problem} Expected: {_CallList(calls)}{self._calls_repr(prefix='Actual')}",
        "%s must be %s",
        "expected %s, got %s",
    ],
)
def test_a_statement_is_no_advice(message: str) -> None:
    assert message_advice(message) == []


@pytest.mark.parametrize(
    "message, advice",
    [
        (
            "Can't close the ZIP file while there is an open writing handle on it. "
            "Close the writing handle before closing the zip.",
            "Close the writing handle before closing the zip.",
        ),
        ("OpenWrapper is deprecated, use open instead", None),
        ("setDaemon() is deprecated, set the daemon attribute instead", None),
        ("Foo is deprecated in 3.11 use Bar instead.", None),
        ("strings can't contain control characters; use bytes instead", None),
        ("--plat-name only supported on Windows (try using './configure --help')", None),
        ("Please correct your package", None),
        ("you have to pass server_hostname when using ssl", None),
        (
            "Cannot close a process while it is still running. "
            "You should first call join() or terminate().",
            "You should first call join() or terminate().",
        ),
    ],
)
def test_an_instruction(message: str, advice: str | None) -> None:
    assert message_advice(message) == [("instruction", advice or message)]


@pytest.mark.parametrize(
    "message",
    [
        "mode must be 'r' or 'w'",
        "expected str, bytes or os.PathLike object, not int",
        "a coroutine was expected, got {coro!r}",
        "0 or 1 expected, got %r",
        "fromutc() requires a datetime argument",
        "can only join a started process",
        "Only hex digits permitted in %r",
        "field 2 out of range (need a 16-bit value)",
        "extra_args needs to be a sequence",
        # holes, but words of its own: quoted (a hole reading a private value is that value)
        "Expected a module: %r",
        "Invalid address: must be None or {self._address}",
    ],
)
def test_a_requirement(message: str) -> None:
    assert message_advice(message) == [("requirement", message)]


def test_the_solutions_quote_the_advice() -> None:
    assert advice_solutions("mode must be 'r' or 'w'") == [
        "The message states the requirement: “mode must be 'r' or 'w'”."
    ]
    assert advice_solutions("Use 'source' instead.") == [
        "Follow the message's own advice: “Use 'source' instead”."
    ]


def test_a_huge_sentence_is_no_advice_to_quote() -> None:
    """A message literal of a megabyte (hostile input, tests/test_scan.py) is no advice to
    quote, and is not searched: the deprecation pattern took time quadratic in its length
    (100k characters of "x is deprecated " took 4.7 s CPU)."""
    huge = ("x is deprecated " * 70_000) + "use y instead"
    assert message_advice(huge) == []
    assert message_advice("x is deprecated, use y instead") == [
        ("instruction", "x is deprecated, use y instead")
    ]
