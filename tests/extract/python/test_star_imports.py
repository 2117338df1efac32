"""``from .errors import *``: a class or message helper made visible by a star import is
followed like an explicit import; checked against ``str()`` of what the package raises."""

from __future__ import annotations

import sysconfig
from collections.abc import Iterator
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository

from ._fixture import package_on_disk, printed_by, sites_by_line

ERRORS = """\
__all__ = ["ParseError", "bad_token"]


class ParseError(ValueError):
    def __init__(self, what, line):
        super().__init__(f"{what} at line {line}")


def bad_token(token, line):
    return ParseError(f"unexpected token {token!r}", line)


class Hidden(ValueError):
    def __init__(self):
        super().__init__("hidden")
"""

PARSER = """\
from .errors import *


def parse(text):
    if not text:
        raise ParseError("empty input", 1)
    raise bad_token(text[0], 1)
"""


@pytest.fixture
def package(tmp_path: Path) -> Iterator[Path]:
    with package_on_disk(tmp_path, "starpkg", {"errors": ERRORS, "parser": PARSER}) as root:
        yield root


def _printed(call: str) -> str:
    return printed_by("starpkg.parser", call)


def test_a_star_import_makes_the_class_and_the_helper_visible(package: Path) -> None:
    rel = "src/starpkg/parser.py"
    found = sites_by_line(package, rel)
    empty, token = found[6], found[7]
    assert empty.qualified_class == "starpkg.errors.ParseError"
    assert empty.template.display == "empty input at line 1"
    assert empty.template.match(_printed("parse('')")) is not None
    assert token.qualified_class == "starpkg.errors.ParseError"
    assert token.template.display == "unexpected token {token!r} at line 1"
    assert token.template.match(_printed("parse('x')")) is not None


def test_the_standard_library_read_as_a_repository_keeps_every_configparser_site() -> None:
    """``collections.abc`` star-imports ``_collections_abc``: with ``MutableMapping`` now
    resolved, ``key = self.optionxform(str(key))`` in a loop reads its own value again; that
    must end (it once recursed without end and the whole module lost its sites)."""
    stdlib = Path(sysconfig.get_paths()["stdlib"])
    text = (stdlib / "configparser.py").read_text()
    with reading_repository(stdlib, "Lib/"):
        found = extract_python(text, "Lib/configparser.py")
    assert len(found) == len(extract_python(text, "Lib/configparser.py"))
    duplicate = [s for s in found if s.qualified_class == "configparser.DuplicateOptionError"]
    assert duplicate
