"""A message a caller passes as ``" ".join(message)`` of a list it starts as a literal and
grows by ``append`` (jinja2's ``Parser._fail_ut_eof`` calling ``self.fail``): what the
list starts as, joined, then one hole for what the appends may add."""

from __future__ import annotations

from errdex.extract.python import extract_python

from ._fixture import raised

PARSER = """\
class TemplateSyntaxError(Exception):
    pass


class Parser:
    def __init__(self):
        self._tag_stack = []

    def fail(self, msg, lineno=None, exc=TemplateSyntaxError):
        raise exc(msg)

    def _fail_ut_eof(self, name, end_token_stack, lineno):
        if name is None:
            message = ["Unexpected end of template."]
        else:
            message = [f"Encountered unknown tag {name!r}."]
        if end_token_stack:
            message.append(f"Jinja was looking for the following tags: {end_token_stack[-1]!r}.")
        if self._tag_stack:
            message.append(f"The innermost block that needs to be closed is {self._tag_stack[-1]!r}.")
        self.fail(" ".join(message), lineno)

    def _fail_listed(self, names):
        message = ["Unknown names:"]
        for name in names:
            message.append(name)
        message.extend(names)
        self.fail(" ".join(message))
"""


def _displays() -> set[str]:
    found = extract_python(PARSER, "m.py", module="m")
    return {s.template.display for s in found if s.function == "fail"}


def test_a_list_joined_by_a_caller_is_its_start_then_what_is_appended() -> None:
    displays = _displays()
    assert "Encountered unknown tag {name!r}.{…}" in displays
    assert "Unexpected end of template.{…}" in displays
    (site,) = [
        s
        for s in extract_python(PARSER, "m.py", module="m")
        if s.template.display == "Encountered unknown tag {name!r}.{…}"
    ]
    calls = [
        "Parser()._fail_ut_eof('endif', [('endfor',)], 1)",
        "Parser()._fail_ut_eof('endif', [], 1)",
    ]
    for call in calls:
        assert site.template.match(str(raised(PARSER, call))) is not None


def test_a_list_changed_otherwise_is_not_read() -> None:
    """``message.extend(names)`` may add anything: the caller's message is not settled."""
    assert not any(d.startswith("Unknown names:") for d in _displays())
