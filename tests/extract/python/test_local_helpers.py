"""``parser = Parser(raw); raise parser.parse_error(...)``: a helper reached through a
local name that holds an instance of a repository class builds the message, as it does
through ``self``. The expected texts are checked against what the fixture really raises."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest

from ._fixture import package_on_disk, printed_by, sites_by_line

ERRORS = """\
class ParseError(ValueError):
    def __init__(self, line, col, message=None):
        if message is None:
            message = "parse error"
        super().__init__(f"{message} at line {line} col {col}")


class UnexpectedChar(ParseError):
    def __init__(self, line, col, char):
        super().__init__(line, col, f"Unexpected character: {char!r}")
"""

PARSER = """\
from .errors import ParseError


class Source(str):
    def parse_error(self, exception=ParseError, *args, **kwargs):
        return exception(1, len(self), *args, **kwargs)


class Parser:
    def __init__(self, text):
        self._src = Source(text)
        self.current = text[-1:]

    def parse_error(self, exception=ParseError, *args, **kwargs):
        return self._src.parse_error(exception, *args, **kwargs)
"""

API = """\
from .errors import UnexpectedChar
from .parser import Parser, Source


def value(raw):
    parser = Parser(raw)
    raise parser.parse_error(UnexpectedChar, char=parser.current)


def key(raw):
    source = Source(raw)
    raise source.parse_error()


def either(raw, strict):
    helper = Parser(raw) if strict else raw.upper()
    raise helper.parse_error()
"""


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    modules = {"errors": ERRORS, "parser": PARSER, "api": API}
    with package_on_disk(tmp_path, "toml_like", modules) as root:
        yield root


def _printed(call: str) -> str:
    return printed_by("toml_like.api", call)


def test_a_helper_called_on_a_local_instance_builds_the_message(package: Path) -> None:
    rel = "src/toml_like/api.py"
    found = sites_by_line(package, rel)
    value = found[7]
    assert value.qualified_class == "toml_like.errors.UnexpectedChar"
    assert value.template.display == "Unexpected character: {char!r} at line 1 col {col}"
    assert value.template.match(_printed("value('a = !')")) is not None
    key = found[12]
    assert key.qualified_class == "toml_like.errors.ParseError"
    assert key.template.display.endswith(" at line 1 col {col}")
    assert key.template.match(_printed("key('x')")) is not None
    # a name that may hold something else is not followed
    assert found[17].error_class is None
    assert found[17].template.display == "{…}"
    assert [h.filled for h in found[17].template.holes] == ["str(helper.parse_error())"]


CLOSURE = """\
class error(Exception):
    def __init__(self, msg, pos):
        super().__init__("%s at position %d" % (msg, pos))


class Tokenizer:
    def __init__(self, source):
        self.source = source

    def error(self, msg, pos):
        return error(msg, pos)


def parse_template(source, groups):
    s = Tokenizer(source)

    def addgroup(index, pos):
        if index > groups:
            raise s.error("invalid group reference %d" % index, pos)

    addgroup(int(source), 1)
"""


def test_a_nested_function_raising_through_an_enclosing_local() -> None:
    """``re._parser.parse_template``'s ``addgroup``: ``s`` is the enclosing function's
    ``Tokenizer``, so ``s.error(...)`` is its method, as ``str()`` prints it."""
    from ._fixture import raised, templates_at

    (template,) = templates_at(CLOSURE, "raise s.error").values()
    printed = str(raised(CLOSURE, "parse_template('5', 2)"))
    assert printed == "invalid group reference 5 at position 1"
    assert template.match(printed) is not None
    assert template.display == "invalid group reference %d at position %d"
