"""The accepted types are said only of classes, on a call that hands the value on
unchanged, and in the words of the code that runs (review rr1 of b48's rule: an outer
function's own ``dict`` branch was left out; ``cls``, ``self.klass``, a parameter and a
tuple constant were named as types; a setter was named as a call; a branch that raises
of its own was said to return)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
STR_TYPES = (str, bytes)


def outer(data):
    if isinstance(data, dict):
        return str(data)
    return _encode(data)


def forward(payload):
    \"\"\"Hands the payload on.\"\"\"
    return _pack(payload)


def _encode(data):
    if isinstance(data, bytes):
        return data
    if isinstance(data, str):
        return data.encode()
    raise TypeError("the data is of no type encode takes")


def _pack(payload):
    if isinstance(payload, bytes):
        return payload
    raise TypeError("the payload is of no type pack takes")


def check(x, kind):
    if isinstance(x, kind):
        return x
    raise TypeError("the value is not of the kind asked for")


def tup(x):
    if isinstance(x, STR_TYPES):
        return x
    raise TypeError("the value is no string type at all")


def pair(x):
    if isinstance(x, int) and not callable(x):
        return x
    raise TypeError("the pair value is not a plain int")


def settle(x):
    if isinstance(x, int):
        if x < 0:
            raise ValueError("the value must not be negative")
        return x
    raise TypeError("the value to settle is not an int")


class Box:
    klass = int

    def put(self, item):
        if isinstance(item, self.klass):
            return item
        raise TypeError("the item is not of the box's class")

    @property
    def size(self):
        return self._size

    @size.setter
    def size(self, value):
        if isinstance(value, int):
            self._size = value
            return
        raise TypeError("cannot take this size value")
"""


@pytest.fixture(scope="module")
def solutions(tmp_path_factory: pytest.TempPathFactory) -> dict[str, list[str]]:
    root = tmp_path_factory.mktemp("accepted_checks")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text(
        "from .core import Box, check, forward, outer, pair, settle, tup\n"
    )
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["solutions"] for r, _ in result.items}


def _types(solutions: dict[str, list[str]], message: str) -> list[str]:
    return [s for s in solutions[message] if "one of:" in s]


def test_an_outer_call_that_tests_the_value_first_gets_no_list(
    solutions: dict[str, list[str]],
) -> None:
    # ``outer`` returns for a ``dict`` itself: "one of `bytes`; `str`" would omit it
    assert _types(solutions, "the data is of no type encode takes") == []
    # one that only hands the value on keeps the list
    (text,) = _types(solutions, "the payload is of no type pack takes")
    assert text.startswith("Pass `payload` to `forward()` as one of: `bytes`"), text


@pytest.mark.parametrize(
    "message",
    [
        "the value is not of the kind asked for",  # a parameter
        "the value is no string type at all",  # a tuple constant
        "the item is not of the box's class",  # an attribute of ``self``
    ],
)
def test_only_a_class_is_named_as_a_type(solutions: dict[str, list[str]], message: str) -> None:
    assert _types(solutions, message) == []


def test_a_setter_is_assigned(solutions: dict[str, list[str]]) -> None:
    (text,) = _types(solutions, "cannot take this size value")
    assert text.startswith("Assign to `Box.size` (`obj.size = …`) a value of one of: `int`"), text


def test_a_branch_that_raises_is_not_said_to_return(solutions: dict[str, list[str]]) -> None:
    (text,) = _types(solutions, "the value to settle is not an int")
    assert "returns for these" not in text
    assert "the branch for these, at line 48, makes checks of its own that may raise" in text


def test_callable_is_said_in_words(solutions: dict[str, list[str]]) -> None:
    (text,) = _types(solutions, "the pair value is not a plain int")
    assert "`int` that is not a callable:" in text, text
