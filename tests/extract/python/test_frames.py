"""``FrameReader._decide``: an ``if self.x:`` in ``__str__`` is decided only by what is
surely true; a stored ``False``, ``0`` or ``''`` shows as text but is false."""

from __future__ import annotations

import pytest

from ._fixture import raised, templates_at

_CODE = """\
class Invalid(Exception):
    def __init__(self, message):
        self.message = message
        self.context = {value}

    def __str__(self):
        if self.context:
            return f"{{self.message}} in context"
        return self.message


def load(d):
    raise Invalid("Expected a list")
"""


@pytest.mark.parametrize("value", ["False", "0", "''", "0.0"])
def test_a_stored_falsy_constant_is_not_read_as_true(value: str) -> None:
    code = _CODE.format(value=value)
    printed = str(raised(code, "load(1)"))
    assert printed == "Expected a list"
    # not decided true: the message str() prints is among the site's (one, " in context"
    # optional)
    (template,) = templates_at(code, "raise Invalid").values()
    assert template.display == "Expected a list[ in context]"
    assert template.match(printed) is not None


@pytest.mark.parametrize("value", ["True", "'x'", "1"])
def test_a_stored_true_constant_still_decides_the_branch(value: str) -> None:
    code = _CODE.format(value=value)
    printed = str(raised(code, "load(1)"))
    assert list(templates_at(code, "raise Invalid")) == [printed]


def test_a_stored_none_still_decides_the_branch_false() -> None:
    code = _CODE.format(value="None")
    assert list(templates_at(code, "raise Invalid")) == ["Expected a list"]
