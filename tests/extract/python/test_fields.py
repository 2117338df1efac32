"""A message held by an attrs field with a default (attrs' own ``not_`` validator): the
raise prints the default unless the caller gave another text; checked by running it."""

from __future__ import annotations

import textwrap
from typing import Any

from errdex.extract.python import extract_python

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


def _templates(code: str, source: str) -> list[Any]:
    line = next(i for i, text in enumerate(code.splitlines(), 1) if source in text)
    return [
        s.template
        for s in extract_python(textwrap.dedent(code), "m.py", module="m")
        if s.line == line
    ]


def _printed(code: str, call: str) -> str:
    scope: dict[str, Any] = {}
    exec(compile(textwrap.dedent(code), "m.py", "exec"), scope)
    try:
        exec(call, scope)
    except ValueError as exc:
        return str(exc)
    raise AssertionError(f"{call} raised nothing")


def test_a_field_default_is_the_message_unless_the_caller_gave_one() -> None:
    templates = _templates(NOT, "raise ValueError(self.msg")
    default = _printed(NOT, "NotValidator(passes, None)(1)")
    assert default.startswith("(\"not_ validator child '<function passes")
    fits = [t for t in templates if t.match(default) is not None]
    # the default's own words are in the template that fits, not one hole for the message
    assert fits and any("did not raise a captured error" in "".join(t.literals) for t in fits)
    custom = _printed(NOT, "NotValidator(passes, 'custom message!')(1)")
    assert custom == "('custom message!', 1)"
    assert any(t.match(custom) is not None for t in templates)
