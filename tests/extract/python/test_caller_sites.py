"""A helper that raises the class its caller passes, looked up in a dict of classes
(``_pydecimal``'s ``Context._raise_error``): each call that settles the class and the
message is a site of its own, at the call's line, checked against what the code raises."""

from __future__ import annotations

import re
import sys
import textwrap
from pathlib import Path

from errdex.extract.python import extract_python
from errdex.extract.site import ErrorSite

from ._fixture import raised

DECIMALISH = textwrap.dedent("""\
    class DecimalException(ArithmeticError):
        pass


    class InvalidOperation(DecimalException):
        pass


    class ConversionSyntax(InvalidOperation):
        pass


    class DivisionByZero(DecimalException):
        pass


    _condition_map = {ConversionSyntax: InvalidOperation}


    class Context:
        def __init__(self, traps=True):
            self.traps = traps

        def _raise_error(self, condition, explanation=None, *args):
            error = _condition_map.get(condition, condition)
            if not self.traps:
                return None
            raise error(explanation)


    def parse(text, context):
        if not text.isdigit():
            return context._raise_error(ConversionSyntax, "Invalid literal: %r" % text)
        return int(text)


    def divide(a, b, context):
        if b == 0:
            return context._raise_error(DivisionByZero, "x / 0", a)
        return a / b


    def other(context, why):
        return context._raise_error(InvalidOperation, why)
    """)


def _sites(code: str) -> list[ErrorSite]:
    return extract_python(code, "m.py", module="m")


def _line(code: str, text: str) -> int:
    return next(i for i, line in enumerate(code.splitlines(), 1) if text in line)


def test_each_settled_call_is_a_site_at_its_line_with_the_mapped_class() -> None:
    sites = _sites(DECIMALISH)
    raise_line = _line(DECIMALISH, "raise error(explanation)")
    parse_line = _line(DECIMALISH, 'ConversionSyntax, "Invalid')
    divide_line = _line(DECIMALISH, 'DivisionByZero, "x / 0"')
    at = {s.line: s for s in sites}
    parse = at[parse_line]
    # ConversionSyntax is looked up in _condition_map: InvalidOperation is what is raised
    assert (parse.error_class, parse.qualified_class) == ("InvalidOperation", "m.InvalidOperation")
    assert parse.template.display == "Invalid literal: %r"
    assert parse.raised_at == raise_line
    assert parse.qualname == "m.parse" and parse.function == "parse"
    assert [g.text for g in parse.guards] == ["not text.isdigit()"]
    assert parse.evidence()["raisedAt"] == raise_line
    divide = at[divide_line]
    assert (divide.error_class, divide.template.display) == ("DivisionByZero", "x / 0")
    assert [g.text for g in divide.guards] == ["b == 0"]
    # ``other`` passes its own public parameter: not settled, so the helper's raise stays
    assert _line(DECIMALISH, "InvalidOperation, why") not in at
    assert raise_line in at and at[raise_line].raised_at is None
    # what the code really raises fits each site's pattern, and is of its class
    for call, site in (
        ("parse('abc', Context())", parse),
        ("divide(1, 0, Context())", divide),
    ):
        exc = raised(DECIMALISH, call)
        assert type(exc).__name__ == site.error_class
        assert re.fullmatch(site.template.pattern, str(exc)), (str(exc), site.template.pattern)


def test_the_helpers_own_site_goes_when_every_call_is_a_site() -> None:
    code = DECIMALISH.replace(
        "return context._raise_error(InvalidOperation, why)",
        "return context._raise_error(InvalidOperation, 'other: ' + 'why')",
    )
    lines = {s.line for s in _sites(code)}
    assert _line(code, "raise error(explanation)") not in lines
    assert _line(code, "'other: ' + 'why'") in lines


def test_a_dict_changed_anywhere_is_not_read() -> None:
    code = DECIMALISH + "\n_condition_map[DivisionByZero] = InvalidOperation\n"
    sites = _sites(code)
    assert all(s.raised_at is None for s in sites)
    assert _line(code, 'ConversionSyntax, "Invalid') not in {s.line for s in sites}


def test_a_call_passing_no_class_is_left_to_the_helper() -> None:
    code = DECIMALISH.replace(
        'return context._raise_error(DivisionByZero, "x / 0", a)',
        'return context._raise_error(b, "x / 0", a)',
    )
    sites = _sites(code)
    assert _line(code, "context._raise_error(b,") not in {s.line for s in sites}
    assert _line(code, "raise error(explanation)") in {s.line for s in sites}
    # the calls that do settle theirs are still sites of their own
    settled = [s for s in sites if s.raised_at is not None]
    assert [s.line for s in settled] == [_line(code, 'ConversionSyntax, "Invalid')]


def test_pydecimal_sqrt_of_a_negative_is_recorded_at_its_call() -> None:
    path = Path(sys.modules["re"].__file__ or "").parent.parent / "_pydecimal.py"
    code = path.read_text()
    sites = _sites(code)
    line = _line(code, "'sqrt(-x), x > 0'")
    found = [s for s in sites if s.line == line]
    assert [(s.error_class, s.template.display) for s in found] == [
        ("InvalidOperation", "sqrt(-x), x > 0")
    ]
    assert found[0].raised_at == _line(code, "raise error(explanation)")
    literal = [s for s in sites if s.template.display == "Invalid literal for Decimal: %r"]
    assert literal and all(s.error_class == "InvalidOperation" for s in literal)
    import _pydecimal

    context = _pydecimal.Context()
    try:
        _pydecimal.Decimal("abc", context)
    except _pydecimal.InvalidOperation as exc:
        assert re.fullmatch(literal[0].template.pattern, str(exc))
    else:
        raise AssertionError("Decimal('abc') raised nothing")


def test_a_call_the_walk_does_not_stop_at_keeps_the_helpers_site() -> None:
    code = DECIMALISH.replace(
        "return context._raise_error(InvalidOperation, why)",
        "if context._raise_error(InvalidOperation, 'in a test'):\n        return 1",
    )
    lines = {s.line: s for s in _sites(code)}
    assert _line(code, "'in a test'") not in lines
    assert lines[_line(code, "raise error(explanation)")].raised_at is None
    assert lines[_line(code, '"x / 0"')].raised_at == _line(code, "raise error(explanation)")
