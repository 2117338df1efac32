"""A message held by an attrs field with a default (attrs' own ``not_`` validator): the
raise prints the default unless the caller gave another text; checked by running it."""

from __future__ import annotations

from ._fixture import raised, templates_at

NOT = """\
from attr import attrib, attrs
from attr.converters import default_if_none


@attrs(slots=True)
class NotValidator:
    validator = attrib()
    msg = attrib(
        converter=default_if_none(
            "not_ validator child '{validator!r}' did not raise a captured error"
        )
    )

    def __call__(self, value):
        try:
            self.validator(value)
        except ValueError:
            pass
        else:
            raise ValueError(self.msg.format(validator=self.validator), value)


def passes(value):
    return value
"""


def test_a_field_default_is_the_message_unless_the_caller_gave_one() -> None:
    templates = list(templates_at(NOT, "raise ValueError(self.msg").values())
    default = str(raised(NOT, "NotValidator(passes, None)(1)"))
    assert default.startswith("(\"not_ validator child '<function passes")
    fits = [t for t in templates if t.match(default) is not None]
    # the default's own words are in the template that fits, not one hole for the message
    assert fits and any("did not raise a captured error" in "".join(t.literals) for t in fits)
    custom = str(raised(NOT, "NotValidator(passes, 'custom message!')(1)"))
    assert custom == "('custom message!', 1)"
    assert any(t.match(custom) is not None for t in templates)
