"""A raise whose class arrives as a parameter (jinja2's ``Parser.fail(…, exc=…)``, runpy's
``_get_module_details(mod_name, error=ImportError)``, tarfile's ``copyfileobj(…,
exception=OSError)``, tomlkit's ``Source.inc(exception=…)``): the class is each one the
calls pass, and each site's message is checked against what the fixture really raises."""

from __future__ import annotations

import importlib
import textwrap
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository
from errdex.extract.site import ErrorSite

from ..test_python_builders import ERRORS
from ._fixture import package_on_disk, raised, raises_as_recorded
from .test_callers import CLASS_PASSED

EXCEPTIONS = """\
class TemplateSyntaxError(Exception):
    def __init__(self, message, lineno, name=None):
        super().__init__(message)
        self.lineno = lineno
        self.name = name


class TemplateAssertionError(TemplateSyntaxError):
    pass
"""

PARSER = """\
from .exceptions import TemplateAssertionError, TemplateSyntaxError


class Parser:
    exc_class = TemplateSyntaxError

    def __init__(self, name=None):
        self.name = name

    def fail(self, msg, lineno=None, exc=TemplateSyntaxError):
        if lineno is None:
            lineno = 1
        raise exc(msg, lineno, self.name)

    def parse_statement(self, tag):
        if not tag:
            self.fail("tag name expected", 1)
        return tag

    def parse_assign(self, target):
        if target == "loop":
            self.fail("can't assign to 'loop'", 2, exc=TemplateAssertionError)

    def parse_other(self):
        self.fail("left out", 3, self.exc_class)


class Compiler:
    def fail(self, msg, lineno):
        raise TemplateAssertionError(msg, lineno)

    def visit(self):
        self.fail("not the parser's", 4, exc=TemplateSyntaxError)
"""

EXT = """\
import typing as t

from .exceptions import TemplateAssertionError

if t.TYPE_CHECKING:
    from .parser import Parser


class Extension:
    def parse(self, parser: "Parser", name):
        parser.fail(f"translatable variable {name!r} defined twice.", 5, exc=TemplateAssertionError)
"""


def _sites(root: Path, rel: str, source: str) -> list[ErrorSite]:
    line = next(
        i for i, text in enumerate((root / rel).read_text().splitlines(), 1) if source in text
    )
    with reading_repository(root):
        found = extract_python((root / rel).read_text(), rel)
    return [s for s in found if s.line == line]


def _exception(module: str, call: str) -> BaseException:
    namespace = vars(importlib.import_module(module))
    with pytest.raises(Exception) as caught:
        exec(call, namespace)
    return caught.value


def test_a_method_s_class_is_each_one_its_calls_pass_in_the_package(tmp_path: Path) -> None:
    """``self.fail(…)`` in the class, ``parser.fail(…, exc=…)`` by keyword in another module
    of the package on a parameter annotated ``"Parser"``: each class with its callers'
    messages; ``self.exc_class`` (not resolved) is left out and the records say so; another
    class's own ``fail`` is not a call of this one."""
    modules = {"exceptions": EXCEPTIONS, "parser": PARSER, "ext": EXT}
    with package_on_disk(tmp_path, "tmpl", modules) as root:
        sites = _sites(root, "src/tmpl/parser.py", "raise exc(msg")
        by_class: dict[str, set[str]] = {}
        for site in sites:
            by_class.setdefault(site.qualified_class or "", set()).add(site.template.display)
        assert by_class == {
            "tmpl.exceptions.TemplateSyntaxError": {"tag name expected", "{msg}"},
            "tmpl.exceptions.TemplateAssertionError": {
                "{msg}",
                "can't assign to 'loop'",
                "translatable variable {name!r} defined twice.",
            },
        }
        checks = [
            ("tmpl.parser", "Parser().parse_statement('')", "tag name expected"),
            ("tmpl.parser", "Parser().parse_assign('loop')", "can't assign to 'loop'"),
            (
                "tmpl.ext",
                "from tmpl.parser import Parser\nExtension().parse(Parser(), 'x')",
                "translatable variable {name!r} defined twice.",
            ),
        ]
        for module, call, display in checks:
            exc = _exception(module, call)
            (site,) = [s for s in sites if s.template.display == display]
            assert site.error_class == type(exc).__name__
            assert site.template.match(str(exc)) is not None, str(exc)
        notes = " ".join(sites[0].notes)
        assert "class taken from the 4 call(s) of `fail` in this module and 1 other module" in notes
        assert "class set may be incomplete: 1 call(s) pass `exc` a value not resolved" in notes
        assert "code outside the repository may call `Parser.fail` with another class" in notes
        where = {n for s in sites if s.error_class == "TemplateAssertionError" for n in s.notes}
        assert (
            "class `tmpl.exceptions.TemplateAssertionError`: passed as `exc` at"
            " src/tmpl/parser.py:22, src/tmpl/ext.py:11"
        ) in where


#: runpy's shape, every call passing ``error=_Error`` by keyword (one passes it on).
RUNPY = CLASS_PASSED[: CLASS_PASSED.index("def run_module")] + textwrap.dedent(
    """\
    def _run_module_as_main(mod_name):
        return _get_module_details(mod_name, error=_Error)


    def _run_other(mod_name):
        return _get_module_details(mod_name, error=_Error)
    """
)


