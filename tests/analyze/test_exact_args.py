"""commonSituations says every condition on the way in the caller's arguments, through
the locals the raising function makes of them (issue 10; paired blind review, stop 38:
"a call of UUID() that passes fields as a value other than None, when other conditions
on the way to it also hold" hid the third item's range, misleading)."""

from __future__ import annotations

import pytest

from errdex.scan import scan_checkout
from errdex.source import open_source

LIBRARY = """\
class Ident:
    def __init__(self, hexs=None, fields=None):
        if fields is not None:
            if len(fields) != 3:
                raise ValueError('fields is not a 3-tuple')
            (low, mid, high) = fields
            if not 0 <= high < 1<<16:
                raise ValueError('field 3 out of range (need a 16-bit value)')


def find(obj, name=None):
    if name is None:
        name = getattr(obj, '__name__', None)
        if name is None:
            raise ValueError("find: name must be given when obj.__name__ doesn't exist: %r"
                             % (type(obj),))
    return name


def answer(reply):
    how, what = reply
    if how == "showhow":
        raise RuntimeError(what)


def early(fields):
    a, b = fields
    if a < 0:
        raise ValueError('first item is negative')
    if a < 10:
        raise ValueError('first item is under ten')
    return b


def early_return(fields):
    a, b = fields
    if a == 3:
        return None
    if a < 10:
        raise ValueError('first item is small')
    return b


def clamp(fields):
    fields[0] = abs(fields[0])
    a, b = fields
    if a < 0:
        raise ValueError('clamped first item is negative')
    return b


def dup(fields):
    a, a = fields
    if a < 0:
        raise ValueError('the kept item is negative')
    return a


def decode(response):
    how, what = response
    if how == "OK":
        return what
    if how == "ERROR":
        raise RuntimeError('decode error reply')
    if how == 7:
        what = 3
        return None
    what = 2
    if how == 8:
        return None
    if how == 9:
        raise RuntimeError('decode nine reply')


def connect(address, all_errors=False):
    errors = []
    for a in address:
        errors.append(a)
    if errors and not all_errors:
        raise OSError("cannot connect")
"""


@pytest.fixture(scope="module")
def situations(tmp_path_factory: pytest.TempPathFactory) -> dict[str, str]:
    root = tmp_path_factory.mktemp("exact")
    (root / "pkg").mkdir()
    (root / "pkg" / "__init__.py").write_text("")
    (root / "pkg" / "core.py").write_text(LIBRARY)
    result = scan_checkout(open_source(str(root), repo="o/pkg"), repo="o/pkg")
    return {r["errorMessage"]: r["commonSituations"] for r, _ in result.items}


def test_an_item_of_a_tuple_unpacked_from_a_parameter(situations: dict[str, str]) -> None:
    assert situations["field 3 out of range (need a 16-bit value)"] == (
        "It comes from a call of `Ident()` that passes a `fields` whose third item is less"
        " than `0` or at least `65536`."
    )


def test_a_parameter_bound_again_by_getattr(situations: dict[str, str]) -> None:
    """Both tests read ``name``: the first the caller's, the second ``obj.__name__``;
    no raw ``%r`` of the message is quoted."""
    text = situations["find: name must be given when obj.__name__ doesn't exist: %r"]
    assert text == (
        "It comes from a call of `find()` that passes `name` as `None` (its default, as when"
        " it is left out) and an `obj` that has no `__name__` attribute (or has it set to"
        " `None`)."
    )


def test_a_needed_condition_is_said_with_only(situations: dict[str, str]) -> None:
    """``errors`` (a local list) is not said: the part over ``all_errors`` is needed, not
    enough, and no vague "other conditions" is added."""
    text = situations["cannot connect"]
    assert text.startswith(
        "It can come from a call of `connect()` only where it passes `all_errors` as a false value"
    )
    assert "other conditions" not in text


def test_an_item_compared_with_a_string_holding_its_name(situations: dict[str, str]) -> None:
    """``how == "showhow"``: the local is renamed as a name, not inside the string."""
    assert situations["{what}"] == (
        "It comes from a call of `answer()` that passes a `reply` whose first item is `'showhow'`."
    )


def test_an_earlier_raise_or_return_that_may_fire_first(situations: dict[str, str]) -> None:
    """``a == 3`` returns and ``a < 0`` raises before ``a < 10`` is read: a ``fields``
    whose first item is under ten need not reach the raise (review rr1 of b46)."""
    assert "less than `10`" not in situations["first item is under ten"]
    assert "less than `10`" not in situations["first item is small"]
    assert situations["first item is negative"] == (
        "It comes from a call of `early()` that passes a `fields` whose first item is less"
        " than `0`."
    )


def test_an_item_stored_into_before_the_unpacking(situations: dict[str, str]) -> None:
    assert "first item" not in situations["clamped first item is negative"]


def test_the_last_of_two_same_names_is_read(situations: dict[str, str]) -> None:
    assert situations["the kept item is negative"] == (
        "It comes from a call of `dup()` that passes a `fields` whose second item is less than `0`."
    )


def test_an_earlier_return_on_another_value_of_the_same_item(situations: dict[str, str]) -> None:
    """``how == "OK"`` cannot hold where ``how == "ERROR"`` does: the return never fires
    (``SocketIO.decoderesponse``); ``how == 7`` and ``how == 8`` neither, under ``9``."""
    assert situations["decode error reply"] == (
        "It comes from a call of `decode()` that passes a `response` whose first item is `'ERROR'`."
    )
    assert situations["decode nine reply"] == (
        "It comes from a call of `decode()` that passes a `response` whose first item is `9`."
    )
