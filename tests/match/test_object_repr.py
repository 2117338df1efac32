"""One object's repr, and text that only starts and ends like one."""

from __future__ import annotations

import enum

import pytest

from errdex.match.object_repr import one_repr


class More(enum.Enum):
    A = 1


def _cannot_extend() -> str:
    """What ``enum`` really prints when a class with members is subclassed."""
    with pytest.raises(TypeError) as caught:

        class Less(More):  # type: ignore[misc]
            B = 2

    return str(caught.value)


def test_two_reprs_with_text_between_are_not_one() -> None:
    printed = _cannot_extend()
    assert printed == "<enum 'Less'> cannot extend <enum 'More'>"
    assert not one_repr(printed)


@pytest.mark.parametrize(
    ("message", "expected"),
    [
        ("<Node object at 0x7f3a>", True),
        ("<enum 'More'>", True),
        ("<Node <a> at 0x1>", True),
        ("<enum 'a>b'>", True),
        ("Node(1, 'a')", True),
        ("Node(f(1), ')')", True),
        ("Node(1) and Other(2)", False),
        ("<a> is not <b>", False),
        ("plain text", False),
    ],
)
def test_one_repr(message: str, expected: bool) -> None:
    assert one_repr(message) is expected


class _Named:
    """A repr of the Django kind, ``<Model: str>``, whose text holds an apostrophe."""

    def __init__(self, text: str) -> None:
        self.text = text

    def __repr__(self) -> str:
        return f"<Question: {self.text}>"


@pytest.mark.parametrize("text", ["What's up?", "O'Brien", "'quoted' and it's"])
def test_an_apostrophe_in_plain_text_opens_no_quote(text: str) -> None:
    assert one_repr(repr(_Named(text)))


def test_an_escaped_quote_inside_a_string_repr_does_not_close_it() -> None:
    printed = f"<Foo name={'a' + chr(39) + chr(34) + 'b'!r}>"
    assert printed == "<Foo name='a\\'\"b'>"
    assert one_repr(printed)
    assert one_repr(f"Node({'x)' + chr(39)!r})")