def test_a_private_function_s_callers_all_passing_one_class_by_keyword() -> None:
    """Every call passes ``error=_Error``: the default is never raised, so only ``_Error``."""
    found = [s for s in extract_python(RUNPY, "m.py", module="m") if s.line == 7]
    assert [s.qualified_class for s in found] == ["m._Error"]
    exc = raised(RUNPY, "_run_module_as_main('.x')")
    assert type(exc).__name__ == "_Error"
    assert found[0].template.match(str(exc)) is not None
    assert not any("incomplete" in n for n in found[0].notes)


TARFILE = """\
class TarError(Exception):
    pass


class ReadError(TarError):
    pass


def copyfileobj(src, dst, length=None, exception=OSError, bufsize=None):
    buf = src.read(length)
    if len(buf) < length:
        raise exception("unexpected end of data")
    dst.write(buf)


class TarFile:
    def addfile(self, fileobj, size, dst):
        copyfileobj(fileobj, dst, size, bufsize=16)

    def makefile(self, source, size, dst):
        copyfileobj(source, dst, size, ReadError, 16)
"""


def test_a_public_function_keeps_its_default_beside_the_class_passed_positionally() -> None:
    found = [s for s in extract_python(TARFILE, "m.py", module="m") if s.line == 12]
    assert sorted(s.qualified_class or "" for s in found) == ["builtins.OSError", "m.ReadError"]
    cases = {
        "TarFile().addfile(io.BytesIO(b'ab'), 4, io.BytesIO())": "OSError",
        "TarFile().makefile(io.BytesIO(b'ab'), 4, io.BytesIO())": "ReadError",
    }
    raises_as_recorded("import io\n" + TARFILE, found, cases)
    assert all("may call `copyfileobj` with another" in " ".join(s.notes) for s in found)


TOML_SOURCE = """\
from tomlk.exceptions import ParseFailure


class Source(str):
    def __init__(self, text):
        self._idx = 0

    def inc(self, exception=None):
        if self._idx + 1 < len(self):
            self._idx += 1
            return True
        self._idx = len(self)
        if exception:
            raise self.parse_error(exception) from None
        return False

    def parse_error(self, exception=ParseFailure, *args):
        line, col = 1, self._idx
        return exception(line, col, *args)
"""

TOML_PARSER = """\
from tomlk.exceptions import BadDigit
from tomlk.source import Source


class Parser:
    def __init__(self, text):
        self._src = Source(text)

    def inc(self, exception=None):
        return self._src.inc(exception=exception)

    def parse_string(self):
        self.inc()
        self.inc(exception=BadDigit)
"""


def test_a_class_passed_on_through_a_caller_in_another_module(tmp_path: Path) -> None:
    """tomlkit: ``Parser.inc`` passes its own ``exception`` to ``self._src.inc`` (``_src``
    a ``Source``), and ``parse_string`` passes ``BadDigit`` (tomlkit's ``UnexpectedEofError``); ``self.inc()``
    passes None, which raises nothing."""
    modules = {"exceptions": ERRORS, "source": TOML_SOURCE, "parser": TOML_PARSER}
    with package_on_disk(tmp_path, "tomlk", modules) as root:
        sites = _sites(root, "src/tomlk/source.py", "raise self.parse_error(exception)")
        assert [s.qualified_class for s in sites] == ["tomlk.exceptions.BadDigit"]
        exc = _exception("tomlk.parser", "Parser('a').parse_string()")
        assert str(exc) == "Bad digit at line 1 col 1"
        assert sites[0].template.match(str(exc)) is not None
        assert not any("not resolved to a class" in n for n in sites[0].notes)


def test_a_raise_whose_class_no_call_settles_keeps_what_its_line_shows() -> None:
    code = textwrap.dedent(
        """\
        def _raise_with(error, msg):
            raise error(msg)


        def load(kind):
            _raise_with(kind, "bad")
        """
    )
    (site,) = [s for s in extract_python(code, "m.py", module="m") if s.line == 2]
    assert site.error_class is None


def test_a_class_handed_to_a_builder_not_resolved_stays_one_unknown_site() -> None:
    """``raise build(cls)`` with ``build`` from a module not read: each caller's class
    changes nothing the line shows, so the one site stays, with no class."""
    code = textwrap.dedent(
        """\
        from elsewhere import build


        def _fail(cls):
            raise build(cls)


        def load(text):
            if not text:
                _fail(ValueError)
            _fail(KeyError)
        """
    )
    (site,) = [s for s in extract_python(code, "m.py", module="m") if s.line == 5]
    assert site.error_class is None


def test_a_public_function_passing_its_parameter_on_keeps_its_default() -> None:
    """``load(text, error=ValueError)`` hands ``error`` to the private ``_check``: a call of
    ``load`` from outside raises ``ValueError``; ``strict`` passes ``KeyError``."""
    code = textwrap.dedent(
        """\
        def _check(text, error):
            if not text:
                raise error("empty text")
            return text


        def load(text, error=ValueError):
            return _check(text, error)


        def strict(text):
            return load(text, error=KeyError)
        """
    )
    found = [s for s in extract_python(code, "m.py", module="m") if s.line == 3]
    assert sorted(s.error_class or "" for s in found) == ["KeyError", "ValueError"]
    raises_as_recorded(code, found, {"load('')": "ValueError", "strict('')": "KeyError"})
    assert all("may call `load` with another class" in " ".join(s.notes) for s in found)
