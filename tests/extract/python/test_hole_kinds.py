"""A hole an ``if`` holds to one character (jinja2's lexer: ``elif data in ("}", ")",
"]"): raise TemplateSyntaxError(f"unexpected '{data}'", …)``) matches one character only."""

from __future__ import annotations

from errdex.extract.python import extract_python

from ._fixture import raised

LEXER = """\
def balance(data, stack):
    if data == "{":
        stack.append("}")
    elif data in ("}", ")", "]"):
        if not stack:
            raise SyntaxError(f"unexpected '{data}'")
        expected = stack.pop()
        if expected != data:
            raise SyntaxError(f"unexpected '{data}', expected '{expected}'")


def parse(token):
    if token in ("a", "b"):
        token = describe(token)
        raise SyntaxError(f"unexpected '{token}'")


def describe(token):
    return "end of print statement"
"""


def test_a_hole_held_to_one_character_matches_one_character() -> None:
    sites = {s.line: s for s in extract_python(LEXER, "m.py", module="m")}
    first, second = sites[6], sites[9]
    assert first.template.match(str(raised(LEXER, "balance(']', [])"))) == {"data": "]"}
    assert first.template.match("unexpected 'end of print statement'") is None
    message = str(raised(LEXER, "balance(')', [']'])"))
    assert second.template.match(message) == {"data": ")", "expected": "]"}
    assert second.template.holes[0].kind == "char"
    assert second.template.holes[1].kind == ""  # ``expected``: not what the test reads


def test_a_name_bound_again_under_the_test_is_not_narrowed() -> None:
    (site,) = [s for s in extract_python(LEXER, "m.py", module="m") if s.function == "parse"]
    assert site.template.match(str(raised(LEXER, "parse('a')"))) is not None
