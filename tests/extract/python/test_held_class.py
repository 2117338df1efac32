"""A raise whose class an attribute of ``self`` holds (jinja2's ``raise
self._undefined_exception(self._undefined_message)``): the ``__init__`` parameter's
default class, and each class a call of the class passes by keyword, also through an
attribute of another class that holds this one (``self.undefined(…, exc=SecurityError)``
in a subclass of ``Environment``, whose ``__init__`` keeps ``undefined=Undefined``)."""

from __future__ import annotations

import importlib
from pathlib import Path

import pytest

from errdex.extract.python import extract_python
from errdex.extract.python.project import reading_repository

from ._fixture import package_on_disk, sites_by_line

EXCEPTIONS = """\
class TemplateError(Exception):
    def __init__(self, message=None):
        super().__init__(message)


class UndefinedError(TemplateError):
    pass


class SecurityError(TemplateError):
    pass


class TemplateSyntaxError(TemplateError):
    pass
"""

#: jinja2's lexer ``Failure``: ``self.error_class = cls``, ``cls=TemplateSyntaxError``.
FAILURE = """\
class Failure:
    def __init__(self, message, cls=TemplateSyntaxError):
        self.message = message
        self.error_class = cls

    def __call__(self, lineno):
        raise self.error_class(self.message)
"""

RUNTIME = """\
from .exceptions import TemplateSyntaxError, UndefinedError

missing = object()


class Undefined:
    def __init__(self, hint=None, obj=missing, name=None, exc=UndefinedError):
        self._undefined_hint = hint
        self._undefined_obj = obj
        self._undefined_name = name
        self._undefined_exception = exc

    @property
    def _undefined_message(self):
        if self._undefined_hint:
            return self._undefined_hint
        if self._undefined_obj is missing:
            return f"{self._undefined_name!r} is undefined"
        return f"{type(self._undefined_obj).__name__!r} has no attribute {self._undefined_name!r}"

    def _fail_with_undefined_error(self, *args, **kwargs):
        raise self._undefined_exception(self._undefined_message)

    __str__ = _fail_with_undefined_error
"""

ENVIRONMENT = """\
from .runtime import Undefined


class Environment:
    def __init__(self, undefined=Undefined):
        self.undefined = undefined

    def getattr(self, obj, attribute):
        return self.undefined(obj=obj, name=attribute)
"""

SANDBOX = """\
from .environment import Environment
from .exceptions import SecurityError


class SandboxedEnvironment(Environment):
    def __init__(self, *args, **kwargs):
        super().__init__(*args, **kwargs)

    def unsafe_undefined(self, obj, attribute):
        return self.undefined(f"access to attribute {attribute!r} is unsafe.", exc=SecurityError)
"""


def test_the_class_held_is_the_default_and_each_class_a_call_passes(tmp_path: Path) -> None:
    modules = {
        "exceptions": EXCEPTIONS,
        "runtime": RUNTIME,
        "environment": ENVIRONMENT,
        "sandbox": SANDBOX,
    }
    with package_on_disk(tmp_path, "tmpl", modules) as root:
        line = RUNTIME.splitlines().index(
            "        raise self._undefined_exception(self._undefined_message)"
        )
        with reading_repository(root):
            found = extract_python(RUNTIME, "src/tmpl/runtime.py")
        at = [s for s in found if s.line == line + 1]
        by_class: dict[str, set[str]] = {}
        for site in at:
            by_class.setdefault(site.error_class or "", set()).add(site.template.display)
        messages = {
            "{hint}",
            "{self._undefined_name!r} is undefined",
            "{type(self._undefined_obj).__name__!r} has no attribute {self._undefined_name!r}",
        }
        # the one call passing SecurityError gives the hint, which the property returns first
        assert by_class == {
            "UndefinedError": messages,
            "SecurityError": {"access to attribute {attribute!r} is unsafe."},
        }
        notes = " ".join(at[0].notes)
        assert "class held in `self._undefined_exception`" in notes
        assert "`Undefined.__init__` keeps from `exc`: taken from 1 call(s)" in notes
        places = {n for s in at for n in s.notes if "passed as `exc`" in n}
        assert places == {
            "class `tmpl.exceptions.SecurityError`: passed as `exc` at src/tmpl/sandbox.py:10"
        }
        runtime = importlib.import_module("tmpl.runtime")
        sandbox = importlib.import_module("tmpl.sandbox")
        shown = [
            (runtime.Undefined(name="user"), "UndefinedError"),
            (sandbox.SandboxedEnvironment().unsafe_undefined(1, "mro"), "SecurityError"),
        ]
        for undefined, name in shown:
            with pytest.raises(Exception) as caught:
                str(undefined)
            assert type(caught.value).__name__ == name
            matching = [s for s in at if s.error_class == name]
            assert any(s.template.match(str(caught.value)) for s in matching), str(caught.value)


def test_a_class_kept_from_a_parameter_default_without_calls_passing_another() -> None:
    """The class ``__init__`` keeps by default, no call passing another."""
    code = "class TemplateSyntaxError(Exception):\n    pass\n\n\n" + FAILURE
    (site,) = extract_python(code, "m.py", module="m")
    assert (site.error_class, site.template.display) == ("TemplateSyntaxError", "{self.message}")


def test_an_attribute_set_twice_names_no_class(tmp_path: Path) -> None:
    """``self.error_class`` assigned in two methods: which one holds is not known."""
    code = """\
class Failure:
    def __init__(self, message, cls=ValueError):
        self.message = message
        self.error_class = cls

    def reset(self):
        self.error_class = KeyError

    def __call__(self):
        raise self.error_class(self.message)
"""
    with package_on_disk(tmp_path, "fl", {"failure": code}) as root:
        sites = sites_by_line(root, "src/fl/failure.py")
    assert sites[10].error_class is None
