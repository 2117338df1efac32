"""What to pass, in words, from the condition under which a raise fires."""

from __future__ import annotations

import pytest

from errdex.analyze.caller_words import Need, needs, pass_clause

P = frozenset({"n", "timeout", "mode", "items", "a", "b", "month", "f", "ssl", "t"})


@pytest.mark.parametrize(
    ("fires", "phrase"),
    [
        ("not isinstance(timeout, (int, float))", "an instance of `int` or `float`"),
        ("isinstance(timeout, str)", "anything but an instance of `str`"),
        ("n < 0", "a non-negative value"),
        ("n <= 0", "a positive value"),
        ("not n > 0", "a positive value"),
        ("0 > n", "a non-negative value"),
        ("n > 3", "a value of at most `3`"),
        ("n >= -1", "a value less than `-1`"),
        ("n != 0", "`0`"),
        ("n == 0", "a value other than `0`"),
        ("timeout is None", "a value other than `None`"),
        ("timeout is not None", "`None`"),
        ("mode not in ('r', 'w')", "one of `'r'` or `'w'`"),
        ("mode in {'x', 'a', 'b'}", "a value other than `'x'`, `'a'` or `'b'`"),
        # the module's public constants by name (``asyncio.wait``'s ``return_when``)
        ("mode not in (FIRST, socket.ALL)", "one of `FIRST` or `socket.ALL`"),
        ("mode == SHORTEST", "a value other than `SHORTEST`"),
        ("not items", "a true value (not empty, zero, `None` or `False`)"),
        ("len(items) == 0", "a non-empty value"),
        ("len(items) > 3", "a value of length at most `3`"),
        ("len(items) != 2", "a value of length `2`"),
        ("not 1 <= month <= 12", "a value of at least `1` and at most `12`"),
        ("month < 1 or month > 12", "a value of at least `1` and at most `12`"),
        ("n <= 0.0 or n >= 1.0", "a value greater than `0.0` and less than `1.0`"),
        ("not callable(f)", "a callable"),
        (
            "not isinstance(n, int) or n < 0",
            "an instance of `int` and a non-negative value",
        ),
        ("not hasattr(f, 'read')", "an object with an attribute `read`"),
    ],
)
def test_one_parameter(fires: str, phrase: str) -> None:
    found = needs(fires, P)
    assert found is not None, fires
    how, items = found
    assert how == "all"
    assert items == [Need(items[0].param, phrase)]


@pytest.mark.parametrize(
    "fires",
    [
        "n < limit",  # a bound that is not a literal
        "mode < 'm'",  # strings order by character
        "isinstance(n, _Private)",  # a type the caller cannot name
        "n.real < 0",  # an attribute of the parameter
        "other < 0",  # not a parameter
        "mode in 'rw'",  # substring test
        "(a or n < 0) and b",  # two ways out for the first part
        "n != 0 or n is None",  # a value and a kind of value
        "n < 0 < 3 < 5",
    ],
)
def test_shapes_without_exact_words(fires: str) -> None:
    assert needs(fires, P) is None


def test_both_given_is_at_most_one() -> None:
    text = pass_clause("a is not None and b is not None", P, "f()", {"a": None, "b": None})
    assert text == "Pass at most one of `a` and `b` to `f()` (leave the other `None`)"
    assert pass_clause("a and b", P, "f()", {}) == (
        "Pass at most one of `a` and `b` to `f()` as a true value"
    )


def test_either_of_two_given_is_both_false() -> None:
    text = pass_clause("a or b", P, "f()", {})
    assert text == (
        "When calling `f()`, pass `a` as a false value (empty, zero, `None` or `False`) "
        "and `b` as a false value (empty, zero, `None` or `False`)"
    )


def test_either_of_two_different_requirements() -> None:
    text = pass_clause("t is not None and not ssl", P, "connect()", {"t": None})
    assert text == (
        "When calling `connect()`, pass either `t` as `None` (its default, so leaving it "
        "out also works) or `ssl` as a true value (not empty, zero, `None` or `False`)"
    )


def test_every_requirement_of_an_or() -> None:
    text = pass_clause("n <= 0 or a < 0", P, "f()", {})
    assert (
        text == "When calling `f()`, pass `n` as a positive value and `a` as a non-negative value"
    )


def test_one_parameter_clause() -> None:
    assert pass_clause("n < 0", P, "Random.getrandbits()", {}) == (
        "Pass `n` to `Random.getrandbits()` as a non-negative value"
    )
    assert pass_clause("timeout is not None", P, "f()", {"timeout": 0}) == (
        "Pass `timeout` to `f()` as `None`"  # its default is not None: no note
    )


def test_ways_out_for_one_parameter() -> None:
    fires = "rounds is not None and not isinstance(rounds, int)"
    assert pass_clause(fires, frozenset({"rounds"}), "mksalt()", {"rounds": None}) == (
        "Pass `rounds` to `mksalt()` as `None` or an instance of `int` "
        "(`None` is its default: leaving it out also works)"
    )
    assert pass_clause("mode != 'new' and mode != 'cur'", P, "f()", {}) == (
        "Pass `mode` to `f()` as `'new'` or `'cur'`"
    )
    fires = "block and timeout is not None and timeout < 0"
    assert pass_clause(fires, frozenset({"block", "timeout"}), "Queue.get()", {}) == (
        "When calling `Queue.get()`, pass either `block` as a false value (empty, zero, "
        "`None` or `False`), or `timeout` as `None` or a non-negative value"
    )


def test_ways_out_with_an_or_of_their_own_are_set_apart() -> None:
    fires = "isinstance(mode, (str, bytes)) and (not mode)"
    assert pass_clause(fires, P, "f()", {}) == (
        "Pass `mode` to `f()` as either anything but an instance of `str` or `bytes`, or a "
        "true value (not empty, zero, `None` or `False`)"
    )
