"""``self.message`` kept from a constructor's parameter reads as the texts the module
builds the class with (jinja2's lexer ``Failure("Missing end of comment tag")``, blind
review of stop 35), and stays a hole where the class may be built some other way."""

from __future__ import annotations

from pathlib import Path

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository

from ._fixture import package_on_disk

LEXER = """\
import typing as t


class SyntaxProblem(Exception):
    pass


class Failure:
    def __init__(self, message: str, cls=SyntaxProblem) -> None:
        self.message = message
        self.error_class = cls

    def __call__(self, lineno: int) -> None:
        raise self.error_class(self.message)


class Rule:
    def __init__(self, tokens: t.Tuple[Failure, ...]) -> None:
        self.tokens = tokens


RULES = [
    Rule((Failure("Missing end of comment tag"),)),
    Rule((Failure(message="Missing end of raw directive"),)),
]


def run(token, n):
    if isinstance(token, Failure):
        token(n)
"""

#: Another module building one with a text this module cannot see.
OTHER = """\
from .lexer import Failure

ODD = Failure(compute())
"""


def _texts(root: Path, rel: str, needle: str) -> list[str]:
    text = (root / rel).read_text()
    line = next(i for i, t in enumerate(text.splitlines(), 1) if needle in t)
    with reading_repository(root):
        return [s.template.display for s in extract_python(text, rel) if s.line == line]


def test_the_texts_the_class_is_built_with(tmp_path: Path) -> None:
    with package_on_disk(tmp_path, "pkg", {"lexer": LEXER}) as root:
        import pkg.lexer as lexer  # type: ignore[import-not-found]

        printed = set()
        for rule in lexer.RULES:
            try:
                rule.tokens[0](1)
            except lexer.SyntaxProblem as exc:
                printed.add(str(exc))
        found = _texts(root, "src/pkg/lexer.py", "raise self.error_class")
    assert printed == {"Missing end of comment tag", "Missing end of raw directive"}
    assert sorted(found) == sorted(printed)


def test_a_class_built_elsewhere_keeps_the_hole(tmp_path: Path) -> None:
    with package_on_disk(tmp_path, "pkg", {"lexer": LEXER, "other": OTHER}) as root:
        found = _texts(root, "src/pkg/lexer.py", "raise self.error_class")
    assert found == ["{self.message}"]


def test_a_message_passed_as_a_value_keeps_the_hole(tmp_path: Path) -> None:
    code = LEXER.replace(
        'Failure(message="Missing end of raw directive")', "Failure(message=str(RULES))"
    )
    with package_on_disk(tmp_path, "pkg", {"lexer": code}) as root:
        found = _texts(root, "src/pkg/lexer.py", "raise self.error_class")
    assert found == ["{self.message}"]


def test_a_cython_module_python_cannot_parse_keeps_the_hole() -> None:
    """A ``.pyx`` module is Cython's grammar (``cimport``): no construction of its class
    is known, so ``self.message`` stays a hole and the file is read (pandas 2.2.3's
    tslibs/offsets.pyx was skipped whole: 'syntax error at line 7')."""
    from errdex.extract.cython import extract_cython

    pyx = (
        "cimport cython\n\n"
        "cdef class P:\n"
        "    def __init__(self, message):\n"
        "        self.message = message\n\n"
        "    def run(self):\n"
        '        raise ValueError(f"bad run {self.message}")\n'
    )
    found = {s.line: s.template.display for s in extract_cython(pyx, "pkg/m.pyx")}
    assert found == {8: "bad run {self.message}"}
