"""A ``__str__`` that prints the message alone once a flag is set, else the message and
more lines (jinja2's ``TemplateSyntaxError``): the record's template is the raise's
message; ``typing.cast`` is its argument; a property reading ``self.args[0]`` is the
message the base ``__init__`` was given."""

from __future__ import annotations

from errdex.extract.python import extract_python

from ._fixture import raised

#: jinja2 3.1.6's exceptions, as its ``exceptions.py`` writes them (docstrings left out).
EXCEPTIONS = """\
import typing as t


class TemplateError(Exception):
    def __init__(self, message: t.Optional[str] = None) -> None:
        super().__init__(message)

    @property
    def message(self) -> t.Optional[str]:
        return self.args[0] if self.args else None


class TemplateSyntaxError(TemplateError):
    def __init__(self, message, lineno, name=None, filename=None):
        super().__init__(message)
        self.lineno = lineno
        self.name = name
        self.filename = filename
        self.source: t.Optional[str] = None
        self.translated = False

    def __str__(self) -> str:
        if self.translated:
            return t.cast(str, self.message)
        location = f"line {self.lineno}"
        name = self.filename or self.name
        if name:
            location = f'File "{name}", {location}'
        lines = [t.cast(str, self.message), "  " + location]
        if self.source is not None:
            try:
                line = self.source.splitlines()[self.lineno - 1]
            except IndexError:
                pass
            else:
                lines.append("    " + line.strip())
        return "\\n".join(lines)


def expect(token, lineno):
    raise TemplateSyntaxError(f"expected token {token!r}", lineno, "index.html")


def fail(msg, lineno):
    raise TemplateSyntaxError(msg, lineno)
"""


def _translated(exc: BaseException) -> BaseException:
    """What jinja2's ``debug.rewrite_traceback_stack`` does before the error is shown."""
    exc.translated = True  # type: ignore[attr-defined]
    return exc


def _sites(line_text: str) -> list[str]:
    line = next(i for i, t in enumerate(EXCEPTIONS.splitlines(), 1) if line_text in t)
    found = extract_python(EXCEPTIONS, "m.py", module="m")
    return [s.template.display for s in found if s.line == line]


def test_the_message_alone_is_the_template_and_the_longer_forms_are_said() -> None:
    """What a translated error prints (every error jinja2's environment raises) is the
    raise's message; the untranslated form, the message then its location, is left out
    and the notes say so."""
    assert _sites('raise TemplateSyntaxError(f"expected') == ["expected token {token!r}"]
    (site,) = [s for s in extract_python(EXCEPTIONS, "m.py", module="m") if s.function == "expect"]
    exc = raised(EXCEPTIONS, "expect('end', 3)")
    assert str(exc) == "expected token 'end'\n  File \"index.html\", line 3"
    assert site.template.match(str(_translated(exc))) == {"token": "'end'"}
    notes = " ".join(site.notes)
    assert "left out: 4 longer form(s) `TemplateSyntaxError.__str__` returns" in notes


def test_a_message_the_caller_passes_on_stays_the_caller_s() -> None:
    """``fail(msg, …)``: the message is what the caller gave, one hole, not unknown."""
    assert _sites("raise TemplateSyntaxError(msg, lineno)") == ["{msg}"]
    exc = _translated(raised(EXCEPTIONS, "fail('tag name expected', 1)"))
    assert str(exc) == "tag name expected"


def test_typing_cast_is_its_value() -> None:
    code = """\
import typing as t
from typing import cast


def f(name):
    raise ValueError(t.cast(str, f"bad name {name}"))


def g(name):
    raise ValueError(cast(str, "no " + name))
"""
    found = {s.function: s.template.display for s in extract_python(code, "m.py", module="m")}
    assert found == {"f": "bad name {name}", "g": "no {name}"}
    assert str(raised(code, "f('x')")) == "bad name x"
