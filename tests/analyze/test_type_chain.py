"""Failed type tests of one value, said as the types it is none of."""

from __future__ import annotations

from errdex.analyze.type_chain import none_of


def test_the_tests_of_one_value_are_said_together() -> None:
    clauses = [
        "`not isinstance(content, (bytes, str))`",
        "`not isinstance(content, Iterable) or isinstance(content, dict)`",
        "`not isinstance(content, AsyncIterable)`",
        "`flag`",
    ]
    assert none_of(clauses) == [
        "`content` is none of: `bytes`/`str`, `Iterable` (other than `dict`), `AsyncIterable`",
        "`flag`",
    ]


def test_one_test_or_other_values_stay_as_they_are() -> None:
    one = ["`not isinstance(a, int)`", "`b > 1`"]
    assert none_of(one) == one
    two = ["`not isinstance(a, int)`", "`not isinstance(b, str)`"]
    assert none_of(two) == two
    # an ``or`` whose parts test different values is no such form
    mixed = ["`not isinstance(a, int) or isinstance(b, str)`", "`not isinstance(a, str)`"]
    assert none_of(mixed) == mixed
